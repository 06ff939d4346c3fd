import FoundationEssentials

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
            command = .screenshot(path: Path.join(FileManager.default.currentDirectoryPath, path))
        case .play(let path) where !path.hasPrefix("/"):
            command = .play(path: Path.join(FileManager.default.currentDirectoryPath, path))
        default: break
        }
        // One line on the wire: `line` escapes newlines in typed text.
        let line = command.line
        do {
            switch try ControlAnswer.result(of: send(line, to: socketPath)) {
            case .null: break
            case .string(let text): print(text)
            case let result: print(String(decoding: try result.encoded(pretty: true), as: UTF8.self))
            }
            return 0
        } catch {
            Log.error("teller ctl: \(error)")
            return 1
        }
    }

    /// One round trip on the control socket: the answer, which the
    /// terminal writes once the command has run, within `timeout` seconds.
    static func send(_ line: String, to path: String, timeout: Int = 30) throws -> Data {
        let deadline = ContinuousClock.now + .seconds(timeout)
        let socket: UnixSocket
        do {
            socket = try UnixSocket.connect(to: path)
        } catch {
            throw ControlError.failed("cannot reach the terminal at \(path): \(error.reason) (is teller running? is TELLER_CONTROL_SOCKET right?)")
        }
        let answer: [UInt8]
        do {
            // A terminal that refuses this peer answers and hangs up without reading; its answer says why.
            do { try socket.writeAll(Array((line + "\n").utf8), until: deadline) } catch .system {}
            answer = try socket.readToEnd(until: deadline)
        } catch .timedOut {
            throw ControlError.failed("the terminal at \(path) did not answer within \(timeout) s")
        }
        guard !answer.isEmpty else { throw ControlError.failed("the terminal closed the connection without an answer") }
        return Data(answer)
    }
}
