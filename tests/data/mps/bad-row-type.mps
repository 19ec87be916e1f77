NAME          BADROWTYPE
ROWS
 N  COST
 Q  R1
COLUMNS
    X         COST      1.0          R1        1.0
ENDATA
