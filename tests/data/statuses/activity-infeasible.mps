NAME          ACTINF
ROWS
 N  obj
 G  r1
 L  r2
COLUMNS
    x         obj       1.0          r1        1.0
    x         r2        1.0
    y         obj       2.0          r1        1.0
    y         r2        -1.0
    z         obj       1.0          r2        1.0
RHS
    rhs       r1        3.0          r2        5.0
BOUNDS
 UP bnd       x         1.0
 UP bnd       y         1.0
 UP bnd       z         4.0
ENDATA
