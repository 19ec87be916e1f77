/* Counter-based random numbers for the generators: a value is a pure function of
 * (seed, stream, id), so any rank can compute the data of any entity (a factory, a
 * store, a covariate of a unit) without generating anything before it. The mixer is
 * splitmix64's finaliser applied three times (seed, then stream, then id). */
#ifndef SLP_GEN_RNG_H
#define SLP_GEN_RNG_H

#include <stdint.h>

static inline uint64_t slp_gen_mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* 64 random bits for entity `id` of `stream` under `seed`. */
static inline uint64_t slp_gen_bits(uint64_t seed, uint64_t stream, uint64_t id)
{
    uint64_t h = slp_gen_mix64(seed);
    h = slp_gen_mix64(h ^ (stream * 0xD1B54A32D192ED03ull));
    return slp_gen_mix64(h ^ id);
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double slp_gen_u01(uint64_t seed, uint64_t stream, uint64_t id)
{
    return (double)(slp_gen_bits(seed, stream, id) >> 11) * 0x1.0p-53;
}

#endif
