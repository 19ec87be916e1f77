Model status
Optimal

# Primal solution values
Feasible
Objective -1.5e+01
# Columns 4
x1 1
x2 3.25
x3 -inf
x4 0
# Rows 3
r1 4
r2 5
r3 nan

# Dual solution values
Feasible
# Columns 4
x1 0
x2 0
x3 0
x4 1.5
# Rows 3
r1 -1
r2 -2
r3 0.5

# Basis
HiGHS v1
None
