import Cryptography
import FoundationEssentials

/// The host's public key as `host_pin_sha256` names it: the SHA-256 of the
/// certificate's SubjectPublicKeyInfo, in base64 (what
/// `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64` prints).
enum PublicKeyPin {
    /// The pin in libcurl's form, "sha256//<base64>", from a configured
    /// value with or without that prefix; nil when it is not 32 bytes of base64.
    static func curlForm(_ configured: String) -> String? {
        let bare = configured.hasPrefix("sha256//") ? String(configured.dropFirst("sha256//".count)) : configured
        guard let bytes = Data(base64Encoded: bare), bytes.count == 32 else { return nil }
        return "sha256//" + bytes.base64EncodedString()
    }

    /// The pin of a PEM certificate's public key, or nil if it cannot be read.
    static func pin(ofPEMCertificate pem: String) -> String? {
        let base64 = pem.split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("-----") }
            .joined()
        guard let der = Data(base64Encoded: base64), let key = subjectPublicKeyInfo(inCertificate: [UInt8](der)) else { return nil }
        return "sha256//" + Data(SHA256.digest(key)).base64EncodedString()
    }

    /// The DER bytes of the SubjectPublicKeyInfo of an X.509 certificate
    /// (RFC 5280 §4.1: the seventh element of tbsCertificate, counting the
    /// optional version).
    static func subjectPublicKeyInfo(inCertificate der: [UInt8]) -> [UInt8]? {
        var certificate = DERReader(der[...])
        guard let certificateBody = certificate.element(tag: 0x30)?.contents else { return nil }
        var body = DERReader(certificateBody)
        guard let tbs = body.element(tag: 0x30)?.contents else { return nil }
        var fields = DERReader(tbs)
        if fields.peekTag == 0xA0 { _ = fields.element(tag: 0xA0) }
        for tag: UInt8 in [0x02, 0x30, 0x30, 0x30, 0x30] { // serial, signature, issuer, validity, subject
            guard fields.element(tag: tag) != nil else { return nil }
        }
        return fields.element(tag: 0x30).map { Array($0.whole) }
    }
}

/// Reads definite-length DER elements one after another.
struct DERReader {
    private var rest: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { rest = bytes }

    var peekTag: UInt8? { rest.first }

    /// The next element if it has `tag`: its whole encoding and its contents.
    mutating func element(tag: UInt8) -> (whole: ArraySlice<UInt8>, contents: ArraySlice<UInt8>)? {
        var cursor = rest.startIndex
        guard cursor < rest.endIndex, rest[cursor] == tag else { return nil }
        cursor += 1
        guard cursor < rest.endIndex else { return nil }
        var length = Int(rest[cursor])
        cursor += 1
        if length & 0x80 != 0 {
            let octets = length & 0x7F
            guard octets >= 1, octets <= 4, rest.endIndex - cursor >= octets else { return nil }
            length = 0
            for _ in 0..<octets {
                length = length << 8 | Int(rest[cursor])
                cursor += 1
            }
        }
        guard length <= rest.endIndex - cursor else { return nil }
        let whole = rest[rest.startIndex..<(cursor + length)]
        let contents = rest[cursor..<(cursor + length)]
        rest = rest[(cursor + length)...]
        return (whole, contents)
    }
}
