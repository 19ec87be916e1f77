* max 3a + 2b s.t. a + b <= 4, a + 3b <= 6, 0 <= a <= 3, b >= 0: a = 3, b = 1, objective 11.
NAME          lp2_max
OBJSENSE
    MAX
ROWS
 N  obj
 L  c1
 L  c2
COLUMNS
    a    obj   3      c1   1
    a    c2    1
    b    obj   2      c1   1
    b    c2    3
RHS
    rhs  c1    4      c2   6
BOUNDS
 UP bnd  a     3
ENDATA
