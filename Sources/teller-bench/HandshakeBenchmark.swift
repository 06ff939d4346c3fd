import FoundationEssentials
import ProcessHarness
import TellerData
import HostTransport

/// `teller-bench handshake [--attempts N] [--host-script PATH]`: a refused
/// TLS handshake, as a terminal meets it on every retry against a host whose
/// certificate it does not trust. The reference host serves https with a
/// self-signed certificate (made by openssl here); one HostConnection
/// trusts the system CA store (no ca_file) and is refused N times, another
/// trusts only a one-certificate ca_file and is refused by a pin, N times,
/// alternating. The first refusal of each, which loads its CA store, is
/// reported on its own. Run from the repository root (or pass --host-script).
let handshakeBenchmark = Benchmark(name: "handshake", summary: "a refused TLS handshake: the system CA store vs a one-certificate ca_file",
                                   usage: """
    figures:
      refused_handshake_first_ms            the first refusal with the system store (loads the store)
      refused_handshake_median_ms           the median refusal after it, with the system store: the
                                            goal is a few milliseconds, the store loaded once per process
      refused_handshake_ca_file_median_ms   the median refusal with a one-certificate ca_file (baseline)
      refused_handshake_vs_ca_file          the two medians' ratio
    options: --attempts N (default 30), --host-script PATH
    """) { arguments in
    var attempts = 30
    var hostScript = FileManager.default.currentDirectoryPath + "/deploy/reference-host/teller-host"
    var rest = arguments[...]
    while let flag = rest.popFirst() {
        switch flag {
        case "--attempts": attempts = max(3, Int(rest.popFirst() ?? "") ?? attempts)
        case "--host-script": hostScript = rest.popFirst() ?? hostScript
        default: throw BenchmarkError.unknownOption(flag)
        }
    }
    let directory = TemporaryDirectory("teller-bench-handshake")
    let cert = directory.file("host.pem"), key = directory.file("host.key")
    let made = try await ChildProcess.run("/usr/bin/env", [
        "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
        "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert])
    guard made.status == 0 else { throw BenchmarkError.failed("openssl req: \(made.stderr)") }
    let host = try await ReferenceHost(directory: directory, arguments: ["--tls-cert", cert, "--tls-key", key], script: hostScript).start()
    // Untrusted: the system store does not hold the self-signed certificate.
    let systemStore = HostConnection(configuration: try HostConfiguration(baseURL: host.url))
    // Trusted by ca_file, then refused by a pin that matches no key: the same refusal, a small store.
    let caFile = HostConnection(configuration: try HostConfiguration(baseURL: host.url, caFile: cert,
                                                                     hostPinSHA256: Data(repeating: 7, count: 32).base64EncodedString()))
    func refused(_ connection: HostConnection) async throws -> Double {
        var sample = Samples()
        let error: HostError? = await sample.measure {
            do throws(HostError) { _ = try await connection.send("GET", "/v1/health"); return nil } catch { return error }
        }
        guard error?.problemKind == .tls else { throw BenchmarkError.failed("expected a TLS refusal, got \(String(describing: error))") }
        return sample.values[0]
    }
    report("refused_handshake_first_ms", try await refused(systemStore))
    _ = try await refused(caFile)
    var system = Samples(), small = Samples()
    for _ in 0..<attempts {
        system.append(try await refused(systemStore))
        small.append(try await refused(caFile))
    }
    report("refused_handshake_median_ms", system.median)
    report("refused_handshake_ca_file_median_ms", small.median)
    report("refused_handshake_vs_ca_file", system.median / small.median)
    await host.stop()
}
