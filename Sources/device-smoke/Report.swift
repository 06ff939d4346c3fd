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
struct HarnessLink {
    let fd: Int32

    init?(path: String) {
        let fd = open(path, O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return nil }
        self.fd = fd
    }

    func screendump(_ label: String) -> Bool {
        let request = Array("SCREENDUMP \(label)\n".utf8)
        guard write(fd, request, request.count) == request.count else { return false }
        var reply: [UInt8] = []
        var byte: UInt8 = 0
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while reply.last != UInt8(ascii: "\n") {
            guard poll(&pfd, 1, 30_000) > 0, read(fd, &byte, 1) == 1 else { return false }
            reply.append(byte)
        }
        return String(decoding: reply, as: UTF8.self).hasPrefix("OK")
    }
}
