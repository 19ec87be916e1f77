    X         COST      1.0          R1        1.0
NAME          DATAFIRST
ENDATA
