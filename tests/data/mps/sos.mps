NAME          SOS
ROWS
 N  COST
 L  R1
COLUMNS
    X         COST      1.0          R1        1.0
SOS
 S1 SOS       s1        1
ENDATA
