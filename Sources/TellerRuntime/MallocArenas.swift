import CMemory
import SystemCalls

/// glibc's malloc arenas for the terminal's process.
///
/// By default glibc gives threads that allocate at the same moment arenas
/// of their own (up to 8 per core), each with its own heap and free lists.
/// The terminal's threads (the main queue, libcurl's driver, the netlink
/// reader, the control socket's queue, Swift's pool) allocate little and
/// seldom at once, so each extra arena is mostly free pages kept resident:
/// one arena measured 0.3 to 0.6 MiB less RSS after a deposit
/// (docs/device.md, "Start-up and footprint"). Most small allocations come
/// from each thread's cache without the arena's lock.
public enum MallocArenas {
    /// Makes every thread allocate from the main arena. Call it first thing,
    /// before other threads allocate: an arena made earlier stays.
    ///
    /// mallopt(3) is the C library's, not a system call (it sets no errno
    /// and never blocks), and SystemCalls imports no C module to see
    /// <malloc.h>, so it is called here; a refusal only costs memory, and is logged.
    public static func limitToOne() {
        if mallopt(M_ARENA_MAX, 1) == 0 { Log.warning("malloc: M_ARENA_MAX 1 refused; threads keep arenas of their own") }
    }
}
