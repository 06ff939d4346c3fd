import CCurl
import COpenSSL
import FoundationEssentials
import Synchronization

/// The CA certificates the host's certificate is checked against, loaded
/// once per process and file, and handed to every handshake's OpenSSL
/// context (CURLOPT_SSL_CTX_FUNCTION).
///
/// libcurl would otherwise parse the whole system bundle (~150
/// certificates) on every handshake: 20 to 90 ms per retry against a host
/// the terminal does not trust, against 2 ms for a one-certificate
/// `ca_file` (`teller-bench handshake`). A file replaced later is read at
/// the next start; deploy/provision restarts the terminal.
enum TrustStore {
    /// X509_STORE addresses by file ("" is the system store), never freed:
    /// a process has one or two. OpenSSL's stores are safe to share between
    /// threads once loaded.
    private static let loaded = Mutex<[String: UInt]>([:])

    /// The store for `caFile`, or for libcurl's own default bundle when nil.
    /// - Throws: the message libcurl's transfer reports (curl 77) naming
    ///   the file that could not be loaded; a failure is not remembered.
    static func store(caFile: String?) throws(CurlTransfer.Failure) -> OpaquePointer {
        let name = caFile ?? ""
        if let address = loaded.withLock({ $0[name] }), let store = OpaquePointer(bitPattern: address) { return store }
        guard let store = X509_STORE_new() else { throw .curl(code: 27, message: "out of memory for the CA store") }
        let ok: Bool
        if let caFile {
            // CertificateFiles names the fault (missing, a folder, no certificate) better than OpenSSL.
            do { _ = try CertificateFiles.certificates(inPEM: CertificateFiles.read(caFile), source: caFile) } catch {
                X509_STORE_free(store)
                throw .curl(code: 77, message: "ca_file: \(error)")
            }
            ok = X509_STORE_load_file(store, caFile) == 1
        } else if let bundle = defaultBundle() {
            ok = X509_STORE_load_file(store, bundle) == 1
        } else {
            ok = X509_STORE_set_default_paths(store) == 1
        }
        ERR_clear_error()
        guard ok else {
            X509_STORE_free(store)
            throw .curl(code: 77, message: "cannot load the CA certificates from \(caFile ?? defaultBundle() ?? "the system store")")
        }
        let address = UInt(bitPattern: Int(bitPattern: UnsafeMutableRawPointer(store)))
        let kept = loaded.withLock { stores in
            // Another thread may have loaded it meanwhile: keep one.
            if let earlier = stores[name] { return earlier }
            stores[name] = address
            return address
        }
        if kept != address { X509_STORE_free(store) }
        return OpaquePointer(bitPattern: kept)!
    }

    /// The CA bundle this libcurl was built to use (Debian: /etc/ssl/certs/ca-certificates.crt).
    private static func defaultBundle() -> String? {
        guard let easy = curl_easy_init() else { return nil }
        defer { curl_easy_cleanup(easy) }
        var path: UnsafeMutablePointer<CChar>?
        guard ccurl_getinfo_string(easy, CURLINFO_CAINFO, &path) == CURLE_OK, let path else { return nil }
        return String(cString: path)
    }
}
