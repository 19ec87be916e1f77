#!/bin/bash
# Regenerate the options table of docs/cli.md from the binary's option table
# (src/run/option_table.c). Usage: scripts/gen-cli-docs.sh [path/to/shardlp]
set -euo pipefail
BIN=${1:-build/shardlp}
DOC=$(dirname "$0")/../docs/cli.md
TABLE=$(mktemp)
"$BIN" options --markdown > "$TABLE"
python3 - "$DOC" "$TABLE" <<'PY'
import sys
doc, table = sys.argv[1], open(sys.argv[2]).read()
text = open(doc).read()
begin, end = "<!-- options:begin -->\n", "<!-- options:end -->"
a, b = text.index(begin) + len(begin), text.index(end)
open(doc, "w").write(text[:a] + table + text[b:])
PY
rm -f "$TABLE"
