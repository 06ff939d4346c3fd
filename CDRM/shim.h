#ifndef TELLER_CDRM_SHIM_H
#define TELLER_CDRM_SHIM_H

#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <linux/fb.h>
// The virtual terminal the display draws over (VirtualTerminal): KDSETMODE,
// KDSKBMODE, VT_ACTIVATE and their values are plain integers; TTY_MAJOR names its nodes.
#include <linux/kd.h>
#include <linux/vt.h>
#include <linux/major.h>
#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

/// DRM_IOCTL_MODE_CREATE_DUMB is a function-like ioctl macro that Swift cannot import.
static inline unsigned long cdrm_ioctl_mode_create_dumb(void) { return DRM_IOCTL_MODE_CREATE_DUMB; }

/// DRM_IOCTL_MODE_MAP_DUMB is a function-like ioctl macro that Swift cannot import.
static inline unsigned long cdrm_ioctl_mode_map_dumb(void) { return DRM_IOCTL_MODE_MAP_DUMB; }

/// DRM_IOCTL_MODE_DESTROY_DUMB is a function-like ioctl macro that Swift cannot import.
static inline unsigned long cdrm_ioctl_mode_destroy_dumb(void) { return DRM_IOCTL_MODE_DESTROY_DUMB; }

/// DRM_FORMAT_XRGB8888 is built by the fourcc_code() macro, which Swift cannot import.
static inline uint32_t cdrm_format_xrgb8888(void) { return DRM_FORMAT_XRGB8888; }


/// ioctl(2) is variadic, which Swift cannot call; every ioctl of Device passes one pointer.
static inline int cdrm_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }

#endif
