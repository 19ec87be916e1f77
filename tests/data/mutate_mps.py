#!/usr/bin/env python3
"""Write a mutated copy of an MPS file (tests/mpi/parallel_read.sh, bench/parallel_read_fuzz.sh):
a few random edits of the kinds that change how a file is read, whose results the
one-process reader and the parallel reader must agree on: lines swapped, deleted,
duplicated or moved far away (split columns, duplicate entries and bounds), numbers
and names replaced, section headers inserted or dropped, blanks turned into tabs.
Usage: mutate_mps.py IN OUT SEED [EDITS]"""
import random
import sys

src, dst, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
edits = int(sys.argv[4]) if len(sys.argv) > 4 else 3
rnd = random.Random(seed)
lines = open(src, newline="").read().split("\n")
words = [w for line in lines for w in line.split()] or ["X"]
HEADERS = ["RHS", "RANGES", "BOUNDS", "COLUMNS", "ENDATA", "ROWS", "OBJSENSE", "SOS"]

def pick():
    return rnd.randrange(len(lines)) if lines else 0

for _ in range(edits):
    kind = rnd.randrange(9)
    i, j = pick(), pick()
    if not lines:
        break
    if kind == 0:
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 1:
        del lines[i]
    elif kind == 2:
        lines.insert(j, lines[i])
    elif kind == 3:
        lines.insert(j, lines.pop(i))
    elif kind == 4:
        toks = lines[i].split(" ")
        k = rnd.randrange(len(toks))
        toks[k] = rnd.choice(["1.5e", "-0", "1e30", "-1e21", "nan", "0x10", "7", "1d3", "+.5"])
        lines[i] = " ".join(toks)
    elif kind == 5:
        toks = lines[i].split(" ")
        k = rnd.randrange(len(toks))
        toks[k] = rnd.choice(words)
        lines[i] = " ".join(toks)
    elif kind == 6:
        lines.insert(i, rnd.choice(HEADERS))
    elif kind == 7:
        if lines[i][:1] not in (" ", ""):
            del lines[i]
    else:
        lines[i] = lines[i].replace("  ", "\t", 1)
open(dst, "w", newline="").write("\n".join(lines))
