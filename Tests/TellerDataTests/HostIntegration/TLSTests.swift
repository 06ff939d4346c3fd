@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import HostTransport

extension HostIntegrationTests {
    /// The reference host on https with a self-signed certificate: trusted
    /// through `ca_file` the terminal drains; with a wrong `host_pin_sha256`
    /// it refuses, and says which key it expected and which it was shown.
    @Suite struct TLSTests {
        /// A self-signed P-256 certificate for 127.0.0.1, and its public key's pin.
        static func makeCertificate(in directory: TemporaryDirectory) async throws -> (cert: String, key: String, pin: String) {
            let cert = directory.file("host.pem"), key = directory.file("host.key")
            let made = try await ChildProcess.run("/usr/bin/env", [
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", cert])
            #expect(made.status == 0, "openssl req: \(made.stderr)")
            let pin = try await ChildProcess.run("/bin/sh", ["-c",
                "openssl x509 -in \"$1\" -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64", "sh", cert])
            #expect(pin.status == 0, "pin: \(pin.stderr)")
            return (cert, key, pin.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }

        @Test func aSelfSignedHostTrustedThroughCAFileDrains() async throws {
            let files = TemporaryDirectory("teller-tls")
            let (cert, key, pin) = try await Self.makeCertificate(in: files)
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host"), arguments: ["--tls-cert", cert, "--tls-key", key]).start()
            defer { Task { await host.stop() } }
            #expect(host.url.scheme == "https")
            let directory = TemporaryDirectory("teller-tls-terminal")
            let store = try TellerStore(dataDirectory: directory.path, limits: HostFixtures.limits)
            let entry = try await store.enqueue(HostFixtures.deposit(1_234))
            // The pin is the right one here: both ca_file and the pin must pass.
            let (drain, drainFiles) = try TellerDrainProcess.start(dataDirectory: directory.path, hostURL: host.url,
                                                                   options: ["--until-empty", "--ca-file", cert, "--host-pin-sha256", pin])
            defer { withExtendedLifetime(drainFiles) {} }
            #expect(await drain.waitForExit(timeout: .seconds(30)), "\(drain.stderr)")
            #expect(drain.terminationStatus == 0, "\(drain.stderr)")
            let posted = try await host.journal(outcome: "posted").map(\.idempotencyKey)
            #expect(posted == [entry.key.rawValue])
        }

        @Test func aWrongPinIsRefusedAndBothHashesAreNamed() async throws {
            let files = TemporaryDirectory("teller-tls")
            let (cert, key, pin) = try await Self.makeCertificate(in: files)
            let host = try await ReferenceHost(directory: TemporaryDirectory("teller-host"), arguments: ["--tls-cert", cert, "--tls-key", key]).start()
            defer { Task { await host.stop() } }
            let wrong = Data(repeating: 7, count: 32).base64EncodedString()
            let connection = HostConnection(configuration: try HostConfiguration(baseURL: host.url, caFile: cert, hostPinSHA256: wrong))
            let refused = await thrownError(HostError.self) { _ = try await connection.send("GET", "/v1/health") }
            guard case .tls(let message) = try #require(refused) else {
                Issue.record("not a TLS refusal: \(String(describing: refused))")
                return
            }
            #expect(message.contains("sha256//" + wrong), "\(message)")
            #expect(message.contains("sha256//" + pin), "the presented key is named: \(message)")
            // Without ca_file the self-signed certificate itself is refused.
            let untrusting = HostConnection(configuration: try HostConfiguration(baseURL: host.url))
            let untrusted = await thrownError(HostError.self) { _ = try await untrusting.send("GET", "/v1/health") }
            #expect(untrusted?.problemKind == .tls, "\(String(describing: untrusted))")
            #expect(try await host.journal().isEmpty)
        }
    }
}
