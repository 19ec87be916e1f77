NAME          INTMODEL
ROWS
 N  obj
 L  c1
COLUMNS
    MARKER                 'MARKER'                 'INTORG'
    x         obj       -1.0         c1        2.0
    MARKER                 'MARKER'                 'INTEND'
    y         obj       -1.0         c1        1.0
RHS
    rhs       c1        7.0
BOUNDS
 UP bnd       x         10.0
 UP bnd       y         0.0
ENDATA
