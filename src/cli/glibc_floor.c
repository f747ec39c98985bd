/* Keeps the release binary at the glibc floor of tests/release/check_binary.py (2.34: RHEL 9;
 * Ubuntu 22.04 has 2.35) although it is built on Debian 12 (2.36). Linked into the ncdx executable
 * only when NCDX_STATIC=ON (cmake/release.cmake), so that the static libstdc++ and libgcc_eh
 * bind to these two definitions instead of importing the newer glibc symbols:
 *  - arc4random (GLIBC_2.36), used by libstdc++'s std::random_device: the same bytes from
 *    getrandom(2) (GLIBC_2.25), the kernel's CSPRNG that glibc's arc4random also reads;
 *  - _dl_find_object (GLIBC_2.35), used by GCC 12's unwinder to find the .eh_frame_hdr of the
 *    object that holds a PC: the same answer from dl_iterate_phdr(3), the unwinder's own
 *    pre-2.35 lookup (libgcc/unwind-dw2-fde-dip.c). Exceptions unwind through it, so every
 *    `ncdx --version` (CLI11 throws to print it) in the smoke test exercises it.
 * The struct layout is glibc's own (<dlfcn.h>), on x86_64 without eh_dbase/eh_count. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <sys/random.h>

uint32_t arc4random(void) {
  uint32_t v = 0;
  for (;;) {
    ssize_t n = getrandom(&v, sizeof v, 0);
    if (n == (ssize_t)sizeof v) return v;
    if (n < 0 && errno != EINTR) return v ^ (uint32_t)(uintptr_t)&v; /* kernel without getrandom: never on the floor */
  }
}

struct lookup {
  uintptr_t pc;
  struct dl_find_object* out;
  int found;
};

static int find_in_object(struct dl_phdr_info* info, size_t size, void* data) {
  (void)size;
  struct lookup* l = (struct lookup*)data;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  const ElfW(Phdr)* eh = NULL;
  int contains = 0;
  for (ElfW(Half) i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)* ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD) {
      uintptr_t start = info->dlpi_addr + ph->p_vaddr, end = start + ph->p_memsz;
      if (start < lo) lo = start;
      if (end > hi) hi = end;
      if (l->pc >= start && l->pc < end) contains = 1;
    } else if (ph->p_type == PT_GNU_EH_FRAME) {
      eh = ph;
    }
  }
  if (!contains) return 0;
  memset(l->out, 0, sizeof *l->out);
  l->out->dlfo_map_start = (void*)lo;
  l->out->dlfo_map_end = (void*)hi;
  l->out->dlfo_eh_frame = eh ? (void*)(info->dlpi_addr + eh->p_vaddr) : NULL;
  l->found = 1;
  return 1;
}

int _dl_find_object(void* pc, struct dl_find_object* result) {
  struct lookup l = {(uintptr_t)pc, result, 0};
  dl_iterate_phdr(find_in_object, &l);
  return l.found ? 0 : -1;
}
