#!/usr/bin/env python3
"""Ranks and memory per rank for very large LPs (docs/memory.md "1e8 nonzeros on 4 ranks,
and beyond"), from the per-rank model of a solve from shards.

model_bytes() is slp_shard_solver_bytes of src/shard/shard_plan.c written out again (the
phases of docs/memory.md "The model", the CPU backend's copies), evaluated on uniform
blocks (m/R rows, n/C columns, nnz/(R C) entries: what the balanced cuts give on the mcf
and design-match families). For each size and memory per rank, the smallest rank count
P (a multiple of 4) whose best R x C = P fits, and that grid.

    python3 bench/extrapolate.py [--check JSON]
    python3 bench/extrapolate.py --input   (the parallel MPS read's peak per rank)

--check JSON: a run's summary (bench/big.sh's iter1000.json); the model evaluated here on
its grid must equal the JSON's modelled_peak_bytes_largest_rank to within the blocks'
imbalance (printed).
"""
import argparse
import json

MIB = 1 << 20
PROCESS = 16 * MIB
STATE_COLS, STATE_ROWS = 10, 9
ONE_COPY_RATIO, ONE_COPY_MIN = 0.5, 8 * MIB


def model_bytes(m, n, nnz):
    """The largest phase of one rank's solve plus the process (1 thread)."""
    a, at = 12 * nnz + 8 * (m + 1), 12 * nnz + 8 * (n + 1)
    block_vectors = 8 * (3 * n + 2 * m)
    presolve = a + block_vectors + 47 * n + 110 * m
    longer, shorter = max(m, n), min(m, n)
    scaling = a + at + block_vectors + 8 * (longer + 5 * shorter)
    copy = 12 * nnz + 8 * longer
    one = nnz > 0 and shorter <= ONE_COPY_RATIO * longer and copy >= ONE_COPY_MIN
    ptr = 4 if nnz < 2**32 else 8  # the block's line pointers (docs/memory.md "The matrix")
    a_kept, at_kept = 12 * nnz + ptr * (m + 1), 12 * nnz + ptr * (n + 1)
    copies = (at_kept if m <= n else a_kept) if one else a_kept + at_kept
    loop = copies + 8 * (STATE_COLS * n + STATE_ROWS * m)
    return PROCESS + max(presolve, scaling, loop)


