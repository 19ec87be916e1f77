/* Fuzz target: the LP reader (slp_lp_read: lines, the tokenizer, the plain terms read
 * straight from the line, sections, model assembly and validation). The input bytes are
 * the file, plain or compressed. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_model.h"
#include "io/lp.h"

#ifndef SLP_FUZZ_ENTRY
#define SLP_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int SLP_FUZZ_ENTRY(const uint8_t *data, size_t size);
int SLP_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    return slp_fuzz_read_model(data, size, "model.lp", slp_lp_read, 1); /* names required */
}
