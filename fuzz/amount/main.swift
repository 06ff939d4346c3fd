import TellerCore
import TellerFeatures

/// libFuzzer's entry: the first byte picks the currency, every further byte
/// is one key press on the cash-register keypad (its character, or
/// backspace, clear and the "00" key), as AmountEntryViewModel drives them;
/// after each press the amount is read and formatted the way the screen
/// shows it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let currency = currencies[Int(data[0]) % currencies.count]
    var entry = KeypadEntry(maximumLength: Money.maximumKeypadDigits)
    for byte in UnsafeBufferPointer(start: data + 1, count: size - 1) {
        switch byte {
        case 0x7f, 0x08: entry.backspace()
        case 0x1b: entry.clear()
        case 0xfe:
            entry.append("0")
            entry.append("0")
        default: entry.append(Character(Unicode.Scalar(byte)))
        }
        show(entry, in: currency)
    }
    // The keypad parser on its own, with whatever characters the bytes are.
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    if let money = try? Money(keypadDigits: text, currency: currency) {
        precondition(money.minorUnits >= 0, "keypad digits \(text) gave a negative amount")
        _ = MoneyFormatting.text(money)
    }
    return 0
}

/// What AmountEntryViewModel shows for the entry, and the invariants the
/// keypad promises: at most 12 digits, never negative, never trapping.
private func show(_ entry: KeypadEntry, in currency: Currency) {
    precondition(entry.digits.count <= Money.maximumKeypadDigits, "keypad entry grew to \(entry.digits.count) digits")
    let money: Money
    do {
        money = try Money(keypadDigits: entry.isEmpty ? "0" : entry.digits, currency: currency)
    } catch {
        preconditionFailure("keypad entry '\(entry.digits)' is not an amount: \(error)")
    }
    precondition(money.minorUnits >= 0, "keypad entry '\(entry.digits)' gave a negative amount")
    _ = MoneyFormatting.text(money)
    _ = MoneyFormatting.spoken(money)
    _ = MoneyFormatting.signed(money)
    _ = money.decimalString
    _ = entry.masked
}

/// Two-, zero- and three-decimal currencies.
private let currencies = ["EUR", "JPY", "KWD", "GBP", "CHF", "ISK", "BHD"].compactMap { Currency(code: $0) }
