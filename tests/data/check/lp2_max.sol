Model status
Optimal

# Primal solution values
Feasible
Objective 11
# Columns 2
a 3
b 1
# Rows 2
c1 4
c2 6

# Dual solution values
Feasible
# Columns 2
a 1
b 0
# Rows 2
c1 2
c2 0

# Basis
HiGHS v1
None
