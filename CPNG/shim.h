#ifndef TELLER_CPNG_SHIM_H
#define TELLER_CPNG_SHIM_H

#include <png.h>

#endif
