NAME          FORCSLK
* rA: x + y <= 1000000.0005 has a slack of 5e-4 over its least activity, below a
* relative feasibility tolerance of 1e-9 (1 + 1e6) but not rounding; forcing x = 0
* there contradicts rB: -x + w <= -1e-6 (w >= 0 needs x >= 1e-6). Feasible:
* x = 1e-6, y = 1e6, w = 0; min x + y + w = 1000000.000001 (HiGHS, Clp).
ROWS
 N  obj
 L  rA
 L  rB
COLUMNS
    x         obj       1.0          rA        1.0
    x         rB        -1.0
    y         obj       1.0          rA        1.0
    w         obj       1.0          rB        1.0
RHS
    rhs       rA        1000000.0005 rB        -1e-6
BOUNDS
 UP bnd       x         1e-6
 LO bnd       y         1e6
 UP bnd       y         2e6
 UP bnd       w         1.0
ENDATA
