import FoundationEssentials
import Cryptography

/// The rescue file's bytes: one JSON object, its members in this order,
/// with nothing else in the file,
///
///     {"hmac_sha256":"<64 lower-case hex digits>","rescue":<document>}\n
///
/// where `<document>` is a ``RescueDocument`` and the tag is HMAC-SHA256
/// over the document's exact bytes (everything between `"rescue":` and the
/// final `}\n`) under ``signingKey(secret:)``. The layout is fixed so that a
/// reader finds the signed bytes by position, never by parsing and
/// re-encoding them; the whole file is still JSON for `jq` and the host.
///
/// The key is derived from the terminal secret (HMAC-SHA256 of
/// ``keyPurpose`` under the secret), so a bank can keep the derived key
/// for checking rescue files without keeping the secret a terminal logs in with.
public enum RescueFile {
    public static let formatName = "teller-rescue"
    public static let version = 1
    /// What the signing key is derived for; another use of the secret derives another key.
    public static let keyPurpose = "teller rescue file v1"

    private static let prefix = Array(#"{"hmac_sha256":""#.utf8)
    private static let middle = Array(#"","rescue":"#.utf8)
    private static let suffix = Array("}\n".utf8)
    private static let hexDigits = 2 * HMACSHA256.byteCount

    /// The key a rescue file of the terminal with `secret` is signed with.
    public static func signingKey(secret: String) -> [UInt8] {
        HMACSHA256.tag(Array(keyPurpose.utf8), key: Array(secret.utf8))
    }

    /// The whole file for `document`, signed.
    public static func signed(_ document: RescueDocument, secret: String) throws -> [UInt8] {
        let body = [UInt8](try encoder.encode(document))
        let tag = HMACSHA256.tag(body, key: signingKey(secret: secret))
        return prefix + Array(JournalChain.hex(tag).utf8) + middle + body + suffix
    }

    /// The document, once the tag proves that the terminal with `secret` signed exactly these bytes.
    /// - Throws: ``RescueFileError``: not a rescue file, a tag that does not
    ///   match (a changed byte, or another terminal's secret), a version this Teller does not read.
    public static func verified(_ file: [UInt8], secret: String) throws(RescueFileError) -> RescueDocument {
        let (tag, signed) = try parts(file)
        guard HMACSHA256.isValid(tag, for: Array(signed), key: signingKey(secret: secret)) else { throw .signatureMismatch }
        return try decode(signed)
    }

    /// The document without checking its tag (only a holder of the secret
    /// can): what `teller rescue import` shows before it sends the file.
    public static func unverifiedDocument(_ file: [UInt8]) throws(RescueFileError) -> RescueDocument {
        try decode(try parts(file).signed)
    }

    /// The tag and the signed bytes, found by the fixed layout.
    static func parts(_ file: [UInt8]) throws(RescueFileError) -> (tag: [UInt8], signed: ArraySlice<UInt8>) {
        let tagEnd = prefix.count + hexDigits
        guard file.count > tagEnd + middle.count + suffix.count, file.starts(with: prefix),
              file[tagEnd..<(tagEnd + middle.count)].elementsEqual(middle), file.suffix(suffix.count).elementsEqual(suffix) else {
            throw .notARescueFile("it does not begin with {\"hmac_sha256\":\"…\",\"rescue\": and end with }")
        }
        guard let tag = JournalChain.bytes(hex: String(decoding: file[prefix.count..<tagEnd], as: UTF8.self)) else {
            throw .notARescueFile("its hmac_sha256 is not \(hexDigits) lower-case hex digits")
        }
        return (tag, file[(tagEnd + middle.count)..<(file.count - suffix.count)])
    }

    private static func decode(_ signed: ArraySlice<UInt8>) throws(RescueFileError) -> RescueDocument {
        let document: RescueDocument
        do {
            document = try JSONDecoder().decode(RescueDocument.self, from: Data(signed))
        } catch {
            throw .notARescueFile("its rescue document cannot be read: \(error)")
        }
        guard document.format == formatName else { throw .notARescueFile("its format is '\(document.format)', not '\(formatName)'") }
        guard document.version == version else { throw .unsupportedVersion(document.version) }
        return document
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// Why a rescue file is refused.
public enum RescueFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case notARescueFile(String)
    /// The tag does not match: a byte changed, or the file was signed with another terminal's secret.
    case signatureMismatch
    case unsupportedVersion(Int)

    public var description: String {
        switch self {
        case .notARescueFile(let detail): "not a Teller rescue file: \(detail)"
        case .signatureMismatch: "its signature does not match: the file was changed, or signed with another terminal's secret"
        case .unsupportedVersion(let version): "rescue file version \(version); this Teller reads version \(RescueFile.version)"
        }
    }
}
