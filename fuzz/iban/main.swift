import TellerCore

/// libFuzzer's entry: the bytes as the text an operator typed or a scanner
/// sent (invalid UTF-8 repaired, as `String(decoding:)` does for both),
/// through validation and back out through every derived form.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = IBAN.normalise(text)
    do {
        let iban = try IBAN(text)
        // A valid IBAN's every form must read back as the same IBAN.
        precondition((try? IBAN(iban.grouped)) == iban, "grouped form of \(iban.electronic) does not read back")
        precondition((try? IBAN(iban.electronic)) == iban, "electronic form of \(iban.electronic) does not read back")
        _ = (iban.countryCode, iban.checkDigits, iban.description)
    } catch {
        _ = error.description
    }
    return 0
}
