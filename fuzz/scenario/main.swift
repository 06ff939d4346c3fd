import TellerQA

/// libFuzzer's entry: the bytes as a scenario file's text, through the
/// parser; the scenario's name and every step are read back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let scenario = try Scenario(parsing: text, path: "/qa/scenarios/fuzz.scenario")
        _ = scenario.name
        for step in scenario.steps { _ = (step.line, step.action) }
    } catch {
        _ = error.description
    }
    return 0
}
