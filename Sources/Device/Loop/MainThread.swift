import CEventLoop
import Dispatch
import Glibc
import SystemCalls

/// The process's main thread serving the main queue itself.
///
/// Under `dispatchMain()`, and Swift's async main, which calls it, the main
/// thread parks and Dispatch's pool drains the main queue: every @MainActor
/// job, input event and frame then runs on whichever pool thread Dispatch
/// wakes, after Dispatch's event thread has seen the descriptor. Two
/// threads of ordinary priority stand between an input and its frame, and
/// neither can be given a higher one, for both go on to run other work.
///
/// Here the main thread keeps the main queue (it stays bound to the thread,
/// as CoreFoundation's run loop keeps it) and waits in one poll(2) for the
/// main queue's wakeup descriptor and for the loops' descriptors
/// (``WatchSet``), so an input is read, handled and drawn on this one
/// thread, which the terminal puts under real-time scheduling
/// (`frame_priority`). Call ``run(_:)`` or ``serveForever()`` from the
/// main thread's synchronous top-level code, before anything has called
/// `dispatchMain()`, and never from within the main queue's own work.
@MainActor
public enum MainThread {
    /// True while this thread serves the main queue: a ``WatchSet`` is then
    /// polled here, not through a Dispatch source.
    public private(set) static var isServing = false
    private static var watchSets: [WeakWatchSet] = []

    /// Runs `body` on the main actor and serves the main queue on this
    /// thread until it returns; returns what it returned.
    public static func run<Value: Sendable>(_ body: @escaping @MainActor () async -> Value) -> Value {
        let outcome = Outcome<Value>()
        Task { @MainActor in outcome.value = await body() }
        serve(until: { outcome.value != nil })
        return outcome.value!
    }

    private final class Outcome<Value> { var value: Value? }

    /// Serves the main queue and the loops' descriptors on this thread until the process exits.
    public static func serveForever() -> Never {
        serve(until: { false })
        preconditionFailure("serve(until: false) returned")
    }

    private static func serve(until done: () -> Bool) {
        precondition(teller_is_main_thread() != 0, "MainThread serves only from the process's main thread")
        blockAsynchronousSignals()
        isServing = true
        for set in liveWatchSets() { set.pollElsewhere() }
        let mainQueue = teller_main_queue_descriptor()
        teller_main_queue_drain()
        while !done() {
            let sets = liveWatchSets()
            var waiting = [pollfd(fd: mainQueue, events: Int16(POLLIN), revents: 0)]
                + sets.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            do throws(SystemCallError) {
                try Syscall.poll(&waiting)
            } catch {
                preconditionFailure("main thread: \(error)")  // only a bad argument fails poll(2)
            }
            if waiting[0].revents != 0 {
                resetWakeup(mainQueue)
                teller_main_queue_drain()
            }
            for (index, set) in sets.enumerated() where waiting[index + 1].revents != 0 {
                set.handleReady()
            }
        }
        isServing = false
        for set in liveWatchSets() { set.pollThroughDispatch() }
    }

    /// Reads libdispatch's wakeup eventfd (which libdispatch owns: it is
    /// lent here, never closed), so it stops polling readable before the
    /// main queue is drained. EAGAIN is fine: another look emptied it; any
    /// other failure would leave poll(2) waking at once forever.
    private static func resetWakeup(_ wakeup: Int32) {
        var count: UInt64 = 0
        let read = FileDescriptor.withBorrowed(wakeup) { eventfd in
            withUnsafeMutableBytes(of: &count) { buffer in
                Result { () throws(SystemCallError) in try eventfd.readAvailable(into: buffer) }
            }
        }
        switch read {
        case .success(.processed(MemoryLayout<UInt64>.size)), .success(.wouldBlock): break
        case .success(.processed(let short)): preconditionFailure("main thread: the wakeup eventfd gave \(short) bytes")
        case .failure(let error): preconditionFailure("main thread: reading the wakeup eventfd: \(error)")
        }
    }

    /// Blocks the signals that arrive asynchronously, as `dispatchMain()`
    /// does, so that SIGTERM, ignored as a disposition, still reaches the
    /// loop's Dispatch signal source instead of being discarded. The
    /// threads started from here on inherit the mask.
    private static func blockAsynchronousSignals() {
        var mask = sigset_t()
        sigfillset(&mask)
        for synchronous in [SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGBUS, SIGSEGV, SIGSYS, SIGPIPE, SIGPROF] {
            sigdelset(&mask, synchronous)
        }
        Syscall.blockSignals(mask)
    }

    static func adopt(_ set: WatchSet) {
        watchSets.removeAll { $0.set == nil }
        watchSets.append(WeakWatchSet(set: set))
        if isServing { set.pollElsewhere() } else { set.pollThroughDispatch() }
    }

    private static func liveWatchSets() -> [WatchSet] {
        watchSets.compactMap(\.set)
    }

    private struct WeakWatchSet {
        weak var set: WatchSet?
    }
}

/// Descriptors an ``EventLoop`` watches for reading, in one epoll set. The
/// set's own descriptor is polled by ``MainThread`` when the main thread
/// serves the main queue, and otherwise by one Dispatch read source on the
/// main queue (tests, and any process under `dispatchMain()`); either way
/// each handler runs on the main actor.
@MainActor
final class WatchSet {
    private struct Watch {
        let descriptor: Int32
        let handler: @MainActor () -> Void
        let owner: AnyObject?
    }

