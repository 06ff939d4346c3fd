import SystemCalls
import Glibc

/// PASS/FAIL lines on stdout (the serial console), and the overall verdict.
@MainActor
enum Report {
    static var failures = 0

    static func pass(_ name: String, _ detail: String = "") {
        print("PASS \(name)" + (detail.isEmpty ? "" : ": \(detail)"))
        fflush(nil)
    }

    static func fail(_ name: String, _ detail: String) {
        failures += 1
        print("FAIL \(name): \(detail)")
        fflush(nil)
    }

    static func check(_ name: String, _ condition: Bool, _ detail: @autoclosure () -> String) {
        if condition { pass(name, detail()) } else { fail(name, detail()) }
    }

    /// Runs a step; a thrown error is a failure of that step, not of the whole program.
    static func step(_ name: String, _ body: () throws -> Void) {
        do { try body() } catch { fail(name, "\(error)") }
    }
}

/// Asks the harness (on the other end of a serial port) to take a screendump, and waits for it.
/// A class: the one port is shared by the checks that ask for screendumps.
final class HarnessLink {
    let port: FileDescriptor

    init?(path: String) {
        do { port = try FileDescriptor.open(path, O_RDWR | O_NOCTTY) } catch { return nil }
    }

    func screendump(_ label: String) -> Bool {
        do {
            try port.writeAll(Array("SCREENDUMP \(label)\n".utf8))
            var reply: [UInt8] = []
            while reply.last != UInt8(ascii: "\n") {
                guard try port.wait(for: Int32(POLLIN), milliseconds: 30_000) != 0 else { return false }
                let byte = try port.read(upTo: 1)
                guard !byte.isEmpty else { return false }
                reply += byte
            }
            return String(decoding: reply, as: UTF8.self).hasPrefix("OK")
        } catch {
            return false
        }
    }
}
