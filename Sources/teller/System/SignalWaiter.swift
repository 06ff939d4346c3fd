import Dispatch
import Glibc
import Synchronization

/// Suspends until SIGTERM or SIGINT (`teller drain`; `teller run` has the
/// EventLoop's). The signals are ignored as dispositions and read by
/// dispatch signal sources, so no handler runs on an arbitrary thread.
enum SignalWaiter {
    static func waitForTermination() async {
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let sources = [SIGTERM, SIGINT].map { DispatchSource.makeSignalSource(signal: $0, queue: .global()) }
            let once = Once(keeping: sources)
            for source in sources {
                source.setEventHandler { if once.claim() { continuation.resume() } }
                source.resume()
            }
        }
    }

    /// Resumes the continuation once, and keeps the signal sources alive
    /// (their handlers keep it).
    final class Once: Sendable {
        private let done = Mutex(false)
        /// Only held, never touched again: a released source stops delivering.
        nonisolated(unsafe) private let sources: [any DispatchSourceSignal]

        init(keeping sources: [any DispatchSourceSignal]) {
            self.sources = sources
        }

        func claim() -> Bool { done.withLock { done in defer { done = true }; return !done } }
    }
}
