NAME          SUBUNB
* min 0.2 x0 + 0.1 x3 s.t. 3 x0 + x3 = 1, x0 >= 0, x3 free: unbounded along
* x0 = t, x3 = 1 - 3 t (objective 0.1 - 0.1 t). Presolve substitutes x3 and finds x0
* empty and improving; the ray written must be (1, -3), one of the original model.
ROWS
 N  obj
 E  r
COLUMNS
    x0        obj       0.2          r         3.0
    x3        obj       0.1          r         1.0
RHS
    rhs       r         1.0
BOUNDS
 FR bnd       x3
ENDATA
