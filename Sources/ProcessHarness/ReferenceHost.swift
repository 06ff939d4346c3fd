import FoundationEssentials
import Glibc

/// deploy/reference-host/teller-host as a real subprocess with its own
/// SQLite file and the demo seed, plus its admin API (faults, counters,
/// journal, token expiry) for the assertions.
///
/// In a network namespace it is started with `ip netns exec`, and admin
/// calls go through `ip netns exec` to 127.0.0.1 there, because the admin
/// API answers loopback peers only.
///
/// teller-bench starts it too, from the script in the repository it runs in.
public final class ReferenceHost: @unchecked Sendable {
    /// The repository this file lives in.
    package static let repositoryRoot: String = {
        // Sources/ProcessHarness/ReferenceHost.swift → the repository.
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()
    /// The host of the repository this file was built from.
    public static let script = repositoryRoot + "/deploy/reference-host/teller-host"
    static let terminalID = "T-0001"
    static let terminalSecret = "demo-secret-T-0001"

    /// Kept alive with the host: its data file lives there.
    let directory: TemporaryDirectory
    let dataFile: String
    private let script: String
    let namespace: String?
    private let requestedPort: Int
    private let bind: String
    private let arguments: [String]
    /// The certificate and key the admin client presents to a host started with `--tls-client-ca`.
    var adminClientCertificate: (certificate: String, key: String)?
    private(set) var child: ChildProcess?
    /// The port it listens on, known once started.
    private(set) var port = 0

    /// - Parameters:
    ///   - directory: where its data file goes (kept across restarts).
    ///   - port: 0 lets the host pick a free port.
    ///   - bind: the listen address; `0.0.0.0` in a namespace.
    ///   - namespace: the network namespace to run in, or nil.
    ///   - script: the teller-host to run.
    public init(directory: TemporaryDirectory, port: Int = 0, bind: String = "127.0.0.1", namespace: String? = nil, arguments: [String] = [], script: String = ReferenceHost.script) {
        self.directory = directory
        self.script = script
        dataFile = directory.file("host.db")
        requestedPort = port
        self.bind = bind
        self.namespace = namespace
        self.arguments = arguments
    }

    deinit {
        child?.killNow()
    }

    /// http, or https when started with `--tls-cert`.
    private(set) var scheme = "http"

    /// The base URL a terminal on this machine uses.
    public var url: URL { URL(string: "\(scheme)://127.0.0.1:\(port)")! }

    /// Starts the host and waits for its "listening on" line.
    @discardableResult
    public func start() async throws -> ReferenceHost {
        var command = [script, "--port", String(port == 0 ? requestedPort : port), "--bind", bind, "--data", dataFile, "--seed", "demo"] + arguments
        if let namespace {
            command = ["netns", "exec", namespace] + command
        }
        let executable = namespace == nil ? command.removeFirst() : try ChildProcess.ip()
        let child = try ChildProcess(executable, command)
        self.child = child
        (scheme, port) = try await child.listeningAddress()
        return self
    }

    /// Stops the host (SIGTERM, then SIGKILL if it lingers). Its data stays.
    public func stop() async {
        await child?.stop()
        child = nil
    }

    /// What the host wrote to stderr so far (for failure messages).
    var log: String { child?.stderr ?? "" }

    // MARK: Admin API

    /// One admin call; the answer's JSON body. Made by a small urllib
    /// client (inside the namespace when there is one), so the tests need no
    /// HTTP stack of their own beside the terminal's.
    func admin(_ method: String, _ path: String, body: Data? = nil) async throws -> Data {
        let address = "\(scheme)://127.0.0.1:\(port)\(path)"
        var command = ["python3", "-c", Self.adminClient, address, method]
        if let adminClientCertificate { command += [adminClientCertificate.certificate, adminClientCertificate.key] }
        if let namespace { command = ["netns", "exec", namespace] + command }
        let executable = namespace == nil ? "/usr/bin/env" : try ChildProcess.ip()
        let result = try await ChildProcess.run(executable, command, stdin: body ?? Data())
        guard result.status == 0 else { throw ReferenceHostError.admin(method, path, result.stdout + result.stderr) }
        return Data(result.stdout.utf8)
    }

    /// A urllib client: URL and method as arguments, body on stdin.
    private static let adminClient = """
        import ssl, sys, urllib.request, urllib.error
        body = sys.stdin.buffer.read() or None
        request = urllib.request.Request(sys.argv[1], data=body, method=sys.argv[2], headers={"Content-Type": "application/json"})
        # The test's own host on loopback, with a certificate made for the test.
        context = ssl._create_unverified_context() if sys.argv[1].startswith("https:") else None
        # A host that requires client certificates (--tls-client-ca): the test's own.
        if context is not None and len(sys.argv) > 4:
            context.load_cert_chain(sys.argv[3], sys.argv[4])
        try:
            sys.stdout.buffer.write(urllib.request.urlopen(request, timeout=10, context=context).read())
        except urllib.error.HTTPError as error:
            sys.stdout.buffer.write(error.read())
            sys.exit(3)
        """

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }()

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()

