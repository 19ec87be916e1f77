# Sourced by the test scripts (docs/testing.md). `need FILE...` is true when every file
# exists; otherwise it prints one "skipped: corpus not found (FILE)" line, notes the skip
# in $SLP_SKIP_LOG (make test counts them) and is false:
#     need "$SHARED/lp/meszaros/dbir1.mps.gz" && { ...the check... }
need() {
    local f
    for f in "$@"; do
        if [ ! -e "$f" ]; then
            echo "skipped: corpus not found ($f)"
            [ -n "${SLP_SKIP_LOG:-}" ] && echo "$(basename "$0"): $f" >> "$SLP_SKIP_LOG"
            return 1
        fi
    done
    return 0
}
