@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import HostTransport

extension HostIntegrationTests {
    /// Mutual TLS against the reference host started with `--tls-client-ca`
    /// (make-test-pki's CA): the terminal's certificate drains; no
    /// certificate, another CA's, an expired one and another terminal's are
    /// each refused by the host, and the terminal names which in the problem
    /// `teller status` and the screens show. Nothing is posted meanwhile.
    @Suite(.serialized, .tags(.slow)) struct MutualTLSTests {
        /// make-test-pki's files, and the host that trusts its CA.
        struct Bench {
            let pki: TemporaryDirectory
            let host: ReferenceHost
            func file(_ name: String) -> String { pki.file(name) }
        }

        static func bench() async throws -> Bench {
            let pki = TemporaryDirectory("teller-pki")
            let made = try await ChildProcess.run(ReferenceHost.repositoryRoot + "/deploy/reference-host/make-test-pki", [pki.path])
            try #require(made.status == 0, "make-test-pki: \(made.stderr)")
            let host = ReferenceHost(directory: TemporaryDirectory("teller-host"), arguments: [
                "--tls-cert", pki.file("host.pem"), "--tls-key", pki.file("host.key"), "--tls-client-ca", pki.file("ca.pem")])
            host.adminClientCertificate = (pki.file("T-0001.pem"), pki.file("T-0001.key"))
            try await host.start()
            return Bench(pki: pki, host: host)
        }

        /// A terminal with `certificate` (nil: none) that queues one deposit and drains once.
        /// - Returns: the problem the connection holds (a running engine records it for `teller status`), and how many rows are still pending.
        static func drainOnce(_ bench: Bench, certificate: String?) async throws -> (problem: SyncProblem?, pending: Int) {
            let identity = try certificate.map { name in
                try ClientIdentity.load(certificate: bench.file("\(name).pem"), keyFile: bench.file("\(name).key"), environment: [:])
            }
            let directory = TemporaryDirectory("teller-terminal")
            let connection = HostConnection(configuration: try HostConfiguration(baseURL: bench.host.url, requestTimeout: 5,
                                                                                 caFile: bench.file("ca.pem"), clientIdentity: identity))
            let vault = TokenVault(connection: connection, credentials: TerminalCredentials(terminalID: ReferenceHost.terminalID, secret: ReferenceHost.terminalSecret),
                                   dataDirectory: directory.path)
            let store = try TellerStore(dataDirectory: directory.path, limits: HostFixtures.limits)
            _ = try await store.enqueue(HostFixtures.deposit(1_000))
            let engine = SyncEngine(store: store, host: HostClient(connection: connection, vault: vault))
            await engine.drainOnce()
            // What a started engine records for `teller status` and the status bar.
            return (connection.reachability.problem, try await store.summary().pendingCount)
        }

        /// A TLS server that only handshakes and closes: `configure` (Python,
        /// on `context`; `sys.argv[3...]` are `arguments`) makes it the kind
        /// of host under test. It prints the reference host's listening line.
        /// A Python TLS server on loopback: `configure` sets up `context`,
        /// and `serve` handles each accepted `connection` (by default, the
        /// handshake and a close).
        static func tlsServer(certificate: String, key: String, configure: String, arguments: [String] = [],
                              serve: String = Self.handshakeAndClose) throws -> ChildProcess {
            try ChildProcess("/usr/bin/env", ["python3", "-W", "ignore", "-c", """
                import socket, ssl, struct, sys, time
                context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                context.load_cert_chain(sys.argv[1], sys.argv[2])
                \(configure)
                listener = socket.create_server(("127.0.0.1", 0))
                print(f"listening on https://127.0.0.1:{listener.getsockname()[1]}", flush=True)
                while True:
                    connection, _ = listener.accept()
                \(serve.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n"))
                """, certificate, key] + arguments)
        }

        static let handshakeAndClose = """
            try:
                context.wrap_socket(connection, server_side=True).close()
            except (OSError, ssl.SSLError):
                connection.close()
            """

        /// A TLS server that requires a certificate from make-test-pki's CA,
        /// at the TLS `version` line given, and a connection to it that sends none.
        static func hostRequiringACertificate(_ bench: Bench, version: String) async throws -> (ChildProcess, HostConnection) {
            let server = try Self.tlsServer(certificate: bench.file("host.pem"), key: bench.file("host.key"), configure: """
                \(version)
                context.verify_mode = ssl.CERT_REQUIRED
                context.load_verify_locations(sys.argv[3])
                """, arguments: [bench.file("ca.pem")])
            let (_, port) = try await server.listeningAddress()
            let connection = HostConnection(configuration: try HostConfiguration(baseURL: URL(string: "https://127.0.0.1:\(port)")!,
                                                                                 caFile: bench.file("ca.pem")))
            return (server, connection)
        }

        @Test func theTerminalsOwnCertificateDrains() async throws {
            let bench = try await Self.bench()
            defer { Task { await bench.host.stop() } }
            let (problem, pending) = try await Self.drainOnce(bench, certificate: "T-0001")
            #expect(problem == nil)
            #expect(pending == 0)
            #expect(try await bench.host.journal(outcome: "posted").count == 1)
        }

        @Test(arguments: [
            (nil, SyncProblem.Kind.certificateMissing),
            ("T-0001-other-ca", .certificateUntrusted),
            ("T-0001-expired", .certificateExpired),
            ("T-0001-not-yet-valid", .certificateExpired),
            ("T-0002", .certificateOtherTerminal),
        ] as [(String?, SyncProblem.Kind)])
        func eachRefusalIsNamedAndNothingIsPosted(certificate: String?, expected: SyncProblem.Kind) async throws {
            let bench = try await Self.bench()
            defer { Task { await bench.host.stop() } }
            let (problem, pending) = try await Self.drainOnce(bench, certificate: certificate)
            let recorded = try #require(problem, "no problem recorded for \(certificate ?? "no certificate")")
            #expect(recorded.kind == expected, "\(recorded.detail)")
            #expect(pending == 1, "the row stays queued")
            #expect(try await bench.host.journal().isEmpty, "nothing reached the bank")
            if let certificate, certificate != "T-0002" {
                #expect(recorded.detail.contains("client_cert"), "names the key: \(recorded.detail)")
            }
        }

        /// docs/host-api.md §10: after `403 certificate_terminal_mismatch`
        /// the terminal does not ask for a token again, however often the
        /// engine tries (it had asked 21 times in 17 s); the problem stays
        /// named. A new start (provisioning restarts it) asks once more.
        @Test func anotherTerminalsCertificateIsAskedAboutOnceNotOnEveryRetry() async throws {
            let bench = try await Self.bench()
            defer { Task { await bench.host.stop() } }
            let identity = try ClientIdentity.load(certificate: bench.file("T-0002.pem"), keyFile: bench.file("T-0002.key"), environment: [:])
            let directory = TemporaryDirectory("teller-terminal")
            // The rows' due times are this clock's, moved by hand between passes.
            let clock = FixedClock(Date())
            let store = try TellerStore(dataDirectory: directory.path, limits: HostFixtures.limits, clock: clock)
            _ = try await store.enqueue(HostFixtures.deposit(1_000))
            func start() throws -> (SyncEngine, HostConnection) {
                let connection = HostConnection(configuration: try HostConfiguration(baseURL: bench.host.url, requestTimeout: 5,
                                                                                     caFile: bench.file("ca.pem"), clientIdentity: identity))
                let vault = TokenVault(connection: connection, credentials: TerminalCredentials(terminalID: ReferenceHost.terminalID,
                                                                                                secret: ReferenceHost.terminalSecret),
                                       dataDirectory: directory.path)
                return (SyncEngine(store: store, host: HostClient(connection: connection, vault: vault), policy: HostFixtures.quickRetries), connection)
            }
            /// `passes` drains, each when the row is due again (quick retries: 0.05 s to 0.5 s),
            /// the clock moved on by what the engine says it would wait (a second at most).
            func drain(_ engine: SyncEngine, passes: Int) async {
                for _ in 0..<passes {
                    if let wait = await engine.drainOnce() { clock.advance(min(wait, 1) + 0.01) }
                }
            }
            let (engine, connection) = try start()
            await drain(engine, passes: 6)
            #expect(try await bench.host.stats().certificateMismatches == 1, "one answer is enough: the host was asked again")
            #expect(connection.reachability.problem?.kind == .certificateOtherTerminal)
            #expect(try await store.summary().pendingCount == 1)

            let (restarted, _) = try start()
            await drain(restarted, passes: 3)
            #expect(try await bench.host.stats().certificateMismatches == 2)
            #expect(try await bench.host.journal().isEmpty)
        }

        /// A technician reads `teller drain`'s log: over many retries a
        /// refused handshake is one line, and no "sending" (nothing left);
        /// once the certificate is there, "sending" and "confirmed" once each.
        @Test func theLogSaysEachChangeOnceAndSendingOnlyWhenARequestLeaves() async throws {
            let bench = try await Self.bench()
            defer { Task { await bench.host.stop() } }
            let directory = TemporaryDirectory("teller-terminal")
            let store = try TellerStore(dataDirectory: directory.path, limits: HostFixtures.limits)
            let entry = try await store.enqueue(HostFixtures.deposit(1_234))
            let common = ["--ca-file", bench.file("ca.pem"), "--retry-base-s", "0.05", "--retry-cap-s", "0.1"]
            let (refused, refusedFiles) = try TellerDrainProcess.start(dataDirectory: directory.path, hostURL: bench.host.url, options: common)
            defer { withExtendedLifetime(refusedFiles) {} }
            // Many retries: the host logs one refused handshake for each (looked for as it logs).
            let hostProcess = try #require(bench.host.child)
            _ = await hostProcess.waitForOutput(timeout: .seconds(60)) {
                hostProcess.stderr.components(separatedBy: "handshake refused").count >= 6
            }
            await refused.stop()
            let attempts = bench.host.log.components(separatedBy: "handshake refused").count - 1
            #expect(attempts >= 5, "the host saw \(attempts) handshakes: \(bench.host.log)")
            let lines = refused.stderr.split(separator: "\n")
            #expect(lines.filter { $0.contains("sync: certificateMissing") }.count == 1, "\(refused.stderr)")
            #expect(lines.filter { $0.contains("sync: sending") }.isEmpty, "\(refused.stderr)")
            #expect(lines.contains { $0.contains("requires a client certificate") && $0.contains("client_cert") }, "\(refused.stderr)")
            #expect(lines.filter { $0.hasPrefix("<6>sync: woke (timer)") }.isEmpty, "a retry's timer is not an info line: \(refused.stderr)")

            // The documented drain before an update (--until-empty) says it once too, and teller status shows it.
            let (untilEmpty, untilEmptyFiles) = try TellerDrainProcess.start(dataDirectory: directory.path, hostURL: bench.host.url,
                                                                             options: common + ["--until-empty"])
            defer { withExtendedLifetime(untilEmptyFiles) {} }
            let said = await untilEmpty.firstLine(containing: "sync: certificateMissing", in: .stderr, timeout: .seconds(60)) != nil
            // Retrying every 0.1 s meanwhile: half a second in which a second line would show.
            try await Task.sleep(for: .milliseconds(500))
            await untilEmpty.stop()
            #expect(said, "\(untilEmpty.stderr)")
            #expect(untilEmpty.stderr.components(separatedBy: "sync: certificateMissing").count == 2, "\(untilEmpty.stderr)")
            #expect(try await store.recordedProblem()?.kind == .certificateMissing)

            let (good, goodFiles) = try TellerDrainProcess.start(dataDirectory: directory.path, hostURL: bench.host.url, options: common + [
                "--client-cert", bench.file("T-0001.pem"), "--client-key", bench.file("T-0001.key"), "--until-empty"])
            defer { withExtendedLifetime(goodFiles) {} }
            #expect(await good.waitForExit(timeout: .seconds(30)), "\(good.stderr)")
            #expect(good.terminationStatus == 0, "\(good.stderr)")
            let goodLines = good.stderr.split(separator: "\n")
            #expect(goodLines.filter { $0 == "<6>sync: sending \(entry.key)" }.count == 1, "\(good.stderr)")
            #expect(TellerDrainProcess.confirmedKeys(in: good.stderr) == [entry.key.rawValue])
            #expect(!good.stderr.contains("sync: certificate"), "\(good.stderr)")
            #expect(try await store.recordedProblem() == nil, "a good drain leaves no stale problem for teller status")
        }

        /// TLS 1.2 has no "certificate required" alert: a host that requires
        /// a certificate says "handshake failure", as one that shares no
        /// cipher does. The terminal names both and claims neither.
        @Test func aTLS12HostThatRequiresACertificateIsNamedWithoutAGuess() async throws {
            let bench = try await Self.bench()
            defer { Task { await bench.host.stop() } }
            let (server, connection) = try await Self.hostRequiringACertificate(bench, version: "context.maximum_version = ssl.TLSVersion.TLSv1_2")
            defer { server.killNow() }
            let thrown = await thrownError(HostError.self) { _ = try await connection.send("GET", "/v1/health") }
            let refused = try #require(thrown, "the handshake was not refused")
            #expect(refused.problemKind == .tls, "\(refused)")
            #expect(refused.description.contains("shares no cipher") && refused.description.contains("requires a client certificate"), "\(refused)")
        }

        /// A TLS 1.3 host that refused the certificate once and then closes
        /// each connection the moment the handshake is over: TLS 1.3 sends
        /// its alert after the client's side of the handshake, so libcurl
        /// can meet the closed socket before the alert (curl 55 or 56), and
        /// the status flapped between the certificate and "offline". The
        /// first connection here waits until its alert has been read; the
        /// later ones reset without one, so which arrives first is not left
        /// to the scheduler. Every request names the missing certificate.
        @Test func aHostThatClosesBeforeItsAlertIsReadIsStillTheCertificate() async throws {
            let bench = try await Self.bench()
            defer { Task { await bench.host.stop() } }
            let server = try Self.tlsServer(certificate: bench.file("host.pem"), key: bench.file("host.key"), configure: """
                context.minimum_version = ssl.TLSVersion.TLSv1_3
                context.verify_mode = ssl.CERT_REQUIRED
                context.load_verify_locations(sys.argv[3])
                lenient = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
                lenient.load_cert_chain(sys.argv[1], sys.argv[2])
                lenient.minimum_version = ssl.TLSVersion.TLSv1_3
                served = 0
                """, arguments: [bench.file("ca.pem")], serve: """
                served += 1
                tls = (context if served == 1 else lenient).wrap_socket(connection, server_side=True, do_handshake_on_connect=False)
                try:
                    tls.do_handshake()
                except (OSError, ssl.SSLError):
                    time.sleep(1)
                if served > 1:
                    tls.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                tls.close()
                """)
            let (_, port) = try await server.listeningAddress()
            defer { server.killNow() }
            let connection = HostConnection(configuration: try HostConfiguration(baseURL: URL(string: "https://127.0.0.1:\(port)")!,
                                                                                 caFile: bench.file("ca.pem")))
            var kinds: [SyncProblem.Kind?] = []
            for _ in 0..<10 {
                let thrown = await thrownError(HostError.self) { _ = try await connection.send("GET", "/v1/health") }
                kinds.append(try #require(thrown, "the handshake was not refused").problemKind)
            }
            #expect(kinds.allSatisfy { $0 == .certificateMissing }, "\(kinds)")
            let detail = try #require(connection.reachability.problem).detail
            #expect(detail.contains("before its alert was read"), "the later requests were resets, not alerts: \(detail)")
            #expect(detail.components(separatedBy: "again:").count == 2, "the detail does not grow with each retry: \(detail)")
        }

        /// A host that speaks only TLS 1.0 and 1.1 is named as such, not in OpenSSL's words alone.
        @Test func aHostOfferingOnlyOldTLSIsNamed() async throws {
            let files = TemporaryDirectory("teller-old-tls")
            let (cert, key, _) = try await TLSTests.makeCertificate(in: files)
            let server = try Self.tlsServer(certificate: cert, key: key, configure: """
                context.set_ciphers("DEFAULT:@SECLEVEL=0")
                context.minimum_version = ssl.TLSVersion.TLSv1
                context.maximum_version = ssl.TLSVersion.TLSv1_1
                """)
            let (_, port) = try await server.listeningAddress()
            defer { server.killNow() }
            let connection = HostConnection(configuration: try HostConfiguration(baseURL: URL(string: "https://127.0.0.1:\(port)")!, caFile: cert))
            let refused = await thrownError(HostError.self) { _ = try await connection.send("GET", "/v1/health") }
            guard case .tls(let message) = try #require(refused) else {
                Issue.record("not a TLS refusal: \(String(describing: refused))")
                return
            }
            #expect(message.contains("TLS 1.2 or later is required"), "\(message)")
        }
    }
}
