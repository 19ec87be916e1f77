NAME          BADNUMBER
ROWS
 N  COST
 L  R1
COLUMNS
    X         COST      1.0          R1        1.0x
RHS
    RHS       R1        1.0
ENDATA
