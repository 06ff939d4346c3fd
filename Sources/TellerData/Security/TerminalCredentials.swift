import SystemCalls
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The terminal's id and its secret, as provisioned by the bank.
public struct TerminalCredentials: Sendable {
    public let terminalID: String
    let secret: String

    /// The file name systemd's `LoadCredential=`/`LoadCredentialEncrypted=` uses.
    public static let credentialName = "teller-terminal-secret"

    public init(terminalID: String, secret: String) {
        self.terminalID = terminalID
        self.secret = secret
    }

    /// Reads the secret from `$CREDENTIALS_DIRECTORY/teller-terminal-secret`
    /// when systemd provides it, otherwise from `secretFile`.
    ///
    /// - Throws: ``CredentialsError`` naming the file that is missing, empty
    ///   or readable by others.
    public static func load(terminalID: String, secretFile: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws(CredentialsError) -> TerminalCredentials {
        var path = secretFile
        if let directory = environment["CREDENTIALS_DIRECTORY"] {
            let candidate = directory.appendingPathComponent(credentialName)
            if FileManager.default.fileExists(atPath: candidate) { path = candidate }
        }
        guard let path else { throw .noSecretConfigured }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
        // The file itself, a symbolic link not followed (as FileManager's
        // attributes read it). Not through FileManager: without full
        // Foundation its permissions are a UInt, and `as? Int` would
        // quietly skip this check.
        if environment["CREDENTIALS_DIRECTORY"].map({ !path.hasPrefix($0) }) ?? true,
           let info = try? Syscall.linkStatus(path), info.st_mode & 0o077 != 0 {
            throw .tooOpen(path, Int(info.st_mode & ~S_IFMT))
        }
        let secret = String(decoding: data, as: UTF8.self).trimmingASCIIWhitespace()
        guard !secret.isEmpty else { throw .empty(path) }
        return TerminalCredentials(terminalID: terminalID, secret: secret)
    }
}

public enum CredentialsError: Error, Equatable, CustomStringConvertible {
    case noSecretConfigured
    case unreadable(String)
    case empty(String)
    case tooOpen(String, Int)

    public var description: String {
        switch self {
        case .noSecretConfigured: "no terminal secret: set secret_file, or provide the systemd credential \(TerminalCredentials.credentialName)"
        case .unreadable(let path): "cannot read the terminal secret file \(path)"
        case .empty(let path): "the terminal secret file \(path) is empty"
        case .tooOpen(let path, let mode): "the terminal secret file \(path) has mode \(String(mode, radix: 8)); it must be readable by its owner only (chmod 600)"
        }
    }
}
