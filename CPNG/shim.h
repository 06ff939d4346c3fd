#ifndef TELLER_CPNG_SHIM_H
#define TELLER_CPNG_SHIM_H

#include <png.h>

/// PNG_IMAGE_VERSION is a plain macro, but wrapping it keeps the simplified-API version in one place.
static inline png_uint_32 cpng_image_version(void) { return PNG_IMAGE_VERSION; }

/// PNG_FORMAT_RGB is built from flag macros that Swift imports only as untyped integers.
static inline png_uint_32 cpng_format_rgb(void) { return PNG_FORMAT_RGB; }

/// PNG_FORMAT_BGRA matches the little-endian byte order of a 0xAARRGGBB word.
static inline png_uint_32 cpng_format_bgra(void) { return PNG_FORMAT_BGRA; }

/// PNG_IMAGE_FAILED is a function-like macro over the image's warning_or_error bits.
static inline int cpng_image_failed(png_image *image) { return PNG_IMAGE_FAILED(*image) ? 1 : 0; }

#endif
