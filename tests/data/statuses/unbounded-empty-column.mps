NAME          UNBEMPTY
ROWS
 N  obj
 G  r1
COLUMNS
    x         obj       1.0          r1        1.0
    f         obj       -1.0
RHS
    rhs       r1        2.0
BOUNDS
 FR bnd       f
ENDATA
