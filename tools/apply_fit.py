#!/usr/bin/env python3
"""Replaces the constants between `// FIT-BEGIN NAME` and `// FIT-END NAME` in FILE with the
`constexpr` lines fit_bidding.py printed (read from standard input).
Usage: python3 tools/fit_bidding.py DATA.csv heuristic | python3 tools/apply_fit.py src/bots/heuristic_bot.cpp heuristic"""
import sys

path, name = sys.argv[1], sys.argv[2]
lines = [l.rstrip("\n") for l in sys.stdin if l.startswith("constexpr") or l.startswith("//")]
src = open(path).read()
b, e = f"// FIT-BEGIN {name}\n", f"// FIT-END {name}\n"
i, j = src.index(b) + len(b), src.index(e)
src = src[:i] + "\n".join(lines) + "\n" + src[j:]
open(path, "w").write(src)
