import Synchronization

/// The commit made while a row's request is on the wire, begun once:
/// when the request is in the transport's hands, or when the attempt
/// ended before it got there (a token refused, a cancellation).
final class SendingCommit: Sendable {
    private let task = Mutex<Task<SyncEngine.WhileSending, Never>?>(nil)
    private let handed = Mutex(false)
    private let begin: @Sendable () -> Task<SyncEngine.WhileSending, Never>

    init(_ begin: @escaping @Sendable () -> Task<SyncEngine.WhileSending, Never>) { self.begin = begin }

    /// The request is in the transport's hands: it may reach the bank.
    func handedOver() {
        handed.withLock { $0 = true }
        _ = started()
    }

    /// Whether the request was ever handed to the transport.
    var wasHandedOver: Bool { handed.withLock { $0 } }

    private let leaving = Mutex(Leaving())
    private struct Leaving { var left = false; var announced = false }

    /// The connection and its handshake are up and the request leaves.
    /// - Returns: true the first time (a 401 sends it again).
    func left() -> Bool {
        leaving.withLock { state in
            defer { state.left = true }
            return !state.left
        }
    }

    /// True once, for the first caller after the request left: that
    /// caller tells subscribers it is being sent.
    func announce() -> Bool {
        leaving.withLock { state in
            guard state.left, !state.announced else { return false }
            state.announced = true
            return true
        }
    }

    /// Begins the commit if need be and waits for it.
    func finished() async -> SyncEngine.WhileSending { await started().value }

    private func started() -> Task<SyncEngine.WhileSending, Never> {
        task.withLock { task in
            if let task { return task }
            let begun = begin()
            task = begun
            return begun
        }
    }
}
