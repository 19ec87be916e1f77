NAME          INFTEXT
ROWS
 N  COST
 L  R1
COLUMNS
    X         COST      1.0          R1        1.0
RHS
    RHS       R1        Infinity
ENDATA
