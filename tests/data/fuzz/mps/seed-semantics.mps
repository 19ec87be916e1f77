* Every reader convention in one small file: see docs/mps.md and test_mps.c.
NAME          SEMANTICS
ROWS
 N  COST
 E  EQ
 L  LE
 G  GE
 N  FREE2
 E  EQNEG
 E  EQZERO
 L  LEINF
COLUMNS
    X1        COST      1.0          EQ        2.0
    X1        EQ        5.0          FREE2     9.0
    X1        NOSUCH    1.0          LE        3.0
    X1        COST      7.0
    MARKER    'MARKER'               'INTORG'
    X2        COST      1.5D1        GE        -1.0
    X2        EQNEG     0.0
    MARKER    'MARKER'               'INTEND'
    X3        LE        4.0          EQZERO    1.0
    X4        GE        2.0          EQ        1.0
    X3        EQ        6.0          EQ        8.0
    X3        LEINF     1.0
RHS
    RHS       COST      -2.5         EQ        10.0
    RHS       LE        8.0          GE        1.0
    RHS       EQNEG     3.0          EQZERO    2.0
    RHS       EQ        99.0         FREE2     4.0
    RHS       LEINF     1e30
    RHS2      LE        100.0
RANGES
    RNG       EQ        2.0          LE        3.0
    RNG       GE        -4.0         EQNEG     -1.5
    RNG       COST      1.0          EQZERO    0.0
BOUNDS
 UP BND       X1        -2.0
 LO BND       X2        -1e30
 UP BND       X2        1e20
 MI BND       X3
 UP BND       X3        -1.0
 UP BND       X3        5.0
 BV BND       X4
 LO BND2      X4        0.5
 UP BND       NOCOL     1.0
ENDATA
