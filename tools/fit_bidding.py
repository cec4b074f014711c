#!/usr/bin/env python3
"""Fits the levantine bidding of the computer players to data (docs/bots.md "Bidding fitted to data").

Input: the CSV of bench/bid_data (one row per call decision of an auction, with what the
calling seat's team would take as declarer and as defender). Two least-squares linear models,
each with its residual standard deviation (a normal spread turns the mean into chances):

  declarer: team tricks if this seat declares, on
            [1, x, P, P*x, Q, Q*x, P*partner_bid, opp_bids]
  defender: team tricks if the standing (opponent's) high bid is left to play, on
            [1, x, high, P, Q]

x is the seat's own hand value: `est` (the heuristic's estimate_tricks, target `play_*`: the
heuristic's own card play) or `model` (pimc's model, target `dd_*`: double-dummy tricks);
P = the partner bid (its first bid is partner_bid), Q = the partner passed without bidding.
The spread of the declarer model is given separately for the three partner states.

Usage (the numbers in src/bots/*.cpp were made by exactly these commands):
  build/release/bench/bid_data --deals 100000 --seed 77 > /tmp/bid_heuristic.csv
  python3 tools/fit_bidding.py /tmp/bid_heuristic.csv heuristic
  build/release/bench/bid_data --deals 1500 --seed 2026 --dd --tables-out /tmp/dd_2026.jsonl > /dev/null
  build/release/bench/bid_data --bot pimc --tables-in /tmp/dd_2026.jsonl --deals 1500 > /tmp/bid_pimc1.csv
  build/release/bench/bid_data --bot pimc --tables-in tests/data/dd_oracle_2000.jsonl --deals 2000 > /tmp/bid_pimc2.csv
  python3 tools/fit_bidding.py /tmp/bid_pimc1.csv /tmp/bid_pimc2.csv pimc
Deals whose id is 4 mod 5 are held out (the RMSE printed), the others fitted; several CSV
files may be given (their rows are pooled). Standard library only.
"""
import csv, math, sys


def solve(A, b):
    n = len(b)
    M = [row[:] + [b[i]] for i, row in enumerate(A)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(M[r][c]))
        M[c], M[p] = M[p], M[c]
        for r in range(n):
            if r != c and M[c][c] != 0:
                f = M[r][c] / M[c][c]
                M[r] = [x - f * y for x, y in zip(M[r], M[c])]
    return [M[i][n] / M[i][i] for i in range(n)]


def fit(rows):
    k = len(rows[0][0])
    A = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y in rows:
        for i in range(k):
            b[i] += x[i] * y
            for j in range(k):
                A[i][j] += x[i] * x[j]
    return solve(A, b)


def pred(w, x):
    return sum(a * c for a, c in zip(w, x))


def rmse(w, rows):
    return math.sqrt(sum((pred(w, x) - y) ** 2 for x, y in rows) / max(1, len(rows)))


def main(paths, which):
    xcol, decl, dfd = ("est", "play_decl", "play_def") if which == "heuristic" else ("model", "dd_decl", "dd_def")
    rows = []
    for i, path in enumerate(paths):
        for r in csv.DictReader(open(path)):
            r["file"] = i
            rows.append(r)
    D, F = [], []  # (held out, state, x, y)
    for r in rows:
        x = float(r[xcol])
        pb = int(r["partner_bid"])
        P = 1.0 if pb > 0 else 0.0
        Q = 1.0 if pb == 0 and r["partner_passed"] == "1" else 0.0
        state = 1 if P else (2 if Q else 0)
        d = int(r["deal"]) % 5 == 4  # every fifth deal is held out
        D.append((d, state, [1.0, x, P, P * x, Q, Q * x, P * pb, float(r["opp_bids"])], float(r[decl])))
        if r["high_rel"] == "2" and int(r[dfd]) >= 0:
            F.append((d, state, [1.0, x, float(r["high"]), P, Q], float(r[dfd])))
    out = []
    for name, data, names in (("decl", D, ["1", "x", "P", "P*x", "Q", "Q*x", "P*partner_bid", "opp_bids"]),
                              ("def", F, ["1", "x", "high", "P", "Q"])):
        train = [(x, y) for d, s, x, y in data if not d]
        test = [(x, y) for d, s, x, y in data if d]
        w = fit(train)
        sds = []
        for st in (0, 1, 2):
            rs = [(x, y) for d, s, x, y in data if not d and s == st]
            sds.append(rmse(w, rs) if rs else 0.0)
        print(f"// {which} {name}: {len(train)} rows fitted (deal ids not 4 mod 5), held-out RMSE {rmse(w, test):.3f} "
              f"on {len(test)} rows; residual sd by partner state (unknown, bid, passed) "
              + ", ".join(f"{s:.3f}" for s in sds))
        print(f"//   weights on [{', '.join(names)}]")
        out.append((name, w, sds))
    for name, w, sds in out:
        print(f"constexpr std::array<double, {len(w)}> k{which.capitalize()}{name.capitalize()}{{"
              + ", ".join(f"{c:+.4f}" for c in w) + "};")
        print(f"constexpr std::array<double, 3> k{which.capitalize()}{name.capitalize()}Sd{{"
              + ", ".join(f"{c:.4f}" for c in sds) + "};")


if __name__ == "__main__":
    # fit_bidding.py DATA.csv [DATA2.csv ...] heuristic|pimc
    main(sys.argv[1:-1], sys.argv[-1])