    /// Counters since start or the last reset.
    func stats() async throws -> Stats {
        try Self.decoder.decode(Stats.self, from: try await admin("GET", "/admin/stats"))
    }

    /// Every final outcome for the demo terminal in commit order.
    func journal(outcome: String? = nil) async throws -> [JournalEntry] {
        let query = "?terminal_id=\(Self.terminalID)" + (outcome.map { "&outcome=\($0)" } ?? "")
        return try Self.decoder.decode(Journal.self, from: try await admin("GET", "/admin/journal" + query)).entries
    }

    /// Every till event the host recorded for the demo terminal, in commit order.
    func tillEvents() async throws -> [TillEventEntry] {
        try Self.decoder.decode(TillEvents.self, from: try await admin("GET", "/admin/till-events?terminal_id=\(Self.terminalID)")).events
    }

    /// Changes only the faults given.
    func setFaults(_ faults: Faults) async throws {
        _ = try await admin("POST", "/admin/faults", body: try Self.encoder.encode(faults))
    }

    /// Zeroes the counters and clears every fault.
    func reset() async throws {
        _ = try await admin("POST", "/admin/reset")
    }

    /// Expires every access token issued so far; returns how many.
    @discardableResult
    func expireTokens() async throws -> Int {
        struct Expired: Decodable { let expired: Int }
        return try Self.decoder.decode(Expired.self, from: try await admin("POST", "/admin/tokens/expire")).expired
    }

    struct Stats: Decodable {
        let tokenIssues: Int
        let refreshes: Int
        let unauthorized: Int
        let submissions: Int
        let postings: Int
        let rejections: Int
        let replays: Int
        let conflicts: Int
        let injectedFailures: Int
        let droppedResponses: Int
        let pinVerifications: Int
        let tillEventsRecorded: Int
        /// 403 certificate_terminal_mismatch answers: a request with another terminal's certificate.
        let certificateMismatches: Int
    }

    struct Journal: Decodable { let entries: [JournalEntry] }

    struct JournalEntry: Decodable {
        let seq: Int
        let idempotencyKey: String
        let outcome: String
        let reason: String?
        let hostReference: String?
        let accountIban: String
        let amount: Int64
        let kind: String
        /// The key of the posting this one reverses, or nil.
        let reverses: String?
        /// The supervisor who approved it, or nil.
        let approvedBy: String?
    }

    struct TillEvents: Decodable { let events: [TillEventEntry] }

    struct TillEventEntry: Decodable {
        let seq: Int
        let idempotencyKey: String
        let event: String
        let tillId: Int64
        let total: Int64
        let approvedBy: String?
        let hostReference: String?
    }

    /// The faults document of docs/reference-host.md; nil members are left as they are.
    struct Faults: Encodable {
        var dropAfterCommit: Int?
        var fail: Fail?
        var delayMs: Int?
        var processingDelayMs: Int?

        struct Fail: Encodable {
            var count: Int
            var status = 503
            var retryAfter: Int
            var scope = "transactions"
        }
    }
}

enum ReferenceHostError: Error, CustomStringConvertible {
    case didNotStart(stdout: String, stderr: String)
    case admin(String, String, String)

    var description: String {
        switch self {
        case .didNotStart(let stdout, let stderr): "teller-host did not start; stdout: \(stdout) stderr: \(stderr)"
        case .admin(let method, let path, let answer): "admin \(method) \(path) failed: \(answer)"
        }
    }
}

extension ChildProcess {
    /// Waits for a host's "… listening on http(s)://127.0.0.1:PORT" line
    /// (the reference and the hostile host both print one).
    /// - Throws: ``ReferenceHostError/didNotStart(stdout:stderr:)`` when it
    ///   exits or says nothing within 15 s; the child is killed.
    package func listeningAddress() async throws -> (scheme: String, port: Int) {
        let line = await firstLine(containing: "listening on http", in: .stdout, timeout: .seconds(15))
        guard let line, let portText = line.split(separator: ":").last, let port = Int(portText.filter { !$0.isWhitespace }) else {
            await stop(SIGKILL)
            throw ReferenceHostError.didNotStart(stdout: stdout, stderr: stderr)
        }
        return (line.contains("listening on https://") ? "https" : "http", port)
    }
}
