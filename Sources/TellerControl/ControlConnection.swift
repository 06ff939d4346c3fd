import TellerConfiguration
import SystemCalls
import Dispatch
import FoundationEssentials

/// One peer of the control socket, from accept to close, on the control
/// queue: it has ``readDeadlineSeconds`` to send its command line, which is
/// parsed here; only a command goes on to the main actor, and its answer is
/// written back here within ``writeDeadlineSeconds``.
///
/// Reading and writing wait on dispatch sources, never in a system call, so
/// one slow peer holds up no other. Each connection keeps itself alive
/// through its sources and its command's task until ``finish()``.
///
/// Everything runs on `queue`; that confinement is what `@unchecked
/// Sendable` stands for.
final class ControlConnection: @unchecked Sendable {
    /// A command is one short line; a peer that has not sent one by then is
    /// answered with an error. Generous, for a silent peer holds up nothing:
    /// `teller ctl` on a loaded board can be descheduled for seconds
    /// between its connect and its line.
    static let readDeadlineSeconds = 10
    /// A peer that stops reading its answer is dropped.
    static let writeDeadlineSeconds = 10
    static let maximumLineBytes = ControlCommand.maximumLineBytes

    private enum Phase { case reading, running, writing, finished }

    private let peer: UnixSocket
    private let queue: DispatchQueue
    private let run: @Sendable (ControlCommand) async -> Data
    private var phase = Phase.reading
    private var received: [UInt8] = []
    private var unsent: ArraySlice<UInt8> = []
    private var reader: (any DispatchSourceRead)?
    private var writer: (any DispatchSourceWrite)?
    private var deadline: (any DispatchSourceTimer)?
    /// Sources not yet through their cancellation; the descriptor closes after the last.
    private var watching = 0

    init(peer: UnixSocket, queue: DispatchQueue, run: @escaping @Sendable (ControlCommand) async -> Data) {
        self.peer = peer
        self.queue = queue
        self.run = run
    }

    func start() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard peer.peerIsRootOrOwnUserOrGroup else {
            reply(ControlAnswer.error("permission denied: only the terminal's user and group may use the control socket"))
            return
        }
        arm(seconds: Self.readDeadlineSeconds, for: .reading) { [self] in
            // Half a line is not run: cut short, it could name another command.
            reply(ControlAnswer.error("no command line within \(Self.readDeadlineSeconds) s; a command is one line ending in a newline"))
        }
        let reader = DispatchSource.makeReadSource(fileDescriptor: peer.descriptor, queue: queue)
        watch(reader) { [self] in readAvailable() }
        self.reader = reader
    }

    private func readAvailable() {
        guard phase == .reading else { return }
        let open: Bool
        do {
            open = try peer.receiveAvailable(appendingTo: &received, limit: Self.maximumLineBytes - received.count)
        } catch {
            finish()  // reset by the peer: nobody to answer
            return
        }
        // A peer may also end its line by closing its side instead of with a newline.
        if let newline = received.firstIndex(of: 10) {
            execute(received[..<newline])
        } else if !open || received.count >= Self.maximumLineBytes {
            execute(received[...])
        }
    }

    private func execute(_ line: ArraySlice<UInt8>) {
        stopReading()
        let (id, text) = ControlAnswer.splitTag(String(decoding: line, as: UTF8.self))
        let command: ControlCommand
        do {
            command = try ControlCommand(line: text)
        } catch {
            reply(ControlAnswer.tagged(ControlAnswer.error("\(error)"), id: id))
            return
        }
        phase = .running
        let run = run
        Task {
            let answer = ControlAnswer.tagged(await run(command), id: id)
            self.queue.async { self.reply(answer) }
        }
    }

    private func reply(_ answer: Data) {
        stopReading()
        phase = .writing
        unsent = ArraySlice(answer + [10])
        arm(seconds: Self.writeDeadlineSeconds, for: .writing) { [self] in finish() }
        flush()
    }

    private func flush() {
        guard phase == .writing else { return }
        do {
            unsent = unsent.dropFirst(try peer.sendAvailable(unsent))
        } catch {
            finish()  // the peer hung up before its answer
            return
        }
        guard !unsent.isEmpty else { return finish() }
        guard writer == nil else { return }
        let writer = DispatchSource.makeWriteSource(fileDescriptor: peer.descriptor, queue: queue)
        watch(writer) { [self] in flush() }
        self.writer = writer
    }

    private func stopReading() {
        reader?.cancel()
        reader = nil
        deadline?.cancel()
        deadline = nil
    }

    /// Runs `expired` after `seconds` unless the connection has left `phase` by then.
    private func arm(seconds: Int, for phase: Phase, _ expired: @escaping @Sendable () -> Void) {
        deadline?.cancel()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .seconds(seconds))
        timer.setEventHandler { [self] in
            if self.phase == phase { expired() }
        }
        deadline = timer
        timer.resume()
    }

    private func finish() {
        guard phase != .finished else { return }
        phase = .finished
        for source in [reader, writer, deadline] as [(any DispatchSourceProtocol)?] { source?.cancel() }
        reader = nil
        writer = nil
        deadline = nil
        if watching == 0 { peer.close() }
    }

    /// Starts `source` on the descriptor, which must stay open until
    /// dispatch has stopped watching it: the last cancellation closes it.
    private func watch(_ source: any DispatchSourceProtocol, _ handler: @escaping @Sendable () -> Void) {
        watching += 1
        source.setEventHandler(handler: handler)
        source.setCancelHandler { [self] in
            watching -= 1
            if watching == 0, phase == .finished { peer.close() }
        }
        source.resume()
    }
}
