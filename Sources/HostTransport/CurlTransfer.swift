import CCurl
import COpenSSL
import FoundationEssentials
import Synchronization

/// One HTTP exchange as libcurl runs it: the request, what the host sent
/// back so far, and the limits that end it early.
///
/// Not thread-safe: the caller builds it, then hands it to ``CurlDriver``,
/// whose thread alone touches it until it completes.
package final class CurlTransfer: @unchecked Sendable {
    /// What one request asks of the transport.
    package struct Request: Sendable {
        var method: String
        var url: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]?

        package init(method: String, url: String, headers: [(name: String, value: String)], body: [UInt8]?) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }
    }

    /// The limits every request to one host obeys.
    package struct Limits: Sendable {
        /// Connect, send and the whole answer must fit in this one deadline.
        var deadline: TimeInterval
        /// The largest answer body read; the read stops when it is passed.
        var maxBody: Int
        /// PEM bundle of trusted CAs; nil uses the system store.
        var caFile: String?
        /// libcurl's pinned-public-key form: "sha256//<base64>".
        var pinnedKey: String?
        /// The terminal's certificate and key for mutual TLS; nil sends none.
        var clientIdentity: ClientIdentity?

        package init(deadline: TimeInterval, maxBody: Int, caFile: String?, pinnedKey: String?, clientIdentity: ClientIdentity?) {
            self.deadline = deadline
            self.maxBody = maxBody
            self.caFile = caFile
            self.pinnedKey = pinnedKey
            self.clientIdentity = clientIdentity
        }
    }

    /// What came back, for any status.
    package struct Answer: Sendable {
        package var status: Int
        /// Header names in lower case; the last value of a repeated header wins.
        package var headers: [String: String]
        package var body: [UInt8]
        /// Where a 3xx pointed (never followed).
        package var redirectURL: String?
    }

    package enum Failure: Error, Sendable {
        /// libcurl gave up: its code and its words.
        case curl(code: UInt32, message: String)
        /// The body grew past ``Limits/maxBody``.
        case tooLarge(limit: Int)
        case cancelled
        /// The public key the host presented did not match the pin.
        case pinMismatch(presented: String?)
    }

    let id: UInt64
    let easy: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let limit: Int
    private let pinned: Bool
    private var body: [UInt8] = []
    private var headerLines: [String] = []
    private var overflowed = false
    var completion: ((Result<Answer, Failure>) -> Void)?
    /// Called on the driver's thread once the connection and its handshake
    /// are up, just before the request is sent: the request leaves now.
    var leaving: (@Sendable () -> Void)?
    /// Set from any thread when the caller's task is cancelled; the driver ends the transfer.
    let cancelRequested = Atomic<Bool>(false)

    private static let nextID = Atomic<UInt64>(0)

    init(_ request: Request, limits: Limits) throws(Failure) {
        guard let easy = curl_easy_init() else { throw .curl(code: 2, message: "curl_easy_init failed") }
        id = Self.nextID.wrappingAdd(1, ordering: .relaxed).newValue
        self.easy = easy
        limit = limits.maxBody
        pinned = limits.pinnedKey != nil
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        let deadline = max(Int(limits.deadline * 1000), 1)
        var ok = true
        func set(_ option: CURLoption, _ value: Int) { ok = ok && ccurl_setopt_long(easy, option, value) == CURLE_OK }
        func set(_ option: CURLoption, _ value: String) { ok = ok && value.withCString { ccurl_setopt_pointer(easy, option, $0) } == CURLE_OK }
        set(CURLOPT_URL, request.url)
        // Only the configured origin: no redirects, no proxy from the environment, http(s) only.
        set(CURLOPT_FOLLOWLOCATION, 0)
        set(CURLOPT_PROXY, "")
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
        // Int(…): an enum case in curl 7.88 (Debian 12), a #define in curl 8.14 (Debian 13, the arm64 build).
        set(CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2))
        set(CURLOPT_TIMEOUT_MS, deadline)
        set(CURLOPT_CONNECTTIMEOUT_MS, deadline)
        // A host that drips bytes is cut off well before the deadline when it can be.
        set(CURLOPT_LOW_SPEED_LIMIT, 64)
        set(CURLOPT_LOW_SPEED_TIME, max(2, Int(limits.deadline / 2)))
        ok = ok && ccurl_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maxBody)) == CURLE_OK
        ok = ok && ccurl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer) == CURLE_OK
        // The CA store is loaded once per process (TrustStore) and given to
        // each handshake; libcurl itself loads no file. Plain http (a
        // loopback lab host) has no handshake and loads none.
        if request.url.lowercased().hasPrefix("https:") {
            let trust: OpaquePointer
            do { trust = try TrustStore.store(caFile: limits.caFile) } catch {
                release()
                throw error
            }
            ok = ok && ccurl_setopt_pointer(easy, CURLOPT_CAINFO, nil) == CURLE_OK
            ok = ok && ccurl_setopt_pointer(easy, CURLOPT_CAPATH, nil) == CURLE_OK
            ok = ok && ccurl_setopt_ssl_context_callback(easy, { _, context, store in
                SSL_CTX_set1_cert_store(OpaquePointer(context), OpaquePointer(store))
                return CURLE_OK
            }) == CURLE_OK
            ok = ok && ccurl_setopt_pointer(easy, CURLOPT_SSL_CTX_DATA, UnsafeRawPointer(trust)) == CURLE_OK
        }
        if let identity = limits.clientIdentity {
            // Blobs, copied by libcurl: the key is never a path, so it can
            // come from systemd's memory-backed credential directory.
            for (option, pem) in [(CURLOPT_SSLCERT_BLOB, identity.certificatePEM), (CURLOPT_SSLKEY_BLOB, identity.keyPEM)] {
                ok = ok && pem.withUnsafeBytes { bytes in
                    var blob = curl_blob(data: UnsafeMutableRawPointer(mutating: bytes.baseAddress), len: bytes.count, flags: UInt32(CURL_BLOB_COPY))
                    return ccurl_setopt_pointer(easy, option, &blob)
                } == CURLE_OK
            }
            set(CURLOPT_SSLCERTTYPE, "PEM")
            set(CURLOPT_SSLKEYTYPE, "PEM")
        }
        if let pin = limits.pinnedKey {
            set(CURLOPT_PINNEDPUBLICKEY, pin)
            // Kept so that a wrong pin can be reported with the key the host presented.
            set(CURLOPT_CERTINFO, 1)
        }
        switch request.method {
        case "GET": break
        case "POST":
            let payload = request.body ?? []
            set(CURLOPT_POST, 1)
            ok = ok && ccurl_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(payload.count)) == CURLE_OK
            ok = ok && payload.withUnsafeBytes { ccurl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress ?? UnsafeRawPointer(errorBuffer)) } == CURLE_OK
        default:
            set(CURLOPT_CUSTOMREQUEST, request.method)
        }
        // No "Expect: 100-continue" round trip; no compressed answers, so the cap counts real bytes.
        for line in request.headers.map({ "\($0.name): \($0.value)" }) + ["Expect:"] {
            headerList = curl_slist_append(headerList, line)
        }
        ok = ok && ccurl_setopt_pointer(easy, CURLOPT_HTTPHEADER, headerList) == CURLE_OK
        let context = Unmanaged.passUnretained(self).toOpaque()
        ok = ok && ccurl_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION, { data, size, count, context in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().received(body: data, size * count)
        }) == CURLE_OK
        ok = ok && ccurl_setopt_pointer(easy, CURLOPT_WRITEDATA, context) == CURLE_OK
        ok = ok && ccurl_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION, { data, size, count, context in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().received(header: data, size * count)
        }) == CURLE_OK
        ok = ok && ccurl_setopt_pointer(easy, CURLOPT_HEADERDATA, context) == CURLE_OK
        ok = ok && ccurl_setopt_prereq_callback(easy, { context, _, _, _, _ in
            Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue().leaving?()
            return CURL_PREREQFUNC_OK
        }) == CURLE_OK
        ok = ok && ccurl_setopt_pointer(easy, CURLOPT_PREREQDATA, context) == CURLE_OK
        guard ok else {
            release()
            throw .curl(code: 48, message: "this libcurl refused an option Teller needs (TLS 1.2, protocols or pinning)")
        }
    }

    private func received(body data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard body.count + count <= limit else {
            overflowed = true
            return 0 // aborts the transfer while reading: the rest is never read
        }
        if let data, count > 0 {
            body.append(contentsOf: UnsafeRawBufferPointer(start: data, count: count))
        }
        return count
    }

    private func received(header data: UnsafeMutablePointer<CChar>?, _ count: Int) -> Int {
        guard let data else { return count }
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
        // A new status line starts a new answer (after a 1xx); keep only the last one's headers.
        if line.hasPrefix("HTTP/") { headerLines = [] }
        if headerLines.count < 200 { headerLines.append(line) }
        return count
    }

    /// Called on the driver's thread when libcurl is done with the transfer.
    func finish(_ code: CURLcode) {
        let result: Result<Answer, Failure>
        if code == CURLE_OK {
            var status = 0
            ccurl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            var redirect: UnsafeMutablePointer<CChar>?
            ccurl_getinfo_string(easy, CURLINFO_REDIRECT_URL, &redirect)
            var headers: [String: String] = [:]
            for line in headerLines {
                guard let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) else { continue }
                let name = line[..<colon].trimmingASCIIWhitespace().lowercased()
                headers[name] = line[line.utf8.index(after: colon)...].trimmingASCIIWhitespace()
            }
            result = .success(Answer(status: status, headers: headers, body: body, redirectURL: redirect.map { String(cString: $0) }))
        } else if overflowed || code == CURLE_FILESIZE_EXCEEDED {
            result = .failure(.tooLarge(limit: limit))
        } else if code == CURLE_SSL_PINNEDPUBKEYNOTMATCH {
            result = .failure(.pinMismatch(presented: presentedKeyHash()))
        } else {
            let detail = String(cString: errorBuffer)
            result = .failure(.curl(code: code.rawValue, message: detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail))
        }
        complete(result)
    }

    /// Ends the transfer without an answer (cancelled or never started).
    func complete(_ result: Result<Answer, Failure>) {
        let completion = self.completion
        self.completion = nil
        release()
        completion?(result)
    }

    private var released = false
    private func release() {
        guard !released else { return }
        released = true
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    /// The SHA-256 of the leaf certificate's public key, in the pin's own
    /// form, when libcurl kept the certificate chain.
    private func presentedKeyHash() -> String? {
        guard pinned else { return nil }
        var info: UnsafeMutablePointer<curl_certinfo>?
        guard ccurl_getinfo_certinfo(easy, &info) == CURLE_OK, let info, info.pointee.num_of_certs > 0,
              var field = info.pointee.certinfo[0] else { return nil }
        while true {
            let text = String(cString: field.pointee.data)
            if text.hasPrefix("Cert:") {
                return PublicKeyPin.pin(ofPEMCertificate: String(text.dropFirst("Cert:".count)))
            }
            guard let next = field.pointee.next else { return nil }
            field = next
        }
    }
}
