NAME          MISSINGVALUE
ROWS
 N  COST
 L  R1
 L  R2
COLUMNS
    X         COST      1.0          R1
RHS
    RHS       R1        1.0
ENDATA
