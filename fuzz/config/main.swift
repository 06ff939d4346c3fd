import TellerConfiguration
import Foundation

/// Where ConfigurationFuzzing writes each input: one file per fuzzer process.
private let scratchFile = FileManager.default.temporaryDirectory.appendingPathComponent("teller-fuzz-config-\(getpid()).conf").path

/// libFuzzer's entry: the bytes as teller.conf and as command-line flags.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ConfigurationFuzzing.exercise(Array(UnsafeBufferPointer(start: data, count: size)), scratchFile: scratchFile)
    return 0
}
