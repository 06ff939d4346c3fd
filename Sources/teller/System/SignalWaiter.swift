import Dispatch
import Foundation

/// Suspends until SIGTERM or SIGINT (`teller drain`; `teller run` has the
/// EventLoop's). The signals are ignored as dispositions and read by
/// dispatch signal sources, so no handler runs on an arbitrary thread.
enum SignalWaiter {
    static func waitForTermination() async {
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Once()
            for number in [SIGTERM, SIGINT] {
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { if once.claim() { continuation.resume() } }
                source.resume()
                once.keep(source)
            }
        }
    }

    /// Resumes the continuation once and keeps the signal sources alive.
    final class Once: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false
        private var sources: [any DispatchSourceSignal] = []
        func claim() -> Bool { lock.withLock { defer { done = true }; return !done } }
        func keep(_ source: any DispatchSourceSignal) { lock.withLock { sources.append(source) } }
    }
}
