NAME          PULPREL
OBJSENSE
    MAX
ROWS
 N  obj
 E  c1
 L  c2
COLUMNS
    x1        c1        1.0          c2        1.0
    x2        c1        1.0
    f         obj       1.0
RHS
    rhs       c1        2.0          c2        0.0
BOUNDS
 UP bnd       x1        1.0
 UP bnd       x2        1.0
 FR bnd       f
ENDATA
