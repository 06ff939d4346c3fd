/// What a key press means to a text field.
public enum KeyInput: Hashable, Sendable {
    case text(String)
    case enter
    case backspace
    case tab
    case escape
    case delete
    case left, right, up, down
}

/// Turns EV_KEY events into ``KeyInput`` with a US layout: Shift and Caps
/// Lock, auto-repeat (value 2) repeats, modifiers held with Ctrl or Alt type
/// nothing.
///
/// Not thread-safe; one decoder per keyboard.
public struct KeyDecoder: Sendable {
    private var leftShift = false, rightShift = false
    private var control = 0, alt = 0
    private var capsLock = false

    public init() {}

    public var shift: Bool { leftShift || rightShift }

    /// US layout: unshifted and shifted characters by key code.
    static let characters: [UInt16: (Character, Character)] = {
        var map: [UInt16: (Character, Character)] = [:]
        func row(_ first: UInt16, _ plain: String, _ shifted: String) {
            for (i, (p, s)) in zip(plain, shifted).enumerated() { map[first + UInt16(i)] = (p, s) }
        }
        row(2, "1234567890-=", "!@#$%^&*()_+")
        row(16, "qwertyuiop[]", "QWERTYUIOP{}")
        row(30, "asdfghjkl;'`", "ASDFGHJKL:\"~")
        row(43, "\\zxcvbnm,./", "|ZXCVBNM<>?")
        map[57] = (" ", " ")
        map[55] = ("*", "*")  // keypad
        row(71, "789-456+1230.", "789-456+1230.")
        map[98] = ("/", "/")
        return map
    }()

    /// Feeds one event; returns what it typed, if anything.
    public mutating func decode(_ event: InputEvent) -> KeyInput? {
        guard event.type == .key else { return nil }
        let pressed = event.value != 0
        switch event.code {
        case .keyLeftShift: leftShift = pressed; return nil
        case .keyRightShift: rightShift = pressed; return nil
        case .keyLeftCtrl, .keyRightCtrl: control += event.value == 1 ? 1 : (event.value == 0 ? -1 : 0); control = max(control, 0); return nil
        case .keyLeftAlt, .keyRightAlt: alt += event.value == 1 ? 1 : (event.value == 0 ? -1 : 0); alt = max(alt, 0); return nil
        case .keyCapsLock: if event.value == 1 { capsLock.toggle() }; return nil
        default: break
        }
        guard pressed else { return nil }
        switch event.code {
        case .keyEnter, .keyKeypadEnter: return .enter
        case .keyBackspace: return .backspace
        case .keyTab: return .tab
        case .keyEscape: return .escape
        case .keyDelete: return .delete
        case .keyLeft: return .left
        case .keyRight: return .right
        case .keyUp: return .up
        case .keyDown: return .down
        default: break
        }
        guard control == 0 && alt == 0, let (plain, shifted) = Self.characters[event.code.rawValue] else { return nil }
        let isLetter = plain.isLetter
        let upper = isLetter ? (shift != capsLock) : shift
        return .text(String(upper ? shifted : plain))
    }
}

/// What a keyboard-like device produced: keys for a focused field, or a whole scanned code.
public enum KeyboardInput: Hashable, Sendable {
    case key(KeyInput)
    /// A barcode or card track, without the terminating Enter.
    case scan(String)
}

/// Decodes a keyboard or a scanner.
///
/// A device classified `.scanner` never types into fields: its characters
/// are collected until Enter and delivered as one `.scan`.
///
/// Scanners that call themselves keyboards are caught by behaviour: a line
/// of at least ``minimumScanLength`` characters ending in Enter, with every
/// key press within ``maximumScanGapMicroseconds`` of the previous one, is
/// faster than anyone types. Such a line is delivered as keys (it is too
/// late to hold them back) and then as a `.scan`, and from then on the
/// device is treated as a scanner (``isScanner`` becomes true).
public struct KeyboardDecoder: Sendable {
    public private(set) var isScanner: Bool
    public var minimumScanLength = 6
    public var maximumScanGapMicroseconds: Int64 = 30_000
    /// The longest line collected, in characters. The densest codes a counter
    /// scanner reads (PDF417 on ID cards) stay under 2,000; a device that
    /// types without ever pressing Enter must not grow the terminal's memory,
    /// so a longer line is dropped whole rather than delivered cut short.
    public var maximumScanLength = 8192
    private var keys = KeyDecoder()
    private var line = ""
    private var lineLength = 0
    private var lineOverflowed = false
    private var lineIsFast = true
    private var lastPress: EventTime?

    public init(isScanner: Bool) { self.isScanner = isScanner }

    public mutating func decode(_ event: InputEvent) -> [KeyboardInput] {
        guard let key = keys.decode(event) else { return [] }
        if let last = lastPress, event.time.microseconds(since: last) > maximumScanGapMicroseconds, !line.isEmpty {
            lineIsFast = false
        }
        lastPress = event.time
        switch key {
        case .text(let text):
            if lineLength < maximumScanLength {
                line += text
                lineLength += 1
            } else {
                lineOverflowed = true
            }
            return isScanner ? [] : [.key(key)]
        case .enter:
            defer { line = ""; lineLength = 0; lineOverflowed = false; lineIsFast = true; lastPress = nil }
            if lineOverflowed { return isScanner ? [] : [.key(.enter)] }
            if isScanner { return [.scan(line)] }
            if lineIsFast && lineLength >= minimumScanLength {
                isScanner = true
                return [.key(.enter), .scan(line)]
            }
            return [.key(.enter)]
        default:
            line = ""
            lineLength = 0
            lineOverflowed = false
            lineIsFast = true
            return isScanner ? [] : [.key(key)]
        }
    }
}
