/* The CUDA backend's gathering product, per line (a row of A or of A^T), shared with the
 * host so that the CPU tests run the same arithmetic (docs/gpu.md section 1, "products").
 *
 * A group of W lanes (W a power of two, 1 to 32) takes one line: lane l sums the line's
 * entries l, l + W, l + 2W, ... in that order, then the lanes' sums meet in a tree, lane l
 * adding lane l + h's sum for h = W/2, ..., 2, 1 (what CUDA's __shfl_down_sync does within
 * a group); lane 0 holds the line's dot product. The order depends only on W and the
 * line's length, never on the values' form (core/values.h): a signed-unit entry's term is
 * +x or -x, which is what 1.0 * x and -1.0 * x round to, and a table holds the very
 * doubles the plain form does, so every form gives every product bit for bit. */
#ifndef SLP_LINE_LANES_H
#define SLP_LINE_LANES_H

#include <stdint.h>

#include "backend/kernels.h"
#include "core/values.h"

/* Not a form of the values: the FP32 copy of plain values that the iterations read
 * under --precision fp32-matrix (each term (double) v32 * x, as on the CPU). */
#define SLP_LINE_FP32 4

/* A copy's entries with 32-bit column indices, in one of the four forms (or FP32). */
typedef struct {
    int form;               /* slp_values_form, or SLP_LINE_FP32 */
    const int32_t *idx;     /* column index; SIGNED: bit 31 is the sign */
    const double *val;      /* PLAIN */
    const uint8_t *code8;   /* TABLE8 */
    const uint16_t *code16; /* TABLE16 */
    const double *table;    /* TABLE8, TABLE16: the distinct values */
    const float *val32;     /* SLP_LINE_FP32 */
} slp_line_entries_t;

/* Entry k's term value * x[column]. */
SLP_INLINE double slp_line_term(const slp_line_entries_t *e, int64_t k, const double *x)
{
    switch (e->form) {
    case SLP_VALUES_SIGNED: {
        uint32_t raw = (uint32_t)e->idx[k];
        double v = x[raw & SLP_INDEX_MASK];
        return (raw & SLP_SIGN_BIT) ? -v : v;
    }
    case SLP_VALUES_TABLE8:
        return e->table[e->code8[k]] * x[e->idx[k]];
    case SLP_VALUES_TABLE16:
        return e->table[e->code16[k]] * x[e->idx[k]];
    case SLP_LINE_FP32:
        return (double)e->val32[k] * x[e->idx[k]];
    default:
        return e->val[k] * x[e->idx[k]];
    }
}

/* Lane `lane` of `width`'s sum over the line's entries [lo, hi). */
SLP_INLINE double slp_lane_sum(const slp_line_entries_t *e, int64_t lo, int64_t hi, int lane,
                               int width, const double *x)
{
    double s = 0.0;
    for (int64_t k = lo + lane; k < hi; k += width)
        s += slp_line_term(e, k, x);
    return s;
}

/* The lanes per line for a copy of `nnz` entries over `lines` lines: the mean line
 * length rounded up to a power of two, at most a warp. */
SLP_INLINE int slp_lanes_for(int64_t nnz, int64_t lines)
{
    int width = 1;
    while (width < 32 && (int64_t)width * lines < nnz)
        width *= 2;
    return width;
}

/* The position in the table of v, which it holds (its values increase): the code of
 * slp_values_encode. */
SLP_INLINE int32_t slp_table_code(const double *table, int32_t len, double v)
{
    int32_t lo = 0, hi = len - 1;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (table[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

#ifndef __CUDACC__
/* The host's rendering of one group: every lane's sum, then the tree, in the device's
 * order (the unit tests compare forms and widths with it). */
static inline double slp_line_dot_lanes(const slp_line_entries_t *e, int64_t lo, int64_t hi,
                                        int width, const double *x)
{
    double s[32];
    for (int lane = 0; lane < width; lane++)
        s[lane] = slp_lane_sum(e, lo, hi, lane, width, x);
    for (int h = width / 2; h >= 1; h /= 2)
        for (int lane = 0; lane < h; lane++)
            s[lane] = s[lane] + s[lane + h];
    return s[0];
}
#endif

#endif
