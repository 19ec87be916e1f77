"""A random small LP file for differential runs of the LP reader (bench/lp_differential.sh):
terms with and without signs and coefficients, numbers of many spellings (a leading zero,
a trailing point, exponents, hexadecimal, 20 digits), names that look like numbers,
keywords or labels, blanks, tabs and line breaks inside terms, now and then a comment,
a quadratic term or a stray token. Usage: python3 random_lp.py SEED > F.lp"""
import random, sys
r = random.Random(int(sys.argv[1]))
names = ["x", "y1", "z.2", "C10", "e", "e1", "x_y", "4", "010", "r1", "obj", "st", "bounds", "free"]
nums = ["1", "2", "0", "0.5", ".5", "5.", "1e3", "1E-2", "010", "007", "3", "0x10", "12345678901234567890", "9", "1.0000000000000002"]
def term():
    s = r.choice(["+", "-", "", "- -", "+-"])
    parts = [s] if s else []
    if r.random() < 0.7:
        parts.append(r.choice(nums))
    parts.append(r.choice(names))
    sep = r.choice([" ", " ", " ", "", "\t", "  ", "\n  "])
    return sep.join(parts)
def expr(k):
    out = []
    for i in range(k):
        t = term()
        if i > 0 and not t.startswith(("+", "-")):
            t = r.choice(["+ ", "- ", "+", ""]) + t
        out.append(t)
        if r.random() < 0.01: out.append(r.choice(["\\ comment", "[ x ^ 2 ]", ":", "3", "+ 2", "<= 1\n"]))
    return r.choice([" ", "\n ", "  "]).join(out)
lines = [r.choice(["Minimize", "Maximize", "min"]), " obj: " + expr(r.randint(1, 6)), "Subject To"]
for i in range(r.randint(1, 6)):
    lab = r.choice(["c%d: " % i, "", "c%d : " % i, "c0: "])
    lines.append(" " + lab + expr(r.randint(1, 6)) + " " + r.choice(["<=", ">=", "=", "=<"]) + " " + r.choice(nums))
lines.append("Bounds")
lines.append(" x <= 4")
lines.append("End")
print("\n".join(lines))
