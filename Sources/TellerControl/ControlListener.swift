import SystemCalls
import Dispatch
import FoundationEssentials

/// The accepting side of the control socket, on a serial queue of its own:
/// takes every waiting peer and gives each a ``ControlConnection``.
///
/// Everything but ``stop()`` runs on `queue`; that confinement is what
/// `@unchecked Sendable` stands for.
final class ControlListener: @unchecked Sendable {
    private let queue = DispatchQueue(label: "teller.control")
    private let socket: UnixSocket
    private let source: any DispatchSourceRead
    private let run: @Sendable (ControlCommand) async -> Data

    /// - Parameter run: executes a parsed command (on the main actor) and returns the JSON answer.
    init(socket: UnixSocket, run: @escaping @Sendable (ControlCommand) async -> Data) {
        self.socket = socket
        self.run = run
        source = DispatchSource.makeReadSource(fileDescriptor: socket.descriptor, queue: queue)
        source.setEventHandler { [self] in acceptWaiting() }
        // The descriptor closes only once dispatch has stopped watching it.
        source.setCancelHandler { [self] in self.socket.close() }
        source.resume()
    }

    /// Stops accepting; peers already accepted are still answered.
    func stop() {
        source.cancel()
    }

    private func acceptWaiting() {
        while true {
            let peer: UnixSocket?
            do {
                peer = try socket.accept()
            } catch {
                // Out of descriptors, most likely: the peer stays queued, and
                // accepting again at once would spin until one frees up.
                Log.warning("control: \(error)")
                source.suspend()
                queue.asyncAfter(deadline: .now() + .milliseconds(250)) { [self] in source.resume() }
                return
            }
            guard let peer else { return }
            ControlConnection(peer: peer, queue: queue, run: run).start()
        }
    }
}
