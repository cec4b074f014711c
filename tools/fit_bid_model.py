#!/usr/bin/env python3
"""Fits pimc's bidding model: declarer's own hand (and a trump) -> double-dummy tricks.

Data: tests/data/dd_oracle_2000.jsonl (2,000 deals x 4 declarers x 4 trumps). Deals 0..1499
fit a least-squares linear model of the declaring team's tricks on the features below (the
same ones src/bots/bid_model.cpp computes); deals 1500..1999 are held out to report its error.
The residual standard deviation turns the mean into P(tricks >= L) (normal approximation).
Prints the C++ constants to paste into src/bots/bid_model.cpp. Standard library only.
"""
import json, math, sys

RANKS = "23456789TJQKA"
SUITS = "CDHS"

def parse(hand):
    cards = {s: set() for s in SUITS}
    for w in hand.split():
        r, s = w[:-1], w[-1]
        if r == "10": r = "T"
        cards[s].add(RANKS.index(r))
    return cards

def features(cards, trump):
    t = cards[trump]
    side = [cards[s] for s in SUITS if s != trump]
    hcp = lambda c: sum(max(0, r - 8) for r in c)  # J=1 Q=2 K=3 A=4
    return [
        1.0,
        len(t),
        max(len(t) - 4, 0),
        float(12 in t), float(11 in t), float(10 in t), float(9 in t),
        sum(hcp(c) for c in side),
        sum(12 in c for c in side),
        sum(11 in c for c in side),
        sum(len(c) == 0 for c in side),
        sum(len(c) == 1 for c in side),
        max(len(c) for c in side),
    ]

NAMES = ["intercept", "trump_len", "trump_len_over_4", "trump_A", "trump_K", "trump_Q", "trump_J",
         "side_hcp", "side_aces", "side_kings", "side_voids", "side_singletons", "longest_side"]

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

def main(path):
    rows = [json.loads(l) for l in open(path) if l.strip()]
    data = []
    for d in rows:
        hands = [parse(h) for h in d["hands"]]
        for seat in range(4):
            for trump in SUITS:
                data.append((d["id"], features(hands[seat], trump), d["tricks"][trump][seat]))
    train = [(x, y) for i, x, y in data if i < 1500]
    test = [(x, y) for i, x, y in data if i >= 1500]
    k = len(NAMES)
    A = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y in train:
        for i in range(k):
            b[i] += x[i] * y
            for j in range(k):
                A[i][j] += x[i] * x[j]
    w = solve(A, b)
    pred = lambda x: sum(a * c for a, c in zip(w, x))
    sd = math.sqrt(sum((pred(x) - y) ** 2 for x, y in train) / (len(train) - k))
    rmse = math.sqrt(sum((pred(x) - y) ** 2 for x, y in test) / len(test))
    mae = sum(abs(pred(x) - y) for x, y in test) / len(test)
    print(f"// fitted on {len(train)} (deal, seat, trump) rows; held-out {len(test)} rows: "
          f"RMSE {rmse:.3f}, MAE {mae:.3f}; residual sd {sd:.3f}")
    print("constexpr std::array<double, %d> kBidWeights{" % k)
    for n, c in zip(NAMES, w):
        print(f"    {c:+.5f},  // {n}")
    print("};")
    print(f"constexpr double kBidSd = {sd:.4f};")

if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/dd_oracle_2000.jsonl")
