/* Fuzz target: the MPS reader (slp_mps_read: streaming parser, compression detection, model
 * assembly and validation). The input bytes are the file, plain or gzip. */
#include <stddef.h>
#include <stdint.h>

#include "fuzz_model.h"
#include "io/mps.h"

#ifndef SLP_FUZZ_ENTRY
#define SLP_FUZZ_ENTRY LLVMFuzzerTestOneInput
#endif

int SLP_FUZZ_ENTRY(const uint8_t *data, size_t size);
int SLP_FUZZ_ENTRY(const uint8_t *data, size_t size)
{
    return slp_fuzz_read_model(data, size, "model.mps", slp_mps_read, 0);
}
