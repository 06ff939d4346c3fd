import Device

/// libFuzzer's entry: Device's own fuzzing surface (the evemu reader and
/// writer, then the touch and key decoders over the recording's events, the
/// raw bytes as kernel events and an unchecked touchscreen).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    InputFuzzing.exercise(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
