import CSodium
import FoundationEssentials

/// Argon2id verifiers for operator and technician PINs (libsodium's
/// `crypto_pwhash_str`): salted, slow and memory-hard, so a copied database
/// does not give away PINs of four to eight digits cheaply.
public struct PINHasher: Sendable {
    /// libsodium's cost settings.
    public let operations: UInt64
    public let memoryBytes: Int

    /// libsodium's "interactive" level: 64 MiB, about 0.1 to 0.5 s on a
    /// single-board computer, paid once per sign-in.
    public static let interactive = PINHasher(operations: UInt64(crypto_pwhash_argon2id_OPSLIMIT_INTERACTIVE), memoryBytes: Int(crypto_pwhash_argon2id_MEMLIMIT_INTERACTIVE))

    public init(operations: UInt64, memoryBytes: Int) {
        precondition(sodium_init() >= 0, "libsodium failed to initialise")
        self.operations = operations
        self.memoryBytes = memoryBytes
    }

    /// A new verifier string (`$argon2id$v=19$m=…`) with a random salt.
    public func verifier(for pin: String) throws(PINHashError) -> String {
        var output = [CChar](repeating: 0, count: Int(crypto_pwhash_STRBYTES))
        let bytes = Array(pin.utf8CString.dropLast())
        let result = crypto_pwhash_str_alg(&output, bytes, UInt64(bytes.count), operations, memoryBytes, crypto_pwhash_ALG_ARGON2ID13)
        guard result == 0 else { throw .outOfMemory(memoryBytes) }
        let length = output.firstIndex(of: 0) ?? output.count
        return String(decoding: output[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// True when `pin` matches `verifier`. A malformed verifier never matches.
    public func matches(_ pin: String, verifier: String) -> Bool {
        guard verifier.hasPrefix("$argon2id$"), verifier.utf8.count < Int(crypto_pwhash_STRBYTES) else { return false }
        let bytes = Array(pin.utf8CString.dropLast())
        return crypto_pwhash_str_verify(verifier, bytes, UInt64(bytes.count)) == 0
    }
}

public enum PINHashError: Error, Equatable, CustomStringConvertible {
    case outOfMemory(Int)

    public var description: String {
        switch self {
        case .outOfMemory(let bytes): "Argon2id needs \(bytes / 1_048_576) MiB of memory and could not get it"
        }
    }
}
