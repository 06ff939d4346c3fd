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
        }
        do {
            try self.init(parsing: String(decoding: bytes, as: UTF8.self))
        } catch var error {
            error.path = path
            throw error
        }
    }

    /// Parses evemu-record text.
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
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
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
                guard let v = UInt16(s, radix: 16) else { throw fail("\(what) '\(s)' is not a hexadecimal number") }
                return v
            }
            func hexByte(_ s: Substring) throws(EvemuError) -> UInt8 {
                guard let v = UInt8(s, radix: 16) else { throw fail("bitmask byte '\(s)' is not a hexadecimal byte") }
                return v
            }
            func decimal(_ s: Substring, _ what: String) throws(EvemuError) -> Int32 {
                guard let v = Int32(s) else { throw fail("\(what) '\(s)' is not a decimal integer") }
                return v
            }
            switch tag {
            case "I:":
                guard values.count == 4 else { throw fail("I: needs 4 hex numbers (bustype vendor product version), found \(values.count)") }
                id = InputDeviceID(
                    bustype: try hex(values[0], "bustype"), vendor: try hex(values[1], "vendor"),
                    product: try hex(values[2], "product"), version: try hex(values[3], "version"))
            case "P:":
                guard values.count == 8 else { throw fail("P: needs 8 bitmask bytes, found \(values.count)") }
                for value in values {
                    let byte = try hexByte(value)
                    for bit in 0..<8 where byte & (1 << bit) != 0 {
                        properties.insert(InputProperty(rawValue: UInt16(propertyByte * 8 + bit)))
                    }
                    propertyByte += 1
                }
            case "B:":
                guard values.count == 9 else { throw fail("B: needs an event type and 8 bitmask bytes, found \(values.count) numbers") }
                let type = try hex(values[0], "event type")
                guard type <= 0x1f else { throw fail("event type 0x\(String(type, radix: 16)) is beyond EV_MAX (0x1f)") }
                var index = typeByte[type, default: 0]
                for value in values.dropFirst() {
                    let byte = try hexByte(value)
                    for bit in 0..<8 where byte & (1 << bit) != 0 {
                        // libevemu always writes "B: 00 0b ...", whatever the device has, so
                        // the EV_SYN line says nothing: a type exists when it has codes.
                        if type != 0 { codes[EventType(rawValue: type), default: []].insert(EventCode(UInt16(index * 8 + bit))) }
                    }
                    index += 1
                }
                typeByte[type] = index
            case "A:":
                guard values.count == 5 || values.count == 6 else {
                    throw fail("A: needs a code and min max fuzz flat [resolution], found \(values.count) numbers")
                }
                let code = try hex(values[0], "axis code")
                let axis = AbsoluteAxis(
                    minimum: try decimal(values[1], "minimum"), maximum: try decimal(values[2], "maximum"),
                    fuzz: try decimal(values[3], "fuzz"), flat: try decimal(values[4], "flat"),
                    resolution: values.count == 6 ? try decimal(values[5], "resolution") : 0)
                guard axis.minimum <= axis.maximum else { throw fail("axis 0x\(String(code, radix: 16)) has minimum \(axis.minimum) above maximum \(axis.maximum)") }
                axes[EventCode(code)] = axis
            case "L:", "S:":
                guard values.count == 2 else { throw fail("\(tag) needs a code and a state, found \(values.count) numbers") }
                let code = EventCode(try hex(values[0], "code"))
                let state = try decimal(values[1], "state")
                if tag == "L:" { leds[code] = state } else { switches[code] = state }
            case "E:":
                guard values.count == 4 else { throw fail("E: needs time, type, code and value, found \(values.count) fields") }
                let timeParts = values[0].split(separator: ".", omittingEmptySubsequences: false)
                guard timeParts.count == 2, let seconds = Int64(timeParts[0]), let micros = Int64(timeParts[1]),
                    micros >= 0, micros < 1_000_000, timeParts[1].count == 6
                else { throw fail("event time '\(values[0])' is not <seconds>.<6-digit microseconds>") }
                let type = try hex(values[1], "event type")
                let code = try hex(values[2], "event code")
                let value = try decimal(values[3], "event value")
                let time = EventTime(seconds: seconds, microseconds: micros)
                if let previous = events.last?.time, time < previous {
                    throw fail("event time \(values[0]) goes back before the previous event")
                }
                events.append(InputEvent(time: time, type: EventType(rawValue: type), code: EventCode(code), value: value))
            default:
                throw fail("unknown line type '\(tag)' (expected N:, I:, P:, B:, A:, L:, S: or E:)")
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
