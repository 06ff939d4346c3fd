#if canImport(Glibc)
import Glibc
#endif

/// A POSIX thread of its own, for a loop that blocks in the kernel
/// (`curl_multi_poll`, `poll` on a netlink socket or a printer's line, a
/// child's pipe) or spins, and so must not hold one of the cooperative
/// pool's few threads, nor one of Dispatch's, which are as few as the cores.
public struct KernelThread: Sendable {
    private let thread: pthread_t

    /// Runs `body` on a new thread, which ends when `body` returns; ``join()`` waits for that.
    public static func start(_ body: @escaping @Sendable () -> Void) -> KernelThread {
        final class Body {
            let run: @Sendable () -> Void
            init(_ run: @escaping @Sendable () -> Void) { self.run = run }
        }
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        precondition(status == 0, "pthread_create: \(String(cString: strerror(status)))")
        return KernelThread(thread: thread)
    }

    /// Runs `body` on a new thread that nobody waits for.
    public static func detach(_ body: @escaping @Sendable () -> Void) {
        pthread_detach(start(body).thread)
    }

    /// Waits until the thread's body has returned. Once, and not for a detached thread.
    public func join() {
        pthread_join(thread, nil)
    }
}

extension KernelThread {
    /// Runs the calling thread under the kernel's round-robin real-time
    /// policy at `priority` (1 is the lowest), so that it gets a core as
    /// soon as it wakes, ahead of every ordinary thread. Threads it creates
    /// afterwards start under the ordinary policy (`SCHED_RESET_ON_FORK`).
    /// Needs `CAP_SYS_NICE` or a `RLIMIT_RTPRIO` of at least `priority`.
    public static func runCurrentInRealTime(priority: Int32) throws(SystemCallError) {
        let resetOnFork: Int32 = 0x4000_0000  // SCHED_RESET_ON_FORK, linux/sched.h (glibc hides it behind _GNU_SOURCE)
        var parameters = sched_param(sched_priority: priority)
        _ = try Syscall.retrying("sched_setscheduler SCHED_RR \(priority)") {
            sched_setscheduler(0, SCHED_RR | resetOnFork, &parameters)
        }
    }

    /// Runs the calling thread under `SCHED_IDLE`, the kernel's lowest
    /// class: it gets a core only when no ordinary thread wants one (a
    /// whole-database check beside the terminal). Needs no privilege.
    public static func runCurrentWhenIdle() throws(SystemCallError) {
        var parameters = sched_param(sched_priority: 0)
        _ = try Syscall.retrying("sched_setscheduler SCHED_IDLE") {
            sched_setscheduler(0, 5, &parameters)  // SCHED_IDLE, linux/sched.h (glibc hides it behind _GNU_SOURCE)
        }
    }
}

extension KernelThread {
    /// What the kernel counted for the calling thread since it started
    /// (`getrusage(RUSAGE_THREAD)`): how often its core was taken from it,
    /// and its page faults.
    public struct Usage: Sendable, Equatable {
        /// Switches away because another thread was given its core.
        public var involuntarySwitches: Int
        /// Faults served without reading the disk.
        public var minorFaults: Int
        /// Faults that read a page from the disk.
        public var majorFaults: Int

        /// What happened between `earlier` and this reading.
        public func since(_ earlier: Usage) -> Usage {
            Usage(involuntarySwitches: involuntarySwitches - earlier.involuntarySwitches,
                  minorFaults: minorFaults - earlier.minorFaults, majorFaults: majorFaults - earlier.majorFaults)
        }
    }

    /// The calling thread's ``Usage``.
    public static func currentUsage() throws(SystemCallError) -> Usage {
        var usage = rusage()
        let thread = __rusage_who_t(1)  // RUSAGE_THREAD, sys/resource.h (glibc hides it behind _GNU_SOURCE)
        _ = try Syscall.retrying("getrusage RUSAGE_THREAD") { getrusage(thread, &usage) }
        return Usage(involuntarySwitches: usage.ru_nivcsw, minorFaults: usage.ru_minflt, majorFaults: usage.ru_majflt)
    }
}
