/* A test-only loader for Mach-O relocatable objects (MH_OBJECT, x86-64 and
 * arm64) on Linux: it maps their sections, binds undefined symbols first to
 * the other loaded objects and then to the host process (dlsym, without the
 * leading '_'), applies the relocations and gives the address of each
 * defined symbol.  It proves b3c's Mach-O objects run: x86-64 natively,
 * arm64 under qemu-aarch64 (docs/testing.md, "Apple targets"). */
#ifndef B3_MACHO_RUN_H
#define B3_MACHO_RUN_H

/* Loads the n objects at paths as one unit.  0 on success; otherwise -1 with
 * a message in err. */
int b3_macho_load(const char *const *paths, int n, char *err, unsigned errlen);

/* The loaded address of the external symbol name (C spelling, no '_'), or
 * NULL. */
void *b3_macho_sym(const char *name);

/* Points the host executable's GOT entries of every symbol the loaded objects
 * define at the loaded definitions (the executable is built -fPIC against a
 * stub library that defines those names).  Returns how many it bound. */
int b3_macho_bind_host(void);

#endif
