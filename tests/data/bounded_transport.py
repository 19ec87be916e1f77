"""A transport LP whose optimum holds many columns at nonzero lower and at upper bounds,
for the column-fixing tests (tests/cli/fixing.sh). Free MPS on stdout.

    python3 bounded_transport.py SEED [max]

Sources i ship x_ij to sinks j: sum_j x_ij <= supply_i, sum_i x_ij >= demand_j. Every
seventh arc has a lower bound of 1 to 3 (a minimum shipment), every eleventh an upper bound
of 2 to 6 (a capacity), the rest [0, inf). With `max` the LP is the same one written as a
maximisation of the negated costs, whose optimum is minus the minimisation's."""
import random
import sys

r = random.Random(int(sys.argv[1]))
maximise = len(sys.argv) > 2 and sys.argv[2] == "max"
S, T = 12, 40
supply = [r.randint(60, 90) for _ in range(S)]
demand = [r.randint(5, 15) for _ in range(T)]
out = ["NAME bounded_transport"]
if maximise:
    out += ["OBJSENSE", "    MAX"]
out += ["ROWS", " N cost"] + [" L s%d" % i for i in range(S)] + [" G d%d" % j for j in range(T)]
out.append("COLUMNS")
bounds = []
for i in range(S):
    for j in range(T):
        name, k = "x_%d_%d" % (i, j), i * T + j
        cost = round(r.uniform(1.0, 20.0), 3)
        out.append(" %s cost %r s%d 1 d%d 1" % (name, -cost if maximise else cost, i, j))
        if k % 7 == 0:
            bounds.append(" LO BND %s %d" % (name, r.randint(1, 3)))
        if k % 11 == 0:
            bounds.append(" UP BND %s %d" % (name, r.randint(4, 6)))
out.append("RHS")
out += [" RHS s%d %d" % (i, v) for i, v in enumerate(supply)]
out += [" RHS d%d %d" % (j, v) for j, v in enumerate(demand)]
out += ["BOUNDS"] + bounds + ["ENDATA"]
print("\n".join(out))
