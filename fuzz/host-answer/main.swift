import TellerData

/// libFuzzer's entry: the bytes as one host answer (status, Content-Type,
/// Retry-After and body), read every way the terminal reads answers.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    HostAnswerFuzzing.exercise(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
