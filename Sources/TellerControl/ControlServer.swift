import TellerConfiguration
import SystemCalls
import FoundationEssentials

/// What the running terminal does for each control command.
@MainActor
public protocol ControlHandler: AnyObject {
    func handle(_ command: ControlCommand) async throws -> JSONValue
}

/// The terminal's control socket: a unix stream socket in the runtime
/// directory, mode 0660, that refuses peers other than its owner, its group
/// and root. Serves one command per connection.
///
/// Peers are accepted, read and answered on the socket's own queue
/// (``ControlListener``, ``ControlConnection``), each against its own
/// deadline, so a peer that sends nothing or half a line holds up neither
/// the main queue nor another peer. Only a parsed command comes here, to the
/// main actor.
@MainActor
public final class ControlServer {
    public let path: String
    private weak var handler: (any ControlHandler)?
    private var listener: ControlListener?

    /// Creates the socket at `path`, replacing a stale one left by a crash.
    public init(path: String, handler: any ControlHandler) throws(SystemCallError) {
        self.path = path
        self.handler = handler
        let socket = try UnixSocket.listen(at: path, mode: 0o660, backlog: 8)
        listener = ControlListener(socket: socket) { [weak self] command in
            await self?.answer(command) ?? ControlAnswer.error("the terminal is shutting down")
        }
    }

    public func shutDown() {
        listener?.stop()
        listener = nil
        UnixSocket.removeFile(at: path)
    }

    /// Runs one command and encodes its answer here, where the result's
    /// values (screen trees, status) were made.
    private func answer(_ command: ControlCommand) async -> Data {
        do {
            guard let handler else { throw ControlError.failed("the terminal is shutting down") }
            return ControlAnswer.ok(try await handler.handle(command))
        } catch {
            return ControlAnswer.error("\(error)")
        }
    }
}