def best_grid(m, n, nnz, P):
    """The R x C = P with the smallest modelled rank (uniform blocks)."""
    best = None
    for R in range(1, P + 1):
        if P % R:
            continue
        C = P // R
        b = model_bytes(-(-m // R), -(-n // C), -(-nnz // P))
        if best is None or b < best[0]:
            best = (b, R, C)
    return best


def ranks_needed(m, n, nnz, per_rank):
    for P in range(1, 1 << 20):
        b, R, C = best_grid(m, n, nnz, P)
        if b <= per_rank:
            return P, R, C, b
    return None


# ---- the parallel MPS read (docs/parallel-input.md, docs/memory.md "Reading one MPS file
# on every rank, at scale"): a rank's peak during input, three phases of
# src/grid/read_*.c, fitted to six measured runs (mcf 195 MB and 854 MB, design-match
# 756 MB; grids 2x2 and 1x2) within 3%
INPUT_BASE = 16.8e6  # the process, the parse buffer, the counts
ROW_BYTES = 46.6     # every rank's copy of the rows: name, index slot, bounds, counts
NAME_BYTES = 11      # a column name in the pieces' chunks (mcf: C + 7 digits, NUL)
SHARE_BASE = 15.5e6  # a solve from shards at the end of its read


def input_bytes(m, n, nnz, R, C, name=NAME_BYTES):
    """A rank's peak while P = R C ranks read one MPS file (uniform pieces and blocks)."""
    P = R * C
    e, n_p, m_b, n_loc = nnz / P, n / P, m / R, n / C
    # the piece at its end: entries (12), column starts (8), names (chunk and pointer),
    # objective and bounds (24)
    pieces = 12 * e + (8 + 8 + 24 + name) * n_p
    # the first round: entries left plus block placed (12), each entry's block (2), the
    # round buffers (1); column starts; the piece's vectors
    rounds = 15 * e + 8 * n_p + 24 * n_p
    # the column vectors: the block, its row slice, the last piece vector, the slices
    vectors = 12 * e + 24 * m_b + 8 * n_p + 24 * n_loc
    return INPUT_BASE + ROW_BYTES * m + max(pieces, rounds, vectors)


def share_bytes(m, n, nnz, R, C):
    """The same rank's peak when it reads its block and slices from shards."""
    e, m_b, n_loc = nnz / (R * C), m / R, n / C
    return SHARE_BASE + 12 * e + 24 * m_b + 24 * n_loc


# rows and columns per nonzero of the two families (their generators' sizes)
FAMILIES = {
    "mcf (F 5, W 100, S 50; vector-heavy)": (1347980 / 100004100, 47828100 / 100004100),
    "design-match (20 covariates, 10 neighbours; matrix-heavy)": (63230 / 20916460,
                                                                  90460 / 20916460),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", help="a run's JSON summary to compare the model with")
    ap.add_argument("--input", action="store_true",
                    help="the parallel MPS read's peak per rank: the measured runs, then "
                         "the paper's sizes")
    a = ap.parse_args()
    if a.input:
        input_tables()
        return
    if a.check:
        d = json.load(open(a.check))
        R, C = d["grid"]
        b = model_bytes(-(-d["rows"] // R), -(-d["cols"] // C), -(-d["nonzeros"] // (R * C)))
        print(f"check: {a.check} on {R}x{C}: uniform blocks {b / MIB:.0f} MiB, the solver's "
              f"model on its blocks {d['memory']['modelled_peak_bytes_largest_rank'] / MIB:.0f} "
              f"MiB, measured largest {d['memory']['peak_bytes_largest_rank'] / MIB:.0f} MiB\n")
    print("| LP family | nonzeros | memory per rank | ranks | grid | modelled peak per rank |")
    print("|---|---|---|---|---|---|")
    for fam, (rows, cols) in FAMILIES.items():
        for nnz in (1e10, 4e10):
            m, n, z = int(rows * nnz), int(cols * nnz), int(nnz)
            for gib in (64, 128):
                fit = ranks_needed(m, n, z, gib << 30)
                P, R, C, b = fit
                print(f"| {fam} | {nnz:.0e} ({m:,} x {n:,}) | {gib} GiB | {P} | {R}x{C} | "
                      f"{b / (1 << 30):.1f} GiB |")


# measured (docs/parallel-input.md "Measured"): model, m, n, nnz, R, C, peaks MiB
MEASURED = [
    ("mcf 400/5/100/50, 195 MB", 62100, 2200100, 4600100, 2, 2, "61-63"),
    ("mcf 400/5/100/50, 195 MB", 62100, 2200100, 4600100, 1, 2, "98-100"),
    ("mcf 1700/5/100/50, 854 MB", 263600, 9350100, 19550100, 2, 2, "209-216"),
    ("mcf 1700/5/100/50, 854 MB", 263600, 9350100, 19550100, 1, 2, "377-378"),
    ("design-match 8000/16000/20/10, 756 MB", 56230, 80460, 18592460, 2, 2, "85-86"),
    ("design-match 8000/16000/20/10, 756 MB", 56230, 80460, 18592460, 1, 2, "151-152"),
]
# the paper's runs: 6.3e9 nonzeros on 8 GPUs, 4.1e10 on 76 (docs/design.md)
PAPER = [(6.3e9, 8), (4.1e10, 76)]


def input_tables():
    print("| model | grid | measured peak MiB | modelled MiB |")
    print("|---|---|---|---|")
    for name, m, n, z, R, C, got in MEASURED:
        print(f"| {name} | {R}x{C} | {got} | {input_bytes(m, n, z, R, C) / MIB:.0f} |")
    print()
    print("| LP family | nonzeros | ranks, grid | input peak per rank | of which every rank's "
          "rows | share (from shards) | input / share | solve peak per rank |")
    print("|---|---|---|---|---|---|---|---|")
    gib = 1 << 30
    for fam, (rows, cols) in FAMILIES.items():
        for nnz, P in PAPER:
            m, n, z = int(rows * nnz), int(cols * nnz), int(nnz)
            _, R, C = best_grid(m, n, z, P)
            inp, share = input_bytes(m, n, z, R, C), share_bytes(m, n, z, R, C)
            solve = model_bytes(-(-m // R), -(-n // C), -(-z // P))
            print(f"| {fam} | {nnz:.1e} ({m:,} x {n:,}) | {P}, {R}x{C} | {inp / gib:.1f} GiB | "
                  f"{ROW_BYTES * m / gib:.1f} GiB | {share / gib:.1f} GiB | {inp / share:.2f}x | "
                  f"{solve / gib:.1f} GiB |")


if __name__ == "__main__":
    main()
