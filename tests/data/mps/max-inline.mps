NAME inline
OBJSENSE MAX
ROWS
 N obj
 G r
COLUMNS
 x obj 1 r 1
RHS
 rhs r 1 obj 2.5
BOUNDS
 UP bnd x 4
ENDATA
