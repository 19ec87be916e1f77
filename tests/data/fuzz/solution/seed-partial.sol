Model status
Time limit reached

# Primal solution values
Feasible
Objective 2
# Columns 4
x3 1
x1 2
# Rows 3

# Dual solution values
Infeasible
# Columns 4
# Rows 3
r2 1e308
