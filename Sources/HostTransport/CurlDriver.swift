import CCurl
import SystemCalls
import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One libcurl multi handle and the thread that runs it: the connection
/// cache (HTTP/1.1 keep-alive) for one host, shared by every request to it.
///
/// Requests are handed over through a locked inbox and the thread is woken
/// with `curl_multi_wakeup`, so a cancellation ends a transfer at once,
/// whatever the host is doing.
package final class CurlDriver: @unchecked Sendable {
    private struct Inbox {
        var added: [CurlTransfer] = []
        var stopping = false
    }

    /// Owned by the driver's thread after `init`; `curl_multi_wakeup` is the
    /// one call other threads make on it, which libcurl allows.
    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())

    /// libcurl's process-wide setup, done once before the first handle.
    private static let globalInit: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    package init() {
        precondition(Self.globalInit == CURLE_OK, "curl_global_init failed: \(Self.globalInit)")
        guard let multi = curl_multi_init() else { preconditionFailure("curl_multi_init failed: out of memory") }
        self.multi = multi
        KernelThread.detach { [self] in run() }
    }

    /// Ends the thread; transfers still running complete as cancelled.
    package func stop() {
        inbox.withLock { $0.stopping = true }
        curl_multi_wakeup(multi)
    }

    /// Runs one request; returns when the answer is complete, a limit was
    /// hit, or the calling task was cancelled. `progress` hears when it is
    /// handed over and when it leaves.
    package func perform(_ request: CurlTransfer.Request, limits: CurlTransfer.Limits,
                 progress: RequestProgress = RequestProgress()) async -> Result<CurlTransfer.Answer, CurlTransfer.Failure> {
        let transfer: CurlTransfer
        do { transfer = try CurlTransfer(request, limits: limits) } catch { return .failure(error) }
        transfer.leaving = progress.leaving
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                transfer.completion = { continuation.resume(returning: $0) }
                let accepted = inbox.withLock { inbox in
                    guard !inbox.stopping else { return false }
                    inbox.added.append(transfer)
                    return true
                }
                if accepted {
                    curl_multi_wakeup(multi)
                    progress.handedOver?()
                } else {
                    transfer.complete(.failure(.cancelled))
                }
            }
        } onCancel: {
            transfer.cancelRequested.store(true, ordering: .releasing)
            curl_multi_wakeup(multi)
        }
    }

    private func run() {
        var active: [UInt64: CurlTransfer] = [:]
        var byHandle: [UnsafeMutableRawPointer: UInt64] = [:]
        func end(_ id: UInt64, _ finish: (CurlTransfer) -> Void) {
            guard let transfer = active.removeValue(forKey: id) else { return }
            byHandle[transfer.easy] = nil
            curl_multi_remove_handle(multi, transfer.easy)
            finish(transfer)
        }
        while true {
            let (added, stopping) = inbox.withLock { inbox in
                defer { inbox.added = [] }
                return (inbox.added, inbox.stopping)
            }
            for transfer in added {
                active[transfer.id] = transfer
                byHandle[transfer.easy] = transfer.id
                curl_multi_add_handle(multi, transfer.easy)
            }
            for (id, transfer) in active where stopping || transfer.cancelRequested.load(ordering: .acquiring) {
                end(id) { $0.complete(.failure(.cancelled)) }
            }
            if stopping { break }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle, let id = byHandle[easy] else { continue }
                let code = ccurl_message_result(message)
                end(id) { $0.finish(code) }
            }
            curl_multi_poll(multi, nil, 0, active.isEmpty ? 60_000 : 1_000, nil)
        }
        curl_multi_cleanup(multi)
    }
}

/// What a caller hears of its request on the way out.
public struct RequestProgress: Sendable {
    /// Called once the request is queued for the transport's thread, before
    /// the caller suspends for the answer; not called when the request never
    /// got that far. From here it may reach the bank.
    public var handedOver: (@Sendable () -> Void)?
    /// Called on the transport's thread once the connection and its TLS
    /// handshake are up, as the request leaves; never when the connection
    /// or the handshake failed. From here it is being sent.
    public var leaving: (@Sendable () -> Void)?

    public init(handedOver: (@Sendable () -> Void)? = nil, leaving: (@Sendable () -> Void)? = nil) {
        self.handedOver = handedOver
        self.leaving = leaving
    }
}
