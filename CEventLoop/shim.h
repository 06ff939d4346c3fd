#ifndef TELLER_CEVENTLOOP_SHIM_H
#define TELLER_CEVENTLOOP_SHIM_H

// What Device's main loop needs from C: epoll without its packed struct
// (Swift's import of struct epoll_event on x86-64 is not to be trusted), and
// the two functions through which a thread that keeps the main dispatch
// queue serves it itself, as CoreFoundation's run loop does on Linux.
// libdispatch exports them; its public headers do not declare them.
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

extern int _dispatch_get_main_queue_handle_4CF(void);
extern void _dispatch_main_queue_callback_4CF(void *message);

/// The main queue's wakeup descriptor (an eventfd): readable when work waits.
static inline int teller_main_queue_descriptor(void) {
    return _dispatch_get_main_queue_handle_4CF();
}

/// Runs the work waiting on the main queue, on the calling (main) thread.
static inline void teller_main_queue_drain(void) {
    _dispatch_main_queue_callback_4CF((void *)0);
}

/// Whether the caller is the process's main thread (its thread id is the process id).
static inline int teller_is_main_thread(void) {
    return syscall(SYS_gettid) == getpid();
}

/// Adds `fd` to `epoll` for reading, level-triggered, tagged with `tag`; -1 and errno on failure.
static inline int teller_epoll_add_readable(int epoll, int fd, uint64_t tag) {
    struct epoll_event event = { .events = EPOLLIN, .data = { .u64 = tag } };
    return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
}

/// Removes `fd` from `epoll`; -1 and errno on failure.
static inline int teller_epoll_remove(int epoll, int fd) {
    struct epoll_event unused = { 0 };
    return epoll_ctl(epoll, EPOLL_CTL_DEL, fd, &unused);
}

/// Waits up to `timeout_ms` (0: not at all) and stores the tags of up to
/// `capacity` ready descriptors in `tags`; their count, or -1 and errno.
static inline int teller_epoll_ready_tags(int epoll, uint64_t *tags, int capacity, int timeout_ms) {
    struct epoll_event events[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(epoll, events, capacity, timeout_ms);
    for (int i = 0; i < count; i++) tags[i] = events[i].data.u64;
    return count;
}

#endif
