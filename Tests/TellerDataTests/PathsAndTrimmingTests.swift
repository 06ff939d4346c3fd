@testable import ProcessHarness
import Foundation
import Testing
import TellerCore
@testable import TellerData
@testable import HostTransport

/// TellerData spells paths and trims text by hand (full Foundation's
/// NSString and CharacterSet would bring ICU into the binary); each must
/// say what Foundation said for the strings TellerData meets.
@Suite struct PathsAndTrimmingTests {
    @Test func pathsAreJoinedAsNSStringJoinsThem() {
        for directory in ["", "/", "/var/lib/teller", "/var/lib/teller/", "data", "./data", "a//b//"] {
            for name in ["teller.db", "refresh-token", ""] {
                #expect(directory.appendingPathComponent(name) == (directory as NSString).appendingPathComponent(name), "\(directory) + \(name)")
            }
        }
    }

    @Test func aFilesDirectoryIsNSStringsButNeverEmpty() {
        for path in ["/var/lib/teller/teller.db", "/var/lib/teller/", "/teller.db", "/", "data/teller.db", "./teller.db",
                     "dir//teller.db", "/a//b//", "../teller.db", "~/x"] {
            #expect(path.parentDirectory == (path as NSString).deletingLastPathComponent, "\(path)")
        }
        // Where NSString says "", which no system call takes, the directory is the current one.
        #expect("teller.db".parentDirectory == ".")
        #expect("".parentDirectory == ".")
    }

    @Test func whitespaceIsTrimmedAsFoundationTrimsIt() {
        for text in ["secret\n", "secret\r\n", " \t secret \t\r\n", "se cret", "", " \n ", "application/json ", "120"] {
            #expect(text.trimmingASCIIWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
            #expect(text.trimmingWhitespace() == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
        }
        // What a person typed may end in a no-break or em space; a header or a secret file's line only in ASCII's.
        let typed = "\u{00A0}T-0001\u{2003}\n"
        #expect(typed.trimmingWhitespace() == "T-0001" && typed.trimmingWhitespace() == typed.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(typed.trimmingASCIIWhitespace() == "\u{00A0}T-0001\u{2003}")
        #expect("[::1]".trimmingBytes { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") } == "::1")
        #expect(HostConfiguration.isLoopback("[::1]") && HostConfiguration.isLoopback("LOCALHOST") && !HostConfiguration.isLoopback("[::2]"))
    }

    @Test func aSecretFileReadableByOthersIsRefused() throws {
        let directory = TemporaryDirectory()
        let file = directory.file("secret")
        try Data("s3cret\r\n".utf8).write(to: URL(fileURLWithPath: file))
        chmod(file, 0o600)
        #expect(try TerminalCredentials.load(terminalID: "T-1", secretFile: file, environment: [:]).secret == "s3cret")
        chmod(file, 0o644)
        #expect(throws: CredentialsError.tooOpen(file, 0o644)) {
            try TerminalCredentials.load(terminalID: "T-1", secretFile: file, environment: [:])
        }
        // The mode is the path's own: a symbolic link reads as 0777, as it always did.
        chmod(file, 0o600)
        let link = directory.file("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        #expect(throws: CredentialsError.tooOpen(link, 0o777)) {
            try TerminalCredentials.load(terminalID: "T-1", secretFile: link, environment: [:])
        }
    }
}
