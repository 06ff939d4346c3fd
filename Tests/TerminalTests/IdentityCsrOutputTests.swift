import Foundation
import Testing
@testable import ProcessHarness
import ProcessTestSupport

/// `teller identity csr` writes the new private key to standard output only
/// when that is a pipe or a socket (into systemd-creds encrypt): a regular
/// file, a device or a terminal is refused before any key is made, and the
/// message names the documented pipe (issue 42, item 1).
@Suite(.tags(.realProcess)) struct IdentityCsrOutputTests {
    static let teller = TestProducts.executable("teller")

    func configuration(_ directory: TemporaryDirectory) throws -> String {
        let conf = directory.file("teller.conf")
        try Data("terminal_id = T-0001\nbranch = Mitte\n".utf8).write(to: URL(fileURLWithPath: conf))
        return conf
    }

    @Test(arguments: [("> KEY", "a regular file, which would keep the key on disk unsealed"),
                      (">> KEY", "a regular file, which would keep the key on disk unsealed"),
                      ("> /dev/null", "a terminal or another device")])
    func aFileOrADeviceIsRefusedAndNoKeyIsMade(_ redirect: String, _ why: String) async throws {
        let directory = TemporaryDirectory("teller-identity-csr")
        let conf = try configuration(directory)
        let csr = directory.file("client.csr"), key = directory.file("client.key")
        let shell = "'\(Self.teller)' identity csr --csr-out '\(csr)' --config '\(conf)' \(redirect.replacingOccurrences(of: "KEY", with: "'\(key)'"))"
        let result = try await ChildProcess.run("/bin/sh", ["-c", shell])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("that is \(why)"), "\(result.stderr)")
        #expect(result.stderr.contains("systemd-creds encrypt --name=teller-client-key"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: csr), "a request was written for a key that went nowhere")
        let written = (try? Data(contentsOf: URL(fileURLWithPath: key))) ?? Data()
        #expect(!String(decoding: written, as: UTF8.self).contains("PRIVATE KEY"))
        #expect(written.isEmpty)
    }

    @Test func aPipeTakesTheKeyAndTheRequestIsWritten() async throws {
        let directory = TemporaryDirectory("teller-identity-csr")
        let conf = try configuration(directory)
        let csr = directory.file("client.csr")
        let result = try await ChildProcess.run(Self.teller, ["identity", "csr", "--csr-out", csr, "--config", conf])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let request = try String(contentsOfFile: csr, encoding: .utf8)
        #expect(request.hasPrefix("-----BEGIN CERTIFICATE REQUEST-----"))
    }
}
