import SystemCalls
import COpenSSL
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The terminal's own TLS identity for mutual TLS: its certificate (the
/// subject's commonName is the terminal id) and the private key, both held
/// in memory and handed to libcurl as blobs, never as paths.
///
/// In the field the key is a systemd credential sealed to the board
/// (`LoadCredentialEncrypted=teller-client-key`, TPM2 where there is one):
/// systemd decrypts it into the service's private, memory-backed
/// `$CREDENTIALS_DIRECTORY` and it is never plaintext on disk. `client_key`
/// names a plain PEM file instead, for a lab bench.
public struct ClientIdentity: Sendable {
    public let certificatePEM: [UInt8]
    let keyPEM: [UInt8]
    /// The terminal's certificate (the first of `client_cert`).
    public let certificate: CertificateSummary
    /// Where the key came from, for messages: the credential or the file.
    public let keySource: String

    /// The credential name in `LoadCredentialEncrypted=` and `$CREDENTIALS_DIRECTORY`.
    public static let credentialName = "teller-client-key"

    /// Reads the certificate and the key and checks that they belong
    /// together. An expired certificate still loads: the terminal keeps
    /// working offline and says so (``CertificateSummary/daysLeft(at:)``).
    /// - Parameters:
    ///   - keyFile: `client_key`; the systemd credential wins when present.
    ///   - givenKey: the key itself, read elsewhere (deploy/provision pipes
    ///     it from `systemd-creds decrypt`); wins over both.
    /// - Throws: ``CertificateFileError`` naming the file and the fault.
    public static func load(certificate path: String, keyFile: String?, givenKey: (pem: [UInt8], source: String)? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws(CertificateFileError) -> ClientIdentity {
        let certificatePEM = try CertificateFiles.read(path)
        let leaf = try CertificateFiles.certificates(inPEM: certificatePEM, source: path)[0]
        let key: (pem: [UInt8], source: String)
        if let givenKey { key = givenKey } else { key = try readKey(keyFile: keyFile, environment: environment) }
        let (keyPEM, keySource) = key
        let matches: Bool? = CertificateFiles.withCertificates(inPEM: certificatePEM) { certificates in
            CertificateFiles.withPrivateKey(inPEM: keyPEM) { key in X509_check_private_key(certificates[0], key) == 1 }
        }
        switch matches {
        case nil: throw .noKey(keySource)
        case false?: throw .keyMismatch(certificate: path, key: keySource)
        case true?: return ClientIdentity(certificatePEM: certificatePEM, keyPEM: keyPEM, certificate: leaf, keySource: keySource)
        }
    }

    /// The key's bytes: the systemd credential when the service has one,
    /// otherwise `keyFile`, which must be readable by its owner only.
    public static func readKey(keyFile: String?, environment: [String: String]) throws(CertificateFileError) -> (pem: [UInt8], source: String) {
        if let directory = environment["CREDENTIALS_DIRECTORY"] {
            let credential = directory.appendingPathComponent(credentialName)
            if FileManager.default.fileExists(atPath: credential) {
                return (try CertificateFiles.read(credential), "the systemd credential \(credentialName)")
            }
        }
        guard let keyFile else { throw .missing("client_key (or the systemd credential \(credentialName))") }
        let pem = try CertificateFiles.read(keyFile)
        if let info = try? Syscall.fileStatus(keyFile), info.st_mode & 0o077 != 0 { throw .tooOpen(keyFile, Int(info.st_mode & 0o7777)) }
        return (pem, keyFile)
    }
}

/// Makes the terminal's key pair and its certificate signing request.
public enum ClientKeyMaker {
    /// A new P-256 key and a CSR for `terminalID` (the subject's commonName,
    /// as the host maps it), signed with that key.
    /// - Returns: the key as PKCS#8 PEM (to be sealed at once, never
    ///   written in the clear) and the CSR as PEM.
    /// - Parameter existingKey: the PEM of a key to renew with (the
    ///   certificate changes, the sealed key stays); nil makes a new one.
    public static func make(terminalID: String, organization: String? = nil,
                            existingKey: (pem: [UInt8], source: String)? = nil) throws(CertificateFileError) -> (keyPEM: [UInt8], csrPEM: String) {
        if let existingKey {
            let made: Result<(keyPEM: [UInt8], csrPEM: String), CertificateFileError>? = CertificateFiles.withPrivateKey(inPEM: existingKey.pem) { key in
                do throws(CertificateFileError) { return .success((existingKey.pem, try request(terminalID: terminalID, organization: organization, key: key))) } catch { return .failure(error) }
            }
            guard let made else { throw .noKey(existingKey.source) }
            return try made.get()
        }
        guard let key = cossl_generate_p256() else { throw .noKey("a new P-256 key") }
        defer { EVP_PKEY_free(key) }
        let keyPEM = memoryPEM { PEM_write_bio_PKCS8PrivateKey($0, key, nil, nil, 0, nil, nil) == 1 }
        guard let keyPEM else { throw .noKey("the PEM of the new key") }
        return (keyPEM, try request(terminalID: terminalID, organization: organization, key: key))
    }

    /// The PEM of a CSR for `terminalID` signed with `key`.
    private static func request(terminalID: String, organization: String?, key: OpaquePointer) throws(CertificateFileError) -> String {
        guard let request = X509_REQ_new() else { throw .noKey("a new certificate request") }
        defer { X509_REQ_free(request) }
        let subject = X509_REQ_get_subject_name(request)
        var ok = X509_REQ_set_version(request, 0) == 1
        if let organization, !organization.isEmpty {
            ok = ok && X509_NAME_add_entry_by_txt(subject, "O", MBSTRING_UTF8, organization, -1, -1, 0) == 1
        }
        ok = ok && X509_NAME_add_entry_by_txt(subject, "CN", MBSTRING_UTF8, terminalID, -1, -1, 0) == 1
        ok = ok && X509_REQ_set_pubkey(request, key) == 1
        ok = ok && X509_REQ_sign(request, key, EVP_sha256()) > 0
        guard ok else { ERR_clear_error(); throw .noKey("the certificate request for \(terminalID)") }
        guard let csr = memoryPEM({ PEM_write_bio_X509_REQ($0, request) == 1 }) else { throw .noKey("the PEM of the request") }
        return String(decoding: csr, as: UTF8.self)
    }

    private static func memoryPEM(_ write: (OpaquePointer) -> Bool) -> [UInt8]? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard write(bio) else { return nil }
        var data: UnsafeMutablePointer<CChar>?
        let count = cossl_bio_bytes(bio, &data)
        guard let data, count > 0 else { return nil }
        return [UInt8](UnsafeRawBufferPointer(start: data, count: count))
    }
}
