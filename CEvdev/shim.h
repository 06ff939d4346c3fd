#ifndef TELLER_CEVDEV_SHIM_H
#define TELLER_CEVDEV_SHIM_H

#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/inotify.h>
#include <linux/input.h>
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>

/// EVIOCGRAB is a function-like ioctl macro that Swift cannot import.
static inline unsigned long cevdev_ioctl_grab(void) { return EVIOCGRAB; }

/// EVIOCSCLOCKID is a function-like ioctl macro that Swift cannot import.
static inline unsigned long cevdev_ioctl_set_clock_id(void) { return EVIOCSCLOCKID; }

/// input_event_sec is a macro naming a field that differs between 32- and 64-bit time ABIs.
static inline int64_t cevdev_event_sec(const struct input_event *ev) { return ev->input_event_sec; }

/// input_event_usec is a macro naming a field that differs between 32- and 64-bit time ABIs.
static inline int64_t cevdev_event_usec(const struct input_event *ev) { return ev->input_event_usec; }

/// Builds an input_event without naming the ABI-dependent time fields from Swift.
static inline struct input_event cevdev_event_make(int64_t sec, int64_t usec, uint16_t type, uint16_t code, int32_t value) {
    struct input_event ev = {0};
    ev.input_event_sec = sec;
    ev.input_event_usec = usec;
    ev.type = type;
    ev.code = code;
    ev.value = value;
    return ev;
}

#endif
