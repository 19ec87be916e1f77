#!/usr/bin/env python3
"""DIR/runs.csv as a Markdown table in DIR/table.md, under DIR/header.txt, and printed.

usage: python3 bench/csv_table.py DIR COLUMN=TITLE ... [--footer TEXT]
Each COLUMN is a runs.csv field; a column "a+b" shows field a with field b in
parentheses. Used by bench/rq1.sh and bench/rq3.sh."""
import csv
import os
import sys


def cell(row, column):
    first, _, second = column.partition("+")
    return f"{row[first]} ({row[second]})" if second else row[first]


def main(argv):
    out, specs, footer = argv[0], [], []
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == "--footer":
            footer.append(args.pop(0))
        else:
            specs.append(a.split("=", 1))
    rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
    lines = open(os.path.join(out, "header.txt")).read().splitlines()
    lines += ["", "| " + " | ".join(title for _, title in specs) + " |",
              "|" + "---|" * len(specs)]
    for r in rows:
        lines.append("| " + " | ".join(cell(r, col) for col, _ in specs) + " |")
    if footer:
        lines += [""] + footer
    open(os.path.join(out, "table.md"), "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1:])
