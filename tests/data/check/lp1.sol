Model status
Optimal

# Primal solution values
Feasible
Objective -18
# Columns 6
x1 1
x2 3
x3 2
x4 2
x5 3
x6 0
# Rows 4
r1 4
r2 5
r3 -2
r4 4

# Dual solution values
Feasible
# Columns 6
x1 0
x2 0
x3 0
x4 1.5
x5 -1
x6 2
# Rows 4
r1 -1
r2 -2
r3 0.5
r4 -1

# Basis
HiGHS v1
None
