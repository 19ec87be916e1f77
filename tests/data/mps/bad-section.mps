NAME          BADSECTION
ROWS
 N  COST
 L  R1
COLUMNS
    X         COST      1.0          R1        1.0
FOOBAR
    X         R1        1.0
ENDATA
