import SystemCalls
import Glibc

extension EvemuRecording {
    /// Reads a recording from a file.
    ///
    /// - Throws: ``EvemuError`` naming the path and, for malformed content, the line.
    public init(contentsOf path: String) throws(EvemuError) {
        guard let file = fopen(path, "r") else {
            throw EvemuError(line: 0, problem: "cannot open: \(Errno(rawValue: errno))", path: path)
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            // /dev/zero or a runaway file would otherwise be read until memory runs out.
            guard bytes.count <= Self.maximumFileSize else {
                throw EvemuError(line: 0, problem: "larger than \(Self.maximumFileSize >> 20) MiB; split the recording", path: path)
            }
        }
        do {
            try self.init(parsing: String(decoding: bytes, as: UTF8.self))
        } catch var error {
            error.path = path
            throw error
        }
    }

    /// The largest file ``init(contentsOf:)`` reads: over an hour of
    /// continuous touching, and far below what would strain the terminal.
    public static let maximumFileSize = 64 << 20

    /// Parses evemu-record text.
    ///
    /// Everything the kernel bounds is bounded here too, so no recording can
    /// make a decoder trap or allocate without limit: bitmask lines stop at
    /// the kernel's `*_MAX`, event types and codes must exist, axis ranges
    /// must pass ``AbsoluteAxis/problem(as:)``, event times must be
    /// non-negative and representable in microseconds.
    ///
    /// - Throws: ``EvemuError`` with the 1-based line number and what is wrong there.
    public init(parsing text: String) throws(EvemuError) {
        var name: String?
        var id = InputDeviceID(bustype: 0, vendor: 0, product: 0, version: 0)
        var properties: Set<InputProperty> = []
        var propertyByte = 0
        var codes: [EventType: Set<EventCode>] = [:]
        var typeByte: [UInt16: Int] = [:]
        var axes: [EventCode: AbsoluteAxis] = [:]
        var leds: [EventCode: Int32] = [:]
        var switches: [EventCode: Int32] = [:]
        var events: [InputEvent] = []

        var lineNumber = 0
        // Split on the byte, not the Character: "\r\n" is one Character and would
        // never equal "\n", so a file saved on Windows read as a single line.
        for rawLine in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.hasPrefix("N:") {
                // A name may contain '#', so it is the whole rest of the line.
                let value = line.dropFirst(2).drop(while: { $0 == " " })
                guard !value.isEmpty else { throw EvemuError(line: lineNumber, problem: "N: line has no device name") }
                name = String(value)
                continue
            }
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let tag = fields.first else { continue }
            let values = Array(fields.dropFirst())
            func fail(_ problem: String) -> EvemuError { EvemuError(line: lineNumber, problem: problem) }
            func hex(_ s: Substring, _ what: String) throws(EvemuError) -> UInt16 {
                guard let v = UInt16(s, radix: 16) else { throw fail("\(what) '\(shown(s))' is not a hexadecimal number") }
                return v
            }
            func hexByte(_ s: Substring) throws(EvemuError) -> UInt8 {
                guard let v = UInt8(s, radix: 16) else { throw fail("bitmask byte '\(shown(s))' is not a hexadecimal byte") }
                return v
            }
            func decimal(_ s: Substring, _ what: String) throws(EvemuError) -> Int32 {
                guard let v = Int32(s) else { throw fail("\(what) '\(shown(s))' is not a decimal integer") }
                return v
            }
            /// A code of `type`, refused past the kernel's `*_MAX` for it.
            func code(_ s: Substring, of type: EventType) throws(EvemuError) -> EventCode {
                let value = try hex(s, "code")
                guard value <= EventCode.maximum(for: type) else {
                    throw fail("code 0x\(String(value, radix: 16)) is beyond \(EventCode.maximumName(for: type))")
                }
                return EventCode(value)
            }
            func eventType(_ s: Substring) throws(EvemuError) -> EventType {
                let value = try hex(s, "event type")
                guard value <= EventType.maximum else {
                    throw fail("event type 0x\(String(value, radix: 16)) is beyond EV_MAX (0x\(String(EventType.maximum, radix: 16)))")
                }
                return EventType(rawValue: value)
            }
            switch tag {
            case "I:":
                guard values.count == 4 else { throw fail("I: needs 4 hex numbers (bustype vendor product version), found \(values.count)") }
                id = InputDeviceID(
                    bustype: try hex(values[0], "bustype"), vendor: try hex(values[1], "vendor"),
                    product: try hex(values[2], "product"), version: try hex(values[3], "version"))
            case "P:":
                guard values.count == 8 else { throw fail("P: needs 8 bitmask bytes, found \(values.count)") }
                // The kernel's property bitmask is one line long; 1,100 lines once ran the
                // bit index past UInt16 and trapped.
                guard propertyByte < Self.bitmaskBytes(maximum: InputProperty.maximum) else {
                    throw fail("a second P: line is beyond INPUT_PROP_MAX (0x\(String(InputProperty.maximum, radix: 16))); properties fit on one line")
                }
                for value in values {
                    let byte = try hexByte(value)
                    for bit in 0..<8 where byte & (1 << bit) != 0 {
                        let property = propertyByte * 8 + bit
                        guard property <= InputProperty.maximum else {
                            throw fail("property 0x\(String(property, radix: 16)) is beyond INPUT_PROP_MAX (0x\(String(InputProperty.maximum, radix: 16)))")
                        }
                        properties.insert(InputProperty(rawValue: UInt16(property)))
                    }
                    propertyByte += 1
                }
            case "B:":
                guard values.count == 9 else { throw fail("B: needs an event type and 8 bitmask bytes, found \(values.count) numbers") }
                let type = try eventType(values[0])
                // The B: 00 line is the bitmask of event types, so its bits run to EV_MAX.
                let maximum = type == .synchronization ? EventType.maximum : EventCode.maximum(for: type)
                let maximumName = type == .synchronization ? "EV_MAX (0x\(String(EventType.maximum, radix: 16)))" : EventCode.maximumName(for: type)
                var index = typeByte[type.rawValue, default: 0]
                // Lines continue where the last one for this type ended; the kernel's
                // bitmask (what evemu-record copies) ends at *_MAX, rounded up to a line.
                let lines = Self.bitmaskBytes(maximum: maximum) / 8
                guard index < lines * 8 else {
                    throw fail("B: \(values[0]) line \(index / 8 + 1) is beyond \(maximumName); the kernel's bitmask has \(lines) line\(lines == 1 ? "" : "s")")
                }
                for value in values.dropFirst() {
                    let byte = try hexByte(value)
                    for bit in 0..<8 where byte & (1 << bit) != 0 {
                        let code = index * 8 + bit
                        guard code <= maximum else { throw fail("code 0x\(String(code, radix: 16)) is beyond \(maximumName)") }
                        // libevemu always writes "B: 00 0b ...", whatever the device has, so
                        // the EV_SYN line says nothing: a type exists when it has codes.
                        if type != .synchronization { codes[type, default: []].insert(EventCode(UInt16(code))) }
                    }
                    index += 1
                }
                typeByte[type.rawValue] = index
            case "A:":
                guard values.count == 5 || values.count == 6 else {
                    throw fail("A: needs a code and min max fuzz flat [resolution], found \(values.count) numbers")
                }
                let code = EventCode(try hex(values[0], "axis code"))
                let axis = AbsoluteAxis(
                    minimum: try decimal(values[1], "minimum"), maximum: try decimal(values[2], "maximum"),
                    fuzz: try decimal(values[3], "fuzz"), flat: try decimal(values[4], "flat"),
                    resolution: values.count == 6 ? try decimal(values[5], "resolution") : 0)
                if let problem = axis.problem(as: code) { throw fail(problem) }
                axes[code] = axis
            case "L:", "S:":
                guard values.count == 2 else { throw fail("\(tag) needs a code and a state, found \(values.count) numbers") }
                let code = try code(values[0], of: tag == "L:" ? .led : .switch)
                let state = try decimal(values[1], "state")
                if tag == "L:" { leds[code] = state } else { switches[code] = state }
            case "E:":
                guard values.count == 4 else { throw fail("E: needs time, type, code and value, found \(values.count) fields") }
                let timeParts = values[0].split(separator: ".", omittingEmptySubsequences: false)
                guard timeParts.count == 2, let seconds = Int64(timeParts[0]), let micros = Int64(timeParts[1]),
                    micros >= 0, micros < 1_000_000, timeParts[1].count == 6
                else { throw fail("event time '\(shown(values[0]))' is not <seconds>.<6-digit microseconds>") }
                // Kernel timestamps are never negative; past this bound the time in
                // microseconds does not fit an Int64 (it once trapped comparing times).
                guard seconds >= 0, seconds <= Self.maximumEventSeconds else {
                    throw fail("event time '\(shown(values[0]))' is outside 0...\(Self.maximumEventSeconds) seconds")
                }
                let type = try eventType(values[1])
                let code = try code(values[2], of: type)
                let value = try decimal(values[3], "event value")
                let time = EventTime(seconds: seconds, microseconds: micros)
                if let previous = events.last?.time, time < previous {
                    throw fail("event time \(values[0]) goes back before the previous event")
                }
                events.append(InputEvent(time: time, type: type, code: code, value: value))
            default:
                throw fail("unknown line type '\(shown(tag))' (expected N:, I:, P:, B:, A:, L:, S: or E:)")
            }
        }
        guard let name else { throw EvemuError(line: 0, problem: "no N: line naming the device") }
        codes[.synchronization] = []
        for code in axes.keys where codes[.absolute]?.contains(code) != true {
            codes[.absolute, default: []].insert(code)
        }
        let capabilities = InputCapabilities(name: name, id: id, properties: properties, codes: codes, absoluteAxes: axes)
        self.init(capabilities: capabilities, ledStates: leds, switchStates: switches, events: events)
    }
}

extension EvemuRecording {
    /// The latest event time a recording may hold, so that the time in
    /// microseconds (``EventTime/totalMicroseconds``) fits an Int64.
    static let maximumEventSeconds = Int64.max / 1_000_000 - 1

    /// Bytes in the kernel's bitmask for codes 0...maximum as evemu writes it:
    /// whole 8-byte lines (KEY_MAX 0x2ff: 96 bytes, 12 lines; ABS_MAX 0x3f: one line).
    static func bitmaskBytes(maximum: UInt16) -> Int {
        (Int(maximum) / 8 + 1 + 7) / 8 * 8
    }
}

/// A field as an error message quotes it: at most 32 characters, control
/// characters (a NUL, say) escaped, so a hostile line cannot flood or garble the log.
private func shown(_ field: Substring) -> String {
    let limit = 32
    let escaped = field.prefix(limit).unicodeScalars.map { scalar in
        scalar.value < 0x20 || scalar.value == 0x7f ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
    }.joined()
    return field.count > limit ? escaped + "…" : escaped
}
