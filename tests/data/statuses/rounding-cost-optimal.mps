NAME          RNDCOST
* min 0.3 x0 + 0.1 x3 s.t. 3 x0 + x3 = 1, x0 >= 0, x3 free. Substituting x3 leaves x0
* with cost 0.3 - 3 * 0.1 = -5.55e-17 in floating point: rounding, not a direction.
* Optimal 0.1 at x0 = 0, x3 = 1 (HiGHS, Clp).
ROWS
 N  obj
 E  r
COLUMNS
    x0        obj       0.3          r         3.0
    x3        obj       0.1          r         1.0
RHS
    rhs       r         1.0
BOUNDS
 FR bnd       x3
ENDATA
