"""The `shardlp` command a wheel installs: it runs the program bundled in the package
(shardlp/bin/shardlp) with the same arguments, in the same process (exec), so signals,
exit status and output are the program's own (docs/install.md)."""
import os
import sys
from pathlib import Path


def bundled_program():
    """Path of the program inside the installed package, or None (a source tree)."""
    path = Path(__file__).resolve().parent / "bin" / "shardlp"
    return str(path) if os.access(path, os.X_OK) else None


def main():
    program = bundled_program() or os.environ.get("SHARDLP_BIN")
    if not program:
        sys.stderr.write("shardlp: this package carries no shardlp program (installed from a "
                         "source tree?); build it with `make build` or set SHARDLP_BIN\n")
        return 6
    os.execv(program, [program, *sys.argv[1:]])
    return 127  # not reached: execv replaces the process or raises OSError


if __name__ == "__main__":
    sys.exit(main())
