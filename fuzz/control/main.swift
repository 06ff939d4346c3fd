import TellerControl

/// libFuzzer's entry: the bytes as one line a client wrote to the control
/// socket (invalid UTF-8 repaired, as the server's String(decoding:) does),
/// through the parser, the command's own line form and the JSON answer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let line = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let command = try ControlCommand(line: line)
        _ = try? ControlCommand(line: command.line)
        _ = ControlAnswer.ok(.string(command.line))
    } catch {
        _ = ControlAnswer.error(error.description)
    }
    return 0
}
