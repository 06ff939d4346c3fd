import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// check-config reads the files the TLS handshake will read (ca_file,
/// client_cert, client_key) and names the key and what is wrong, instead of
/// leaving it to libcurl's "error setting certificate file" at the first
/// attempt. The files come from deploy/reference-host/make-test-pki.
@Suite(.tags(.realProcess)) struct TLSFilesConfigurationTests {
    static let teller = TestProducts.executable("teller")

    /// make-test-pki's files, a secret file and a folder for the bad files.
    struct Files {
        let directory: TemporaryDirectory
        func file(_ name: String) -> String { directory.file(name) }
    }

    static func files() async throws -> Files {
        let directory = TemporaryDirectory("teller-tls-config")
        let made = try await ChildProcess.run(ReferenceHost.repositoryRoot + "/deploy/reference-host/make-test-pki", [directory.path])
        try #require(made.status == 0, "make-test-pki: \(made.stderr)")
        try Data("demo-secret-T-0001\n".utf8).write(to: URL(fileURLWithPath: directory.file("secret")))
        chmod(directory.file("secret"), 0o600)
        try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: directory.file("garbage.pem")))
        try Data().write(to: URL(fileURLWithPath: directory.file("empty.pem")))
        try Data().write(to: URL(fileURLWithPath: directory.file("empty.conf")))
        try Data("not a key\n".utf8).write(to: URL(fileURLWithPath: directory.file("garbage.key")))
        chmod(directory.file("garbage.key"), 0o600)
        try FileManager.default.createDirectory(atPath: directory.file("folder.pem"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: directory.file("T-0001.key"), toPath: directory.file("open.key"))
        chmod(directory.file("open.key"), 0o644)
        return Files(directory: directory)
    }

    /// check-config on a file with `lines` after the host settings.
    func checkConfig(_ files: Files, _ lines: [String], host: String = "https://127.0.0.1:8443") async throws -> (status: Int32, output: String) {
        let conf = files.file("teller-\(UUID().uuidString).conf")
        let text = (["terminal_id = T-0001", "host_url = \(host)", "secret_file = \(files.file("secret"))"] + lines).joined(separator: "\n") + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: conf))
        let result = try await ChildProcess.run(Self.teller, ["check-config", conf])
        return (result.status, result.stdout + result.stderr)
    }

    @Test func theMatchingFilesPass() async throws {
        let files = try await Self.files()
        let result = try await checkConfig(files, ["ca_file = \(files.file("ca.pem"))", "client_cert = \(files.file("T-0001.pem"))",
                                                   "client_key = \(files.file("T-0001.key"))"])
        #expect(result.status == 0, "\(result.output)")
    }

    /// The lines (make-test-pki's names for FILE) and what check-config must say.
    static let bad: [([String], String)] = [
        (["ca_file = FILE(garbage.pem)"], "ca_file: FILE(garbage.pem) holds no PEM certificate"),
        (["ca_file = FILE(empty.pem)"], "ca_file: FILE(empty.pem) holds no PEM certificate"),
        (["ca_file = FILE(folder.pem)"], "ca_file: FILE(folder.pem) is not a regular file"),
        (["ca_file = FILE(missing.pem)"], "ca_file: FILE(missing.pem) does not exist"),
        (["ca_file = FILE(T-0001-expired.pem)"], "ca_file: FILE(T-0001-expired.pem) expired on "),
        (["client_cert = FILE(T-0001-expired.pem)", "client_key = FILE(T-0001-expired.key)"], "client_cert: FILE(T-0001-expired.pem) expired on "),
        (["client_cert = FILE(T-0001-not-yet-valid.pem)", "client_key = FILE(T-0001-not-yet-valid.key)"], "client_cert: FILE(T-0001-not-yet-valid.pem) is not valid until "),
        (["client_cert = FILE(garbage.pem)", "client_key = FILE(T-0001.key)"], "client_cert: FILE(garbage.pem) holds no PEM certificate"),
        (["client_cert = FILE(missing.pem)", "client_key = FILE(T-0001.key)"], "client_cert: FILE(missing.pem) does not exist"),
        (["client_cert = FILE(T-0001.pem)", "client_key = FILE(T-0002.key)"], "client_key: the key in FILE(T-0002.key) does not belong to the certificate in FILE(T-0001.pem)"),
        (["client_cert = FILE(T-0001.pem)", "client_key = FILE(garbage.key)"], "client_key: FILE(garbage.key) holds no unencrypted PEM private key"),
        (["client_cert = FILE(T-0001.pem)", "client_key = FILE(open.key)"], "client_key: FILE(open.key) has mode 644; a private key must be readable by its owner only"),
        (["client_cert = FILE(T-0001.pem)", "client_key = FILE(missing.key)"], "client_key: FILE(missing.key) does not exist"),
        (["client_cert = FILE(T-0001.pem)"], "client_key: client_key (or the systemd credential teller-client-key) does not exist"),
        // Another terminal's pair, whole and valid: the host would refuse it on every request.
        (["client_cert = FILE(T-0002.pem)", "client_key = FILE(T-0002.key)"],
         "client_cert: FILE(T-0002.pem) is the certificate of T-0002, not of this terminal (terminal_id = T-0001)"),
        (["client_key = FILE(T-0001.key)"], "client_key is set but client_cert is not"),
    ]

    @Test func eachBadFileIsNamed() async throws {
        let files = try await Self.files()
        func resolved(_ text: String) -> String {
            var text = text
            while let range = text.range(of: #"FILE\(([^)]+)\)"#, options: .regularExpression) {
                let name = text[range].dropFirst("FILE(".count).dropLast()
                text.replaceSubrange(range, with: files.file(String(name)))
            }
            return text
        }
        for (lines, expected) in Self.bad {
            let result = try await checkConfig(files, lines.map(resolved))
            #expect(result.status == 1, "\(lines): \(result.output)")
            #expect(result.output.contains(resolved(expected)), "\(lines): expected '\(resolved(expected))' in \(result.output)")
        }
        let plain = try await checkConfig(files, ["client_cert = \(files.file("T-0001.pem"))", "client_key = \(files.file("T-0001.key"))"],
                                          host: "http://127.0.0.1:8080")
        #expect(plain.output.contains("client_cert is set but host_url is not https"), "\(plain.output)")
    }

    /// `teller identity show`: the installed pair, and a warning inside client_cert_warn_days.
    @Test func identityShowSaysWhenToRenew() async throws {
        let files = try await Self.files()
        func show(_ name: String, warnDays: Int = 20) async throws -> (status: Int32, output: String) {
            let result = try await ChildProcess.run(Self.teller, [
                "identity", "show", "--config", files.file("empty.conf"), "--terminal-id", "T-0001", "--host-url", "https://127.0.0.1:8443",
                "--client-cert", files.file("\(name).pem"), "--client-key", files.file("\(name).key"), "--client-cert-warn-days", String(warnDays)])
            return (result.status, result.stdout + result.stderr)
        }
        // make-test-pki's certificates are valid for 30 days: 29 left, warned from 20.
        let good = try await show("T-0001")
        #expect(good.status == 0, "\(good.output)")
        #expect(good.output.contains("subject: T-0001") && good.output.contains("issuer: Teller Test Terminal CA"), "\(good.output)")
        #expect(!good.output.contains("warning"), "\(good.output)")
        let expiring = try await show("T-0001-expiring")
        #expect(expiring.status == 0 && expiring.output.contains("warning: expires in 9 days"), "\(expiring.output)")
        let other = try await show("T-0002")
        #expect(other.status == 1 && other.output.contains("the certificate is for T-0002, but terminal_id is T-0001"), "\(other.output)")
        let expired = try await show("T-0001-expired")
        #expect(expired.status == 1 && expired.output.contains("not valid now"), "\(expired.output)")
    }
}
