NAME          BIGFIXED
ROWS
 N  obj
 E  r1
 L  r2
COLUMNS
    x         obj       1.0          r1        1.0
    y         obj       -6.0         r1        -1.0
    z         obj       1.0          r2        1.0
RHS
    rhs       r1        1.0          r2        4.0
BOUNDS
 FX bnd       x         1e12
 FX bnd       y         1e12
ENDATA