    private let epoll: FileDescriptor
    /// The epoll set's descriptor, lent to ``MainThread``'s poll.
    var descriptor: Int32 { epoll.rawValue }
    private var watches: [UInt64: Watch] = [:]
    private var nextTag: UInt64 = 1
    /// Watches a duplicate of ``descriptor``, which its cancel handler closes,
    /// so the set's own can be closed at once. Touched on the main actor, and in deinit.
    nonisolated(unsafe) private var dispatchSource: (any DispatchSourceRead)?

    init() {
        do throws(SystemCallError) {
            epoll = FileDescriptor(adopting: try Syscall.retrying("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) })
        } catch {
            preconditionFailure("main loop: \(error)")  // only the process's descriptor limit fails it
        }
        MainThread.adopt(self)
    }

    deinit {
        dispatchSource?.cancel()
    }

    /// Calls `handler` whenever `fd` is readable, until the returned watch is cancelled.
    /// - Parameter owner: kept alive until then, so the descriptor outlives its watch.
    ///
    /// A descriptor epoll refuses (EPERM: a regular file or `/dev/null`,
    /// which are always readable) is watched by a Dispatch read source of
    /// its own instead, on the main queue, as every descriptor was before.
    func watch(_ fd: Int32, keepingAlive owner: AnyObject?, _ handler: @escaping @MainActor () -> Void) -> any LoopCancellable {
        let tag = nextTag
        nextTag += 1
        guard teller_epoll_add_readable(descriptor, fd, tag) == 0 else {
            return Self.dispatchWatch(fd, keepingAlive: owner, handler)
        }
        watches[tag] = Watch(descriptor: fd, handler: handler, owner: owner)
        return Handle(set: self, tag: tag)
    }

    private static func dispatchWatch(_ fd: Int32, keepingAlive owner: AnyObject?,
                                      _ handler: @escaping @MainActor () -> Void) -> any LoopCancellable {
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .main)
        source.setEventHandler { MainActor.assumeIsolated { handler() } }
        let kept = KeptUntilCancelled(owner)
        source.setCancelHandler { kept.release() }
        source.resume()
        return DispatchHandle(source)
    }

    /// The duplicate of the epoll set a Dispatch source watches: a class,
    /// because the source's cancel handler (a closure, which cannot hold a
    /// ``FileDescriptor`` itself) must keep it open until Dispatch lets go.
    private final class WatchedDuplicate: @unchecked Sendable {
        // Touched only on the main queue: at creation and in the cancel handler.
        private var descriptor: FileDescriptor?
        let rawValue: Int32
        init(_ descriptor: consuming FileDescriptor) {
            rawValue = descriptor.rawValue
            self.descriptor = .some(descriptor)
        }
        /// Closes the duplicate once Dispatch has let go of it.
        func close() { descriptor = nil }
    }

    /// Holds a descriptor's owner until the Dispatch source watching it is cancelled.
    private final class KeptUntilCancelled: @unchecked Sendable {
        // Touched only on the main queue: at creation and in the cancel handler.
        private var owner: AnyObject?
        init(_ owner: AnyObject?) { self.owner = owner }
        func release() { owner = nil }
    }

    /// Runs the handler of each descriptor that is readable now.
    func handleReady() {
        var tags = [UInt64](repeating: 0, count: 64)
        let count = tags.withUnsafeMutableBufferPointer { teller_epoll_ready_tags(descriptor, $0.baseAddress, Int32($0.count), 0) }
        guard count > 0 else { return }
        // A handler may cancel a later watch of the same batch: each is looked up when its turn comes.
        for tag in tags.prefix(Int(count)) {
            watches[tag]?.handler()
        }
    }

    func pollElsewhere() {
        dispatchSource?.cancel()
        dispatchSource = nil
    }

    func pollThroughDispatch() {
        guard dispatchSource == nil else { return }
        let watched: WatchedDuplicate
        do throws(SystemCallError) {
            watched = WatchedDuplicate(try epoll.duplicate())
        } catch {
            preconditionFailure("main loop: dup of the epoll set failed: \(error)")  // only the descriptor limit fails it
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: watched.rawValue, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.handleReady() } }
        source.setCancelHandler { watched.close() }
        source.resume()
        dispatchSource = source
    }

    fileprivate func remove(_ tag: UInt64) {
        guard let watch = watches.removeValue(forKey: tag) else { return }
        _ = teller_epoll_remove(descriptor, watch.descriptor)
    }

    fileprivate func isWatching(_ tag: UInt64) -> Bool { watches[tag] != nil }

    /// One watch as the loop's token holds it; used on the main actor only.
    private final class Handle: LoopCancellable, @unchecked Sendable {
        weak var set: WatchSet?
        let tag: UInt64
        init(set: WatchSet, tag: UInt64) {
            self.set = set
            self.tag = tag
        }
        func cancel() { MainActor.assumeIsolated { set?.remove(tag) } }
        var isCancelled: Bool { MainActor.assumeIsolated { set?.isWatching(tag) != true } }
    }
}
