import SystemCalls
import Glibc

extension EvemuRecording {
    /// The recording in evemu-record's text format (readable by `evemu-play`
    /// and by ``init(parsing:)``).
    public var text: String {
        var out = "# EVEMU 1.3\n"
        let caps = capabilities
        out += "N: \(caps.name)\n"
        out += "I: \(hex4(caps.id.bustype)) \(hex4(caps.id.vendor)) \(hex4(caps.id.product)) \(hex4(caps.id.version))\n"
        let propertyBits = caps.properties.map(\.rawValue)
        for chunk in bitmaskLines(propertyBits, maximum: InputProperty.maximum) { out += "P: " + chunk + "\n" }
        let typeBits = caps.types.map(\.rawValue) + [EventType.synchronization.rawValue]
        for chunk in bitmaskLines(typeBits, maximum: EventType.maximum) { out += "B: 00 " + chunk + "\n" }
        for type in caps.types.sorted() where type != .synchronization {
            let bits = (caps.codes[type] ?? []).map(\.rawValue)
            for chunk in bitmaskLines(bits, maximum: EventCode.maximum(for: type)) {
                out += "B: \(hex2(type.rawValue)) " + chunk + "\n"
            }
        }
        for (code, axis) in caps.absoluteAxes.sorted(by: { $0.key < $1.key }) {
            out += "A: \(hex2(code.rawValue)) \(axis.minimum) \(axis.maximum) \(axis.fuzz) \(axis.flat) \(axis.resolution)\n"
        }
        for (code, state) in ledStates.sorted(by: { $0.key < $1.key }) { out += "L: \(hex2(code.rawValue)) \(state)\n" }
        for (code, state) in switchStates.sorted(by: { $0.key < $1.key }) { out += "S: \(hex2(code.rawValue)) \(state)\n" }
        for e in events {
            let micros = String(e.time.microseconds)
            let padded = String(repeating: "0", count: max(0, 6 - micros.count)) + micros
            out += "E: \(e.time.seconds).\(padded) \(hex4(e.type.rawValue)) \(hex4(e.code.rawValue)) \(e.value)\n"
        }
        return out
    }

    /// Writes ``text`` to `path`.
    public func write(to path: String) throws(EvemuError) {
        guard let file = fopen(path, "w") else {
            throw EvemuError(line: 0, problem: "cannot create: \(Errno(rawValue: errno))", path: path)
        }
        defer { fclose(file) }
        let bytes = Array(text.utf8)
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else {
            throw EvemuError(line: 0, problem: "write failed: \(Errno(rawValue: errno))", path: path)
        }
    }
}

private func hex2(_ v: UInt16) -> String { pad(String(v, radix: 16), 2) }
private func hex4(_ v: UInt16) -> String { pad(String(v, radix: 16), 4) }
private func pad(_ s: String, _ n: Int) -> String { String(repeating: "0", count: max(0, n - s.count)) + s }

/// Bitmask bytes for `bits`, eight per line, covering codes 0...maximum.
private func bitmaskLines(_ bits: [UInt16], maximum: UInt16) -> [String] {
    let byteCount = EvemuRecording.bitmaskBytes(maximum: maximum)
    var bytes = [UInt8](repeating: 0, count: byteCount)
    for bit in bits where Int(bit) / 8 < byteCount { bytes[Int(bit) / 8] |= 1 << (bit % 8) }
    return stride(from: 0, to: byteCount, by: 8).map { start in
        bytes[start..<start + 8].map { pad(String($0, radix: 16), 2) }.joined(separator: " ")
    }
}
