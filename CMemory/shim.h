#ifndef TELLER_CMEMORY_SHIM_H
#define TELLER_CMEMORY_SHIM_H

// The process's own memory, which Swift's Glibc module does not include:
// the dynamic loader's list of loaded objects and their ELF program headers
// (dl_iterate_phdr, dl_phdr_info, PT_LOAD, PF_W), the vDSO's address
// (getauxval) and malloc's tuning (mallopt, M_ARENA_MAX).
// glibc declares dl_iterate_phdr only for _GNU_SOURCE.
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include <link.h>
#include <elf.h>
#include <malloc.h>
#include <sys/auxv.h>

#endif
