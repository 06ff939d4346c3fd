#ifndef TELLER_CMEMORY_SHIM_H
#define TELLER_CMEMORY_SHIM_H

// The process's own memory, which Swift's Glibc module does not include:
// the dynamic loader's list of loaded objects and their ELF program headers
// (dl_iterate_phdr, PT_LOAD, PF_W), the vDSO's address (getauxval) and
// malloc's tuning (mallopt, M_ARENA_MAX).
#include <stddef.h>
#include <link.h>
#include <elf.h>
#include <malloc.h>
#include <sys/auxv.h>

// <link.h> declares dl_iterate_phdr and its dl_phdr_info only under
// _GNU_SOURCE, which would also change how other system headers define
// their types (fd_set) from the other C modules' view of them. These are
// the leading fields of glibc's struct, which the callback's size covers.
struct cmemory_phdr_info {
    ElfW(Addr) dlpi_addr;
    const char *dlpi_name;
    const ElfW(Phdr) *dlpi_phdr;
    ElfW(Half) dlpi_phnum;
};
extern int dl_iterate_phdr(int (*callback)(struct cmemory_phdr_info *info, size_t size, void *data), void *data);

#endif
