#if canImport(Glibc)
import Glibc
#endif

/// A detached POSIX thread, for a loop that blocks in the kernel
/// (`curl_multi_poll` in ``CurlDriver``, `poll` in ``LinkMonitor``) and so
/// must not hold one of the cooperative pool's few threads.
enum DetachedThread {
    /// Runs `body` on a new thread, which ends when `body` returns.
    static func start(_ body: @escaping @Sendable () -> Void) {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, box)
        precondition(status == 0, "pthread_create failed: \(status)")
        pthread_detach(thread)
    }
}
