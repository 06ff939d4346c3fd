import ProcessHarness
import FoundationEssentials

/// deploy/reference-host/teller-hostile-host as a real subprocess: a bank
/// that answers wrongly in one way (its `--mode`), for tests of what the
/// terminal believes. With `record`, every request it receives is appended
/// as one JSON line, so a test can prove that nothing reached it.
final class HostileHost: @unchecked Sendable {
    static let script = ReferenceHost.repositoryRoot + "/deploy/reference-host/teller-hostile-host"

    let mode: String
    private let arguments: [String]
    /// The file of recorded requests, when asked for.
    let recordFile: String?
    private(set) var child: ChildProcess?
    private(set) var port = 0

    init(mode: String, redirectTo: Int? = nil, record: String? = nil, arguments: [String] = []) {
        self.mode = mode
        recordFile = record
        var extra = arguments
        if let redirectTo { extra += ["--redirect-to", String(redirectTo)] }
        if let record { extra += ["--record", record] }
        self.arguments = extra
    }

    deinit { child?.killNow() }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Starts the host and waits for its "listening on" line.
    @discardableResult
    func start() async throws -> HostileHost {
        let child = try ChildProcess(Self.script, ["--port", "0", "--mode", mode] + arguments)
        self.child = child
        (_, port) = try await child.listeningAddress()
        return self
    }

    func stop() async {
        await child?.stop()
        child = nil
    }

    /// The requests recorded so far (one JSON object per line), or none.
    func recordedRequests() -> [String] {
        guard let recordFile, let text = try? String(contentsOfFile: recordFile, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }
}
