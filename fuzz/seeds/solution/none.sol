Model status
Infeasible

# Primal solution values
None

# Dual solution values
None
