#ifndef TELLER_CSODIUM_SHIM_H
#define TELLER_CSODIUM_SHIM_H

#include <sodium.h>

#endif
