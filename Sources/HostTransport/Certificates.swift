import SystemCalls
import COpenSSL
import FoundationEssentials
import TellerCore
#if canImport(Glibc)
import Glibc
#endif

/// One X.509 certificate as a technician needs it: who it names, who
/// signed it and when it is valid. Read with OpenSSL, the library libcurl's
/// TLS uses, so what check-config accepts is what the handshake accepts.
public struct CertificateSummary: Sendable, Equatable {
    /// The subject's commonName (a terminal certificate's terminal id), or the whole subject when it has none.
    public let subject: String
    public let issuer: String
    public let notBefore: Date
    public let notAfter: Date

    /// Valid at `now`: neither expired nor not yet valid.
    public func isValid(at now: Date) -> Bool { notBefore <= now && now < notAfter }

    /// As status, metrics and diagnostics report it, with `client_cert_warn_days`.
    public func status(warnDays: Int) -> ClientCertificateStatus {
        ClientCertificateStatus(subject: subject, issuer: issuer, notBefore: notBefore, notAfter: notAfter, warnDays: warnDays)
    }
}

/// Why a certificate or key file was refused. Each names the file and what is wrong.
public enum CertificateFileError: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case notRegularFile(String)
    case unreadable(String)
    case noCertificate(String)
    case notYetValid(String, Date)
    case expired(String, Date)
    case noKey(String)
    case keyMismatch(certificate: String, key: String)
    case tooOpen(String, Int)

    public var description: String {
        switch self {
        case .missing(let path): "\(path) does not exist"
        case .notRegularFile(let path): "\(path) is not a regular file"
        case .unreadable(let path): "\(path) cannot be read"
        case .noCertificate(let path): "\(path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
        case .notYetValid(let path, let date): "\(path) is not valid until \(CertificateFiles.format(date))"
        case .expired(let path, let date): "\(path) expired on \(CertificateFiles.format(date))"
        case .noKey(let path): "\(path) holds no unencrypted PEM private key"
        case .keyMismatch(let certificate, let key): "the key in \(key) does not belong to the certificate in \(certificate)"
        case .tooOpen(let path, let mode): "\(path) has mode \(String(mode, radix: 8)); a private key must be readable by its owner only (chmod 600)"
        }
    }
}

/// Reads PEM certificates and keys with OpenSSL.
public enum CertificateFiles {
    /// Reads a regular file (symbolic links followed), naming what is wrong.
    public static func read(_ path: String) throws(CertificateFileError) -> [UInt8] {
        let info: stat
        do {
            info = try Syscall.fileStatus(path)
        } catch {
            throw error.errno == .noSuchFile || error.errno == .notADirectory ? .missing(path) : .unreadable(path)
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile(path) }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path) }
        return [UInt8](data)
    }

    /// Every certificate in a PEM bundle, in order.
    /// - Throws: ``CertificateFileError/noCertificate(_:)`` when there is none;
    ///   `source` names the file in the error.
    public static func certificates(inPEM pem: [UInt8], source: String) throws(CertificateFileError) -> [CertificateSummary] {
        let summaries = withCertificates(inPEM: pem) { certificates in certificates.map(summary) }
        guard !summaries.isEmpty else { throw .noCertificate(source) }
        return summaries
    }

    /// Checks a CA bundle (`ca_file`): a regular file with at least one
    /// certificate, none of them expired or not yet valid.
    public static func checkBundle(_ path: String, now: Date = Date()) throws(CertificateFileError) -> [CertificateSummary] {
        let certificates = try certificates(inPEM: read(path), source: path)
        for certificate in certificates { try checkValidity(certificate, path: path, now: now) }
        return certificates
    }

    static func checkValidity(_ certificate: CertificateSummary, path: String, now: Date) throws(CertificateFileError) {
        guard !certificate.isValid(at: now) else { return }
        throw certificate.notBefore > now ? .notYetValid(path, certificate.notBefore) : .expired(path, certificate.notAfter)
    }

    // MARK: OpenSSL

    /// Runs `body` with the certificates parsed from `pem` (empty when none), freeing them after.
    static func withCertificates<T>(inPEM pem: [UInt8], _ body: ([OpaquePointer]) -> T) -> T {
        var certificates: [OpaquePointer] = []
        defer { certificates.forEach { X509_free($0) } }
        pem.withUnsafeBytes { bytes in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return }
            defer { BIO_free(bio) }
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) { certificates.append(certificate) }
        }
        ERR_clear_error()
        return body(certificates)
    }

    /// Runs `body` with the private key parsed from `pem`; nil when there is
    /// none (or it is encrypted: no passphrase callback is given).
    static func withPrivateKey<T>(inPEM pem: [UInt8], _ body: (OpaquePointer) -> T) -> T? {
        let key: OpaquePointer? = pem.withUnsafeBytes { bytes in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            // An empty passphrase callback: an encrypted key fails instead of prompting on the terminal.
            return PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
        }
        ERR_clear_error()
        guard let key else { return nil }
        defer { EVP_PKEY_free(key) }
        return body(key)
    }

    static func summary(_ certificate: OpaquePointer) -> CertificateSummary {
        CertificateSummary(subject: name(X509_get_subject_name(certificate)), issuer: name(X509_get_issuer_name(certificate)),
                           notBefore: date(X509_get0_notBefore(certificate)), notAfter: date(X509_get0_notAfter(certificate)))
    }

    /// The commonName, or the one-line form of the whole name.
    private static func name(_ name: OpaquePointer?) -> String {
        guard let name else { return "" }
        var buffer = [CChar](repeating: 0, count: 256)
        if X509_NAME_get_text_by_NID(name, NID_commonName, &buffer, Int32(buffer.count)) > 0 {
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        guard let line = X509_NAME_oneline(name, &buffer, Int32(buffer.count)) else { return "" }
        return String(cString: line)
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return .distantPast }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    public static func format(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M UTC", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
