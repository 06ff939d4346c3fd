import TellerConfiguration
import SystemCalls
import Device
import FoundationEssentials

/// `teller ctl COMMAND…`: sends one command to a running terminal's
/// control socket and prints the answer.
public enum ControlClient: Sendable {
    public static var defaultSocket: String { Configuration.defaultControlSocketPath }

    /// How long ctl waits for an answer unless `--timeout` says otherwise.
    public static let defaultTimeout = 30
    /// The longest `--timeout` taken: an hour.
    public static let longestTimeout = 3600

    public static func run(_ arguments: [String]) -> Int32 {
        var socketPath = ProcessInfo.processInfo.environment["TELLER_CONTROL_SOCKET"] ?? defaultSocket
        var timeout = defaultTimeout
        var words = arguments[...]
        // The options, in any order, before the command.
        while let option = words.first, option == "--socket" || option == "--timeout" {
            words.removeFirst()
            guard let value = words.popFirst() else {
                Log.error("teller ctl: \(option) needs \(option == "--socket" ? "a path" : "a number of seconds")")
                return 2
            }
            if option == "--socket" {
                socketPath = value
            } else {
                guard let seconds = Int(value), (1...longestTimeout).contains(seconds) else {
                    Log.error("teller ctl: --timeout '\(value)' is not a whole number of seconds from 1 to \(longestTimeout)")
                    return 2
                }
                timeout = seconds
            }
        }
        guard !words.isEmpty else {
            Log.error("usage: teller ctl [--socket PATH] [--timeout SECONDS] \(ControlCommand.usage)")
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
        do {
            switch command {
            // The file is the caller's: the PNG and the recording travel in the
            // protocol, so both work across the virtual device's channel too.
            case .screenshot(let path): return try screenshot(to: path, socketPath: socketPath, timeout: timeout)
            case .play(let path): command = .playRecording(text: try recording(at: path))
            default: break
            }
        } catch {
            Log.error("teller ctl: \(error)")
            return 1
        }
        // One line on the wire: `line` escapes newlines in typed text.
        let line = command.line
        do {
            switch try ControlAnswer.result(of: send(line, to: socketPath, timeout: timeout)) {
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

    /// Asks for the screen as PNG and writes it to `path` here; prints what
    /// the terminal answered, with the path in place of the image.
    private static func screenshot(to path: String, socketPath: String, timeout: Int) throws -> Int32 {
        let result = try ControlAnswer.result(of: send(ControlCommand.screenshotPNG.line, to: socketPath, timeout: timeout))
        guard case .object(var fields) = result, case .string(let encoded)? = fields["png"], let png = Data(base64Encoded: encoded) else {
            throw ControlError.failed("the terminal's screenshot answer has no PNG (is it an older teller?)")
        }
        do {
            try png.write(to: URL(fileURLWithPath: path))
        } catch {
            throw ControlError.failed("cannot write \(path): \(error)")
        }
        fields["png"] = nil
        fields["path"] = .string(path)
        print(String(decoding: try JSONValue.object(fields).encoded(pretty: true), as: UTF8.self))
        return 0
    }

    /// The recording at `path`, checked here so a refusal names the file and line.
    private static func recording(at path: String) throws -> String {
        if let size = FileStatus(path: path)?.size, size > ControlCommand.maximumPlayBytes {
            throw ControlError.failed("\(path) is \(size) bytes; ctl play takes recordings of at most \(ControlCommand.maximumPlayBytes >> 20) MiB")
        }
        _ = try EvemuRecording(contentsOf: path)
        let text: Data
        do {
            text = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ControlError.failed("cannot read \(path): \(error)")
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// One round trip on the control socket: the answer, which the
    /// terminal writes once the command has run, within `timeout` seconds.
    ///
    /// The request is tagged (``ControlAnswer/splitTag(_:)``) and only the
    /// answer with its tag is taken: the virtual device's socket (qemu's end
    /// of a virtio-serial port, ``ControlBridge``) is one stream that clients
    /// use one after another, where an answer left for a client that hung up
    /// may come first. The answer is one line; it ends at its line feed, not
    /// when the peer hangs up, because that socket never hangs up.
    public static func send(_ line: String, to path: String, timeout: Int = defaultTimeout) throws(ControlError) -> Data {
        let id = String(UInt64.random(in: 1...UInt64.max), radix: 36)
        let answer = try exchange("@\(id) \(line)", with: path, expecting: id, timeout: timeout)
        guard !answer.isEmpty else { throw .failed("the terminal closed the connection without an answer") }
        return answer
    }

    /// Writes `line` as it is and reads answer lines until one carries `id`
    /// (any answer, without an id); ``ControlBridge`` relays tagged lines this way.
    public static func exchange(_ line: String, with path: String, expecting id: String?, timeout: Int = defaultTimeout) throws(ControlError) -> Data {
        let deadline = ContinuousClock.now + .seconds(timeout)
        let socket: UnixSocket
        do {
            socket = try UnixSocket.connect(to: path)
        } catch {
            throw .failed("cannot reach the terminal at \(path): \(error.reason) (is teller running? is TELLER_CONTROL_SOCKET right?)")
        }
        do {
            return try answer(on: socket, to: line, expecting: id, until: deadline)
        } catch where error.errno == .timedOut {
            throw .failed("the terminal at \(path) did not answer within \(timeout) s")
        } catch {
            throw .failed("the terminal at \(path): \(error.reason)")
        }
    }

    /// The answer line with tag `id` (the first line without one), or the
    /// bytes the peer sent before closing; an empty answer when it sent none.
    ///
    /// A peer that closes after an untagged line and without ours answered
    /// this connection before it read our tag (the terminal refusing the
    /// peer, or a line that came too late): that line is the answer. On the
    /// virtual device's stream, which never closes, it is skipped as
    /// another client's.
    private static func answer(on socket: UnixSocket, to line: String, expecting id: String?,
                               until deadline: ContinuousClock.Instant) throws(SystemCallError) -> Data {
        // A terminal that refuses this peer answers and hangs up without reading; its answer says why.
        do { try socket.writeAll(Array((line + "\n").utf8), until: deadline) } catch where error.errno != .timedOut {}
        var buffer: [UInt8] = []
        var untagged: [UInt8]?
        while let answer = try socket.readLine(buffer: &buffer, until: deadline) {
            // Someone else's answer (a client that hung up before it came) is skipped.
            let tag = tag(of: answer)
            if id == nil || tag == id { return Data(answer) }
            if tag == nil { untagged = answer }
        }
        // The control socket's peer closes after its answer; what it sent without a line feed is still the answer.
        if id == nil || tag(of: buffer) == id { return Data(buffer) }
        return Data(untagged ?? [])
    }

    private static func tag(of answer: [UInt8]) -> String? {
        guard let object = try? JSONValue(parsing: Data(answer)), case .string(let id)? = object["id"] else { return nil }
        return id
    }
}
