#ifndef TELLER_CFREETYPE_SHIM_H
#define TELLER_CFREETYPE_SHIM_H

#include <ft2build.h>
#include FT_FREETYPE_H

/// FT_LOAD_TARGET_LIGHT is built by the function-like FT_LOAD_TARGET_() macro, which Swift cannot import.
static inline FT_Int32 cft_load_render_light(void) { return FT_LOAD_RENDER | FT_LOAD_TARGET_LIGHT; }

/// FT_HAS_KERNING is a function-like macro over the face flags, which Swift cannot import.
static inline int cft_has_kerning(FT_Face face) { return FT_HAS_KERNING(face) ? 1 : 0; }

#endif
