NAME          NAMES
ROWS
 N  COST
 L  #R
 L  R 1
COLUMNS
    A B       COST      -1.0           #R        1.0
    A_B       COST      -2.0           R 1       1.0
    50%       COST      -3.0           #R        1.0
RHS
    RHS       #R        1.0            R 1       1.0
BOUNDS
 UP BND       50%       0.5
ENDATA
