NAME          KWNAMES
* Columns named as LP section keywords: min -end - st - bounds, end + st + bounds <= 10,
* end = 2 (fixed: its bound line starts with its name), st <= 0.5, bounds in [1, 3].
* Optimal -5.5 at end = 2, st = 0.5, bounds = 3; a reader that takes the bound line
* " end = 2" for the End section loses every bound and finds -10.
ROWS
 N  obj
 L  c1
COLUMNS
    end       obj       -1           c1        1
    st        obj       -1           c1        1
    bounds    obj       -1           c1        1
RHS
    rhs       c1        10
BOUNDS
 FX bnd       end       2
 UP bnd       st        0.5
 LO bnd       bounds    1
 UP bnd       bounds    3
ENDATA
