import Cryptography
import FoundationEssentials

/// How journal entries are chained: each entry's hash is SHA-256 over the
/// previous entry's hash (its 32 bytes) followed by the entry's canonical
/// bytes, written in lower-case hex. The first entry chains from
/// ``genesis``. deploy/vm/crash_states.py computes the same in Python:
/// change one, change both.
///
/// The canonical bytes are the entry's fields in UTF-8, each followed by a
/// line feed, the payload last and without one:
///
///     sequence \n time_ms \n kind \n operator_id \n supervisor_id (or nothing) \n payload
///
/// Every field before the payload is digits or a kind word, which hold no
/// line feed, so no two entries have the same bytes.
enum JournalChain {
    /// The previous hash of the first entry: 32 zero bytes.
    static let genesis = String(repeating: "0", count: 64)

    static func canonicalBytes(sequence: Int64, timeMilliseconds: Int64, kind: String, operatorID: String, supervisorID: String?,
                               payload: String) -> [UInt8] {
        Array("\(sequence)\n\(timeMilliseconds)\n\(kind)\n\(operatorID)\n\(supervisorID ?? "")\n\(payload)".utf8)
    }

    /// The hash of an entry whose previous hash is `previous` (64 hex
    /// digits); nil when `previous` is not 64 hex digits.
    static func hash(previous: String, canonical: [UInt8]) -> String? {
        guard let previousBytes = bytes(hex: previous), previousBytes.count == 32 else { return nil }
        return hex(SHA256.digest(previousBytes, canonical))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Lower-case hex only, as ``hex(_:)`` writes it; nil for anything else.
    static func bytes(hex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
