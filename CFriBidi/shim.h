#ifndef TELLER_CFRIBIDI_SHIM_H
#define TELLER_CFRIBIDI_SHIM_H

#include <fribidi.h>

/// FRIBIDI_PAR_LTR is built from the FRIBIDI_TYPE_LTR_VAL mask macros, which Swift cannot import.
static inline FriBidiParType cfribidi_par_ltr(void) { return FRIBIDI_PAR_LTR; }

/// FRIBIDI_PAR_RTL is built from the FRIBIDI_TYPE_RTL_VAL mask macros, which Swift cannot import.
static inline FriBidiParType cfribidi_par_rtl(void) { return FRIBIDI_PAR_RTL; }

#endif
