@testable import ProcessTestSupport
import Foundation
import Testing
@testable import TellerData

/// TellerData spells paths by hand (full Foundation's NSString would bring
/// ICU into the binary); they must say what Foundation said for the paths
/// TellerData meets.
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
}
