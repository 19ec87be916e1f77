"""Solver settings: a handle on the library's option table (docs/cli.md lists the
options). Every keyword of Model.solve and Settings goes through
shardlp_set_option, so names, ranges and messages are the command line's."""
import ctypes
import functools
import numbers
import os

from ._lib import check, lib, release

# The default tolerance of every modelling-tool route (PuLP, Pyomo, linopy, cvxpy and the
# command line called as HiGHS is): HiGHS's feasibility tolerance, the CLI's
# SLP_HIGHS_STYLE_TOL (src/run/run_options.h), at which an "optimal" answer's duals are
# usable (docs/modelling-tools.md, "One tolerance"; python/tests/test_tolerance_routes.py
# checks that the two agree). Model.solve's own default stays the method's 1e-4.
TOOL_TOL = 1e-7


def options():
    """{name: (kind, help)} of every option, in the library's order."""
    L = lib()
    out = {}
    for k in range(L.shardlp_option_count()):
        name = L.shardlp_option_name(k).decode()
        out[name] = (L.shardlp_option_kind(k).decode(), L.shardlp_option_help(k).decode())
    return out


@functools.lru_cache(maxsize=None)
def _kinds():
    """The kind of every option by its Python name (the table does not change)."""
    return {name.replace("-", "_"): kind for name, (kind, _) in options().items()}


def _text(name, kind, value):
    """The option's value as the library reads it; TypeError for a wrong type."""
    if kind in ("bool", "flag"):
        if isinstance(value, str):
            return value
        return "true" if value else "false"
    if kind in ("real", "integer"):
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name}: expected a number, got {value!r}")
        if kind == "integer":
            if int(value) != value:
                raise TypeError(f"{name}: expected an integer, got {value!r}")
            return str(int(value))
        return repr(float(value))
    if kind == "grid" and isinstance(value, (tuple, list)) and len(value) == 2:
        return f"{int(value[0])}x{int(value[1])}"
    if not isinstance(value, (str, bytes)) and not hasattr(value, "__fspath__"):
        raise TypeError(f"{name}: expected text, got {value!r}")
    return value if isinstance(value, str) else os.fsdecode(value)


class Settings:
    """Settings(tol=1e-6, presolve=False, grid=(2, 2), ...): any option of
    `shardlp solve --help`, with '_' for '-'. Values are checked when set."""

    def __init__(self, **values):
        self._h = ctypes.c_void_p()
        check(lib().shardlp_settings_create(ctypes.byref(self._h)), "settings")
        self._kinds = _kinds()
        for name, value in values.items():
            if value is not None:
                self[name] = value

    def __setitem__(self, name, value):
        kind = self._kinds.get(name.replace("-", "_"))
        if kind is None:
            raise ValueError(f"unknown option '{name}' (shardlp.settings.options() lists them)")
        text = _text(name, kind, value)
        check(lib().shardlp_set_option(self._h, name.encode(), text.encode()), "settings")

    def __getitem__(self, name):
        buf = ctypes.create_string_buffer(4096)
        check(lib().shardlp_get_option(self._h, name.encode(), buf, len(buf)), "settings")
        return buf.value.decode()

    @property
    def handle(self):
        return self._h

    def __del__(self):
        release(lib().shardlp_settings_destroy, getattr(self, "_h", None))
