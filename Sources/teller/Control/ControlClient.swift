import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `teller ctl COMMAND…`: sends one command to a running terminal's
/// control socket and prints the answer.
enum ControlClient {
    static let defaultSocket = "/run/teller/control.sock"

    static func run(_ arguments: [String]) -> Int32 {
        var socketPath = ProcessInfo.processInfo.environment["TELLER_CONTROL_SOCKET"] ?? defaultSocket
        var words = arguments[...]
        if words.first == "--socket" {
            words.removeFirst()
            guard let path = words.popFirst() else {
                Log.error("teller ctl: --socket needs a path")
                return 2
            }
            socketPath = path
        }
        guard !words.isEmpty else {
            Log.error("usage: teller ctl [--socket PATH] \(ControlCommand.usage)")
            return 2
        }
        var command: ControlCommand
        do {
            command = try ControlCommand(line: words.joined(separator: " "))
        } catch {
            Log.error("teller ctl: \(error)")
            return 2
        }
        // A relative screenshot or evemu path means the caller's directory, not the terminal's.
        switch command {
        case .screenshot(let path) where !path.hasPrefix("/"):
            command = .screenshot(path: FileManager.default.currentDirectoryPath + "/" + path)
        case .play(let path) where !path.hasPrefix("/"):
            command = .play(path: FileManager.default.currentDirectoryPath + "/" + path)
        default: break
        }
        // One line on the wire: `line` escapes newlines in typed text.
        let line = command.line
        do {
            let answer = try send(line, to: socketPath)
            guard let object = try JSONSerialization.jsonObject(with: answer) as? [String: Any] else {
                Log.error("teller ctl: the terminal's answer is not JSON")
                return 1
            }
            if object["ok"] as? Bool == true {
                if let result = object["result"], !(result is NSNull) {
                    if let text = result as? String {
                        print(text)
                    } else {
                        let data = try JSONSerialization.data(withJSONObject: result, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
                        print(String(decoding: data, as: UTF8.self))
                    }
                }
                return 0
            }
            Log.error("teller ctl: \(object["error"] as? String ?? "failed")")
            return 1
        } catch {
            Log.error("teller ctl: \(error)")
            return 1
        }
    }

    /// One round trip on the control socket.
    static func send(_ line: String, to path: String, timeout: Int = 30) throws -> Data {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ControlError.system("socket", errno) }
        defer { close(fd) }
        let connected = try UnixSocketAddress(path: path).withSocketAddress { connect(fd, $0, $1) }
        guard connected == 0 else {
            let code = errno
            throw ControlError.failed("cannot reach the terminal at \(path): \(String(cString: strerror(code))) (is teller running? is TELLER_CONTROL_SOCKET right?)")
        }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let payload = Array((line + "\n").utf8)
        _ = payload.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            answer.append(contentsOf: buffer[..<count])
        }
        guard !answer.isEmpty else { throw ControlError.failed("the terminal closed the connection without an answer") }
        return answer
    }
}
