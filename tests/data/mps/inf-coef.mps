NAME          INFCOEF
ROWS
 N  COST
 L  R1
COLUMNS
    X         COST      1.0          R1        1e21
ENDATA
