"""shardlp: a distributed first-order LP solver (Python interface over libshardlp.so).

    import shardlp
    model = shardlp.read("afiro.mps")                     # or shardlp.Model(c, A, lc, uc, lv, uv)
    res = model.solve(tol=1e-6, time_limit=60, threads=4)
    print(res.status, res.objective, res.x, res.y, res.reduced_costs, res.times)
    with shardlp.Solver(model, tol=1e-6) as s:          # a session: set up once,
        s.update(c=new_costs); res2 = s.solve()          # solve changes warm

See docs/python.md. Modelling tools: shardlp.pyomo_plugin (Pyomo); PuLP uses the
`shardlp` binary through pulp.HiGHS_CMD (docs/modelling-tools.md).
"""
from ._lib import API_VERSION, ErrorCode, InputError, LibraryNotFoundError, ShardlpError, find_library
# Importing model loads the library and checks its API version (a mismatch raises
# LibraryNotFoundError, an ImportError): `import shardlp` fails clearly rather than
# misreading a stale library's structs later.
from .model import (STATUS_NAMES, Model, Result, ShardResult, Status, rank, ranks, read,
                    solve_shards, version)
from .settings import TOOL_TOL, Settings, options
from .solver import Solver
from .crossover import Vertex, crossover

__all__ = ["Model", "Result", "read", "version", "ShardlpError", "InputError",
           "LibraryNotFoundError", "find_library", "STATUS_NAMES", "Status", "ErrorCode",
           "API_VERSION", "Settings", "options", "TOOL_TOL", "rank", "ranks", "solve_shards",
           "ShardResult", "Solver", "Vertex", "crossover"]
__version__ = "0.1.0"
