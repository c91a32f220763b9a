/* The fuzz target's entry points (testsuite/fuzz/fuzz_frontend.c). */
#ifndef B3_FUZZ_H
#define B3_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Runs one input through the front end.  Returns false, with the reason in
 * why, when a property fails (a sanitizer report aborts instead). */
bool b3_fuzz_one(const uint8_t *data, size_t size, char *why, size_t whylen);

/* libFuzzer's entry point: aborts when b3_fuzz_one fails. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
