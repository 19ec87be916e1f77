"""LP files that the parallel reader cuts awkwardly (tests/mpi/parallel_read_lp.sh): an
objective over many lines with constants and repeated terms, constraints with and
without labels, over several lines, ranges written both ways, bounds of every form,
markers, comments, blank lines, columns met first in the bounds or the markers, a second
constraint section; and variants the one-process reader refuses or reads in a way the
pieces must reproduce. Usage: python3 pieces_lp.py DIR (writes DIR/*.lp)."""
import random
import sys

D = sys.argv[1]
M, N = 80, 700


def model(variant="", seed=3):
    r = random.Random(seed)
    name = [f"x{j}" for j in range(N)]
    if variant == "shuffled":
        r.shuffle(name)
    sense = "Maximize" if variant == "max" else "Minimize"
    L = ["\\ an LP file cut into pieces", "", sense]
    terms = []
    for j in range(N):
        if j % 3 == 0:
            continue  # met first in a constraint
        c = r.choice(["", "2 ", "0.5 ", "1e-3 ", "3.25 ", "0 "])
        terms.append(f"{r.choice(['+', '-'])} {c}{name[j]}")
    if variant == "repeat-far":  # a column's objective terms far apart
        terms.append(f"+ 2 {name[1]}")
        terms.append(f"+ 3 {name[1]}")
    if variant == "constants":
        terms.insert(len(terms) // 2, "+ 7")
        terms.append("- 2.5")
    L.append(" cost: 4 + " + " ".join(terms[:5]))
    for k in range(5, len(terms), 6):
        L.append("   " + " ".join(terms[k:k + 6]))
    L.append("Subject To")
    for i in range(M):
        row = sorted(r.sample(range(N), r.randint(2, 9)))
        expr = " ".join(f"{r.choice(['+', '-'])} {r.choice(['', '1.5 ', '2 ', '0.25 '])}{name[j]}"
                        for j in row)
        # no label, except after "k >= expr", which the next expression would continue
        label = "" if i % 4 == 3 and i % 10 != 7 else f"c{i}: "
        if variant == "generated-clash" and i == 70:
            label = "R3: "  # row 3 has no label: the reader names it R3
        if variant == "duplicate-row" and i == 75:
            label = "c2: "
        if variant == "no-labels":
            label = ""
        if i % 10 == 5:
            L.append(f" {label}-3 <= {expr} <= {r.randint(1, 9)}")
        elif i % 10 == 6 and variant != "no-labels":
            L.append(f" {label}{r.randint(1, 9)} >= {expr}")
        elif i % 7 == 0:  # a constraint over three lines
            half = expr.split(" ")
            L.append(f" {label}" + " ".join(half[:len(half) // 2]))
            L.append("    " + " ".join(half[len(half) // 2:]))
            L.append(f"    {r.choice(['<=', '>=', '='])} {r.uniform(-5, 5)!r}")
        else:
            L.append(f" {label}{expr} {r.choice(['<=', '>=', '=', '=<', '=>'])} "
                     f"{r.uniform(-5, 5)!r}")
        if i % 25 == 0:
            L.append("\\ a comment among the constraints")
            L.append("")
        if variant == "two-sections" and i == M // 2:
            L.append("Bounds")
            L.append(f" {name[3]} <= 99")
            L.append("Subject To")
    L.append("Bounds")
    for j in range(N):
        kind = j % 11
        if kind == 0:
            L.append(f" {name[j]} <= {r.uniform(1, 9)!r}")
        elif kind == 1:
            L.append(f" -{r.randint(1, 9)} <= {name[j]} <= {r.randint(1, 9)}")
        elif kind == 2:
            L.append(f" {name[j]} free")
        elif kind == 3:
            L.append(f" {name[j]} = 2.5")
        elif kind == 4:
            L.append(f" {name[j]} >= -inf")
        elif kind == 5:
            L.append(f" 3 <= {name[j]}")
        elif kind == 6:
            L.append(f" {name[j]} >= -4")
            L.append(f" {name[j]} <= 1e30")
        if j % 97 == 0:
            L.append("\\ bounds comment")
    L.append(" only_in_bounds <= 5")
    if variant == "markers":
        L.append("Generals")
        L += [" " + " ".join(name[j] for j in range(k, min(k + 9, 60))) for k in range(0, 60, 9)]
        L.append(" only_in_generals")
        L.append("Binaries")
        L += [f" {name[j]}" for j in range(100, 200) if j % 11 > 6]  # no bounds of their own
        L.append("Semi-Continuous")
        L.append(f" {name[200]} {name[201]}")
    if variant == "block-comment":
        L.insert(10, "\\* a block comment *\\")
    L.append("End")
    return L


def write(fname, lines, eol="\n"):
    with open(f"{D}/{fname}", "w", newline="") as f:
        f.write(eol.join(lines) + eol)


write("pieces.lp", model())
write("pieces-crlf.lp", model(), eol="\r\n")
for v in ["shuffled", "max", "repeat-far", "constants", "two-sections", "markers",
          "generated-clash", "duplicate-row", "block-comment", "no-labels"]:
    write(f"{v}.lp", model(v))
# comments that open the file, as PuLP and GLPK write them (read in parallel), and heads
# the layout does not take (rank 0 reads): a statement after a block comment's close, a
# block comment that has not closed by the end of rank 0's share
write("head-pulp.lp", ["\\* pieces *\\"] + model())
head = ["", "\\ a line comment with \\* inside", "  \\* a block comment", "Minimize",
        "Subject To", "  still the comment *\\  ", "\\* another *\\ \\* and one more on its line *\\"]
write("head-comments.lp", head + model())
write("head-comments-crlf.lp", head + model(), eol="\r\n")
after = model()
after[after.index("Minimize")] = "\\* c *\\ Minimize"  # a section the layout would not see
write("head-text-after-close.lp", after)
write("head-long.lp", ["\\* a comment longer than a share:"] + ["x" * 70] * 4000 + ["*\\"]
      + model())
# a section keyword on the line of its first statement, and the objective on one line
one = model()
at = one.index("Subject To")
one[at] = "Subject To " + one[at + 1].strip()
del one[at + 1]
write("keyword-lines.lp", one)
