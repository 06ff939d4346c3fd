#ifndef TELLER_CHARFBUZZ_SHIM_H
#define TELLER_CHARFBUZZ_SHIM_H

#include <hb.h>
#include <hb-ft.h>

/// FT_LOAD_TARGET_LIGHT is built by the function-like FT_LOAD_TARGET_() macro, which Swift cannot import;
/// HarfBuzz must read advances with the light hinting the glyph masks are rasterised with.
static inline int charfbuzz_ft_load_light(void) { return FT_LOAD_DEFAULT | FT_LOAD_TARGET_LIGHT; }

#endif
