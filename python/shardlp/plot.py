"""Convergence pictures from `shardlp solve --log-csv TRACE.csv` traces (docs/python.md):

    python -m shardlp.plot TRACE.csv [MORE.csv ...] -o OUT.png [--title T]

Two panels, against iterations and against seconds: the relative primal residual, the
relative dual residual and the relative gap on a log scale, one colour per trace and one
line style per quantity; restarts are marked on the primal residual. matplotlib is
needed (pip install matplotlib); the module imports it only when drawing."""
import argparse
import csv
import os
import sys

QUANTITIES = (("rel_primal_residual", "-", "primal residual"),
              ("rel_dual_residual", "--", "dual residual"),
              ("rel_gap", ":", "gap"))


def read_trace(path):
    """{column: [float, ...]} of one trace file."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise ValueError(f"{path}: no rows (is it a --log-csv trace?)")
    missing = {"iteration", "seconds"}.union(q for q, _, _ in QUANTITIES) - set(rows[0])
    if missing:
        raise ValueError(f"{path}: not a --log-csv trace (no column {sorted(missing)[0]})")
    return {key: [float(r[key]) for r in rows] for key in rows[0]}


def _positive(values):
    """Log scales cannot show 0: such points are drawn at the smallest positive value."""
    floor = min((v for v in values if v > 0), default=1e-16)
    return [v if v > 0 else floor for v in values]


def draw(traces, out, title=None):
    """traces: [(label, data)]; writes the figure to `out` (PNG, or any matplotlib format)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), constrained_layout=True)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (label, data) in enumerate(traces):
        colour = colours[k % len(colours)]
        for ax, xkey in zip(axes, ("iteration", "seconds")):
            for key, style, name in QUANTITIES:
                ax.plot(data[xkey], _positive(data[key]), style, color=colour,
                        label=f"{label}: {name}" if len(traces) > 1 else name)
            restarts = data.get("restarts")
            if restarts:
                marks = [i for i in range(1, len(restarts)) if restarts[i] > restarts[i - 1]]
                ax.plot([data[xkey][i] for i in marks],
                        _positive([data["rel_primal_residual"][i] for i in marks]), "o",
                        color=colour, markersize=3, alpha=0.6)
    for ax, xlabel in zip(axes, ("iterations", "seconds")):
        ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel("relative residual / gap")
        ax.grid(True, which="major", alpha=0.3)
    axes[0].legend(fontsize=8, loc="upper right")
    fig.suptitle(title or "shardlp convergence (dots: restarts)")
    fig.savefig(out, dpi=110)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m shardlp.plot", description=__doc__.split("\n")[0])
    parser.add_argument("traces", nargs="+", help="--log-csv files")
    parser.add_argument("-o", "--output", required=True, help="picture to write (e.g. out.png)")
    parser.add_argument("--title", default=None)
    args = parser.parse_args(argv)
    try:
        traces = [(os.path.splitext(os.path.basename(p))[0], read_trace(p)) for p in args.traces]
    except (OSError, ValueError) as e:
        print(f"shardlp.plot: error: {e}", file=sys.stderr)
        return 1
    try:
        draw(traces, args.output, args.title)
    except ImportError:
        print("shardlp.plot: error: matplotlib is not installed (pip install matplotlib)",
              file=sys.stderr)
        return 1
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
