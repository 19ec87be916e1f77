"""Differential testing of shardlp's statuses and objectives against HiGHS on random LPs
(lpgen.py; docs/reliability.md, "Differential testing").

    differential.py gen DIR COUNT SEED              write DIR/rnd<k>.mps
    differential.py highs DIR REF.json              HiGHS (simplex, presolve off) on each
    differential.py solve DIR OUT.json [--grid RxC] [--tol T] [--sol]
                                                    shardlp through its Python package, every
                                                    LP in this one process (under mpirun with
                                                    mpi4py for a grid of several ranks)
    differential.py compare REF.json OUT.json [--check BIN]
                                                    counts; exit 1 on a wrong status or
                                                    objective, or a certificate `BIN check`
                                                    rejects

The solve step needs the shardlp package importable (SHARDLP_LIB pointing at the build's
libshardlp.so) and, for grids, mpi4py; highs needs highspy.
"""
import glob
import json
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# shardlp's status -> HiGHS's model status string
AS_HIGHS = {"optimal": "Optimal", "primal_infeasible": "Infeasible", "dual_infeasible": "Unbounded"}
DECIDED = ("Optimal", "Infeasible", "Unbounded")


def models(directory):
    return sorted(glob.glob(os.path.join(directory, "rnd*.mps")))


def cmd_gen(directory, count, seed):
    import lpgen
    os.makedirs(directory, exist_ok=True)
    lpgen.write_batch(directory, int(count), int(seed))


def cmd_highs(directory, out):
    import highspy
    ref = {}
    for path in models(directory):
        h = highspy.Highs()
        h.setOptionValue("output_flag", False)
        h.setOptionValue("presolve", "off")
        h.setOptionValue("solver", "simplex")
        h.readModel(path)
        h.run()
        status = h.modelStatusToString(h.getModelStatus())
        ref[os.path.basename(path)] = {"status": status,
                                       "objective": h.getInfo().objective_function_value}
    with open(out, "w") as f:
        json.dump(ref, f, indent=0)


def cmd_solve(directory, out, grid="1x1", tol=1e-8, write_sol=False):
    import shardlp
    r, c = (int(v) for v in grid.split("x"))
    comm = None
    if r * c > 1:
        from mpi4py import MPI
        comm = MPI.COMM_WORLD
    results = {}
    for path in models(directory):
        name = os.path.basename(path)
        opts = {"grid": (r, c)} if comm else {}
        sol = path[:-4] + ".%s.sol" % grid
        if write_sol:
            opts["sol"] = sol
        res = shardlp.read(path).solve(tol=tol, time_limit=60, threads=1, comm=comm, **opts)
        results[name] = {"status": res.status, "objective": res.objective,
                         "iterations": res.iterations, "sol": sol if write_sol else None}
    if comm is None or comm.Get_rank() == 0:
        with open(out, "w") as f:
            json.dump(results, f, indent=0)


def objective_close(a, b):
    return a is not None and b is not None and math.isfinite(a) and abs(a - b) <= 1e-6 * (1 + abs(b))


def certificate_ok(binary, model, sol):
    if not binary or not sol or not os.path.exists(sol):
        return binary is None
    return subprocess.run([binary, "check", model, sol], capture_output=True).returncode == 0


def cmd_compare(ref_path, out_path, binary=None):
    ref, got = json.load(open(ref_path)), json.load(open(out_path))
    directory = os.path.dirname(os.path.abspath(out_path))
    counts = {"lps": 0, "skipped": 0, "right": 0, "wrong": 0, "undecided": 0,
              "certificates": 0, "bad_certificates": 0}
    per_status = {}
    problems = []
    for name, want in sorted(ref.items()):
        if want["status"] not in DECIDED:
            counts["skipped"] += 1  # HiGHS itself decided nothing
            continue
        counts["lps"] += 1
        per_status[want["status"]] = per_status.get(want["status"], 0) + 1
        have = got.get(name)
        status = AS_HIGHS.get(have["status"]) if have else None
        if status is None:
            counts["undecided"] += 1
            problems.append((name, want["status"], have and have["status"]))
            continue
        right = status == want["status"] and (
            status != "Optimal" or objective_close(have["objective"], want["objective"]))
        if not right:
            counts["wrong"] += 1
            problems.append((name, want, have))
            continue
        counts["right"] += 1
        if status != "Optimal" and binary:
            counts["certificates"] += 1
            model = have.get("model") or os.path.join(os.path.dirname(ref_path), name)
            if not certificate_ok(binary, model, have.get("sol")):
                counts["bad_certificates"] += 1
                problems.append((name, "certificate rejected", have.get("sol")))
    print(json.dumps({"counts": counts, "highs_statuses": per_status}))
    for p in problems[:20]:
        print("problem:", p)
    return 0 if counts["wrong"] == 0 and counts["bad_certificates"] == 0 and counts["undecided"] == 0 else 1


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    cmd, args = argv[1], argv[2:]
    flags = {a: args[k + 1] for k, a in enumerate(args) if a in ("--grid", "--tol", "--check")}
    plain = [a for k, a in enumerate(args)
             if not a.startswith("--") and (k == 0 or args[k - 1] not in flags)]
    if cmd == "gen":
        cmd_gen(*plain)
    elif cmd == "highs":
        cmd_highs(*plain)
    elif cmd == "solve":
        cmd_solve(plain[0], plain[1], flags.get("--grid", "1x1"), float(flags.get("--tol", 1e-8)),
                  "--sol" in args)
    elif cmd == "compare":
        return cmd_compare(plain[0], plain[1], flags.get("--check"))
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
