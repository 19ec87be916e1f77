NAME          UNB
ROWS
 N  obj
 G  r1
 L  r2
COLUMNS
    x         obj       -1.0         r1        1.0
    x         r2        1.0
    y         obj       -1.0         r1        1.0
    y         r2        -1.0
RHS
    rhs       r1        1.0          r2        2.0
ENDATA
