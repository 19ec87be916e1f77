"""Cycles in the file graph of a source folder (tests/cli/layering.sh): file A depends on
file B when A names a function or object that B defines with external linkage. Prints
each cycle found and exits 1 if there is one.
Usage: python3 file_cycles.py DIR"""
import os
import re
import sys

DEF = re.compile(r"^(?!static\b)(?:const\s+)?[A-Za-z_][\w \*]*?\b([a-z_][a-z0-9_]*)\s*(?:\(|\[\]\s*=|\s*=)", re.M)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


def main(folder):
    files = sorted(f for f in os.listdir(folder) if f.endswith(".c"))
    body = {f: strip_comments(open(os.path.join(folder, f)).read()) for f in files}
    defined = {}
    for f in files:
        for m in DEF.finditer(body[f]):
            name = m.group(1)
            if name not in ("if", "for", "while", "return", "switch", "sizeof"):
                defined.setdefault(name, f)
    deps = {f: set() for f in files}
    for f in files:
        for name in set(re.findall(r"\b[a-z_][a-z0-9_]*\b", body[f])):
            g = defined.get(name)
            if g and g != f:
                deps[f].add(g)
    cycles, state, stack = [], {}, []

    def visit(f):
        state[f] = 1
        stack.append(f)
        for g in sorted(deps[f]):
            if state.get(g) == 1:
                cycles.append(stack[stack.index(g):] + [g])
            elif not state.get(g):
                visit(g)
        stack.pop()
        state[f] = 2

    for f in files:
        if not state.get(f):
            visit(f)
    for c in cycles:
        print("cycle in %s: %s" % (folder, " -> ".join(c)))
    return 1 if cycles else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
