"""The Python side of a solve's callbacks (docs/python.md, "Log, callbacks, Ctrl-C"):
the log through sys.stdout (or the caller's function), the caller's progress callback,
Ctrl-C, and the MPI communicator of mpi4py."""
import ctypes
import signal
import sys
import threading

from ._lib import LOG_CALLBACK, PROGRESS_CALLBACK, check, lib

PROGRESS_FIELDS = ("iteration", "seconds", "objective", "dual_objective", "abs_primal_residual",
                   "abs_dual_residual", "rel_primal_residual", "rel_dual_residual", "rel_gap",
                   "primal_weight")


def _print_to_stdout(text):
    # looked up at each line, so contextlib.redirect_stdout and Jupyter see it
    sys.stdout.write(text)


class SolveHooks:
    """Install on a Settings handle for one solve; read .interrupted / .error after it.

    Ctrl-C: during the solve SIGINT has a handler that only records it (Python runs
    handlers between bytecodes, here at the entry of the next hook, where an exception
    could not be caught); the progress hook, called at every check, runs pending
    handlers (PyErr_CheckSignals), sees the record and asks the solver to stop
    (status interrupted); finish() restores the previous handler and raises
    KeyboardInterrupt."""

    def __init__(self, settings, callback=None, log=None):
        self.callback = callback
        self.log = log
        self.interrupted = False
        self.error = None
        if settings is not None:  # else the caller's trampolines call on_progress / on_log
            self._progress = PROGRESS_CALLBACK(self.on_progress)  # kept alive with self
            self._log = LOG_CALLBACK(self.on_log)
            L = lib()
            check(L.shardlp_set_progress_callback(settings.handle, self._progress, None),
                  "callback")
            if log is not None:
                check(L.shardlp_set_log_callback(settings.handle, self._log, None),
                      "log callback")
        self._old_sigint = None
        if threading.current_thread() is threading.main_thread():
            self._old_sigint = signal.signal(signal.SIGINT, self._on_sigint)

    def _on_sigint(self, signum, frame):
        if self.interrupted:  # a second Ctrl-C: the previous behaviour, now
            signal.signal(signal.SIGINT, self._old_sigint or signal.default_int_handler)
            raise KeyboardInterrupt
        self.interrupted = True

    def on_progress(self, p, user):
        try:
            # Run Python's pending signal handlers now: a Ctrl-C that arrived while the
            # library computed raises KeyboardInterrupt here.
            ctypes.pythonapi.PyErr_CheckSignals()
            if self.interrupted or self.error is not None:
                return 1
            if self.callback is None:
                return 0
            info = {name: getattr(p.contents, name) for name in PROGRESS_FIELDS}
            info["restarted"] = bool(p.contents.restarted)
            return 1 if self.callback(info) else 0
        except KeyboardInterrupt:
            self.interrupted = True
            return 1
        except BaseException as e:  # the caller's callback failed: stop, re-raise after
            self.error = e
            return 1

    def on_log(self, text, user):
        try:
            self.log(text.decode(errors="replace"))
        except KeyboardInterrupt:
            self.interrupted = True  # the next check stops the solve
        except BaseException as e:
            self.error = e

    def restore(self):
        """After the solve (also when it failed): the previous SIGINT handler back."""
        if self._old_sigint is not None:
            signal.signal(signal.SIGINT, self._old_sigint)
            self._old_sigint = None

    def finish(self, result):
        """After the solve: re-raise what happened inside a hook."""
        self.restore()
        if self.error is not None:
            raise self.error
        if self.interrupted:
            err = KeyboardInterrupt("shardlp: solve interrupted (Ctrl-C); the iterate at the "
                                    "stop is in this exception's .result")
            err.result = result
            raise err


def log_setup(verbose, log_callback):
    """(what receives the log, the verbosity option): the caller's function, or
    sys.stdout when verbose, or none; verbose=2 logs every check."""
    log = log_callback if log_callback is not None else (_print_to_stdout if verbose else None)
    verbosity = 2 if verbose == 2 else (1 if log is not None else 0)
    return log, verbosity


def run_with_hooks(what, settings, callback, log, call, make_result, hooks=None):
    """call() (the library's solve, returning its code; errors name `what`) with the
    hooks installed on `settings` (or `hooks`, already reached by the caller's own
    trampolines), then make_result(); what happened inside a hook is re-raised with
    the result."""
    if hooks is None:
        hooks = SolveHooks(settings, callback=callback, log=log)
    try:
        check(call(), what)
    finally:
        hooks.restore()
    result = make_result()
    hooks.finish(result)
    return result


_comm_in_use = None


def use_communicator(comm):
    """Solve on an mpi4py communicator from now on (collective over it). Once per
    process: a second, different communicator is refused."""
    global _comm_in_use
    if comm is None:
        return
    if _comm_in_use is not None:
        if comm is not _comm_in_use and comm != _comm_in_use:
            raise ValueError("shardlp already solves on another communicator in this process")
        return
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise ImportError("comm= needs mpi4py (pip install mpi4py)") from e
    handle = ctypes.c_void_p(MPI._addressof(comm))
    check(lib().shardlp_init_comm(handle), "init_comm")
    _comm_in_use = comm
