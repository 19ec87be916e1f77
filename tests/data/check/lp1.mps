* LP1 of tests/unit/test_check.c without the free row (hand-solved optimum -18).
NAME          lp1
ROWS
 N  obj
 E  r1
 L  r2
 G  r3
 G  r4
COLUMNS
    x1   obj   -0.5   r1   1
    x1   r3    1
    x2   obj   -3     r1   1
    x2   r2    1
    x3   obj   -3     r2   1
    x3   r4    1
    x4   obj   0.5    r4   1
    x5   obj   -1.5   r3   -1
    x6   obj   2.5    r3   1
RHS
    rhs  r1    4      r2   5
    rhs  r3    -2     r4   1
    rhs  obj   -1
RANGES
    rng  r4    3
BOUNDS
 FR bnd  x2
 UP bnd  x3    4
 FX bnd  x4    2
 MI bnd  x5
 UP bnd  x5    3
ENDATA
