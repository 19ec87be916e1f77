"""Log-magnitude spread of each corpus LP's matrix before and after 20 Curtis-Reid sweeps
(docs/method-experiments.md, "Where issue 46's targets stand"): the standard deviation and
range of log10 |a_ij| over the entries above 1e-9, as highspy reads the model.
Usage: build/pyenv/bin/python bench/cr_spread.py OUT.csv  (run from the repository root)"""
import csv
import math
import sys

import highspy
import numpy as np
import scipy.sparse as sp

SHARED = "../shared"
rows = [r for r in csv.DictReader(open(SHARED + '/lp/INDEX.tsv'), delimiter='\t')
        if r['status'] == 'optimal' and int(r['nonzeros']) <= 100000]
out = csv.writer(open(sys.argv[1], 'w'))
out.writerow(['name', 'nnz', 'std0', 'std_cr', 'range0', 'range_cr'])
for r in rows:
    h = highspy.Highs(); h.setOptionValue('output_flag', False)
    if h.readModel(SHARED + '/lp/' + r['file']) != highspy.HighsStatus.kOk:
        continue
    lp = h.getLp(); a = lp.a_matrix_
    A = sp.csc_matrix((np.array(a.value_), np.array(a.index_), np.array(a.start_)), shape=(lp.num_row_, lp.num_col_)).tocoo()
    keep = np.abs(A.data) > 1e-9
    i, j, L = A.row[keep], A.col[keep], np.log(np.abs(A.data[keep]))
    m, n = lp.num_row_, lp.num_col_
    rc = np.maximum(np.bincount(i, minlength=m), 1); cc = np.maximum(np.bincount(j, minlength=n), 1)
    rho = np.zeros(m); gam = np.zeros(n)
    for _ in range(20):
        rho = np.bincount(i, L - gam[j], minlength=m) / rc
        gam = np.bincount(j, L - rho[i], minlength=n) / cc
    R = L - rho[i] - gam[j]
    out.writerow([r['name'], len(L), round(L.std() / math.log(10), 3), round(R.std() / math.log(10), 3),
                  round((L.max() - L.min()) / math.log(10), 2), round((R.max() - R.min()) / math.log(10), 2)])
