#!/usr/bin/env python3
"""Fits the learned card policy (include/tarneeb/bots/card_policy.hpp) to double-dummy labels.

    build/release/bench/card_policy_data --deals 2000 --seed 101 --rules levantine --out lev_a.f32
    build/release/bench/card_policy_data --deals 2000 --seed 102 --rules classic --out cla_a.f32
    /usr/bin/python3 tools/train_card_policy.py lev_a.f32 cla_a.f32 [--write src/bots/card_policy_weights.cpp --recipe "..."]

(docs/analysis.md "A learned card player" has the committed weights' whole recipe: the rounds
of positions, seeds and sizes.)

Rows (bench/card_policy_data.cpp): position id, the side to play's double-dummy tricks with the
card, the declaring team's double-dummy total, declaring?, bid, classic?, then the features.
Each legal card's worth for the side to play is its double-dummy score in points (the preset's
scoring: the contract made or set, net of the other side's points) plus --tie (0.25) a trick;
the best cards of a position are those of the highest worth. The model (score = linear . x +
w2 . relu(W1 x + b1)) is a softmax over the legal cards fitted to put its mass on the best
cards (the log of the probability of the best set), by Adam on minibatches of positions, seeded
(--seed), deterministic. Deals whose id is 4 mod 5 are held out: printed on them are, for the
heuristic's card and for the model's (at a few margins over the heuristic's score), the share
of positions where the card is a best one, the mean double-dummy cost in points and in tricks,
and the share of decisions where the model overrides the heuristic. Needs numpy (Debian:
apt-get install python3-numpy). --ensemble K fits K nets (training seeds seed .. seed + K - 1),
whose mean score is the policy's; --with FILE puts an earlier weights file's nets first (padded
with zero weights if it had fewer features); --raw FILE also writes the nets as float32 for
TARNEEB_LEARNED_WEIGHTS (bench/bot_specs.hpp). --regret adds the expected regret in points to the loss
(tried, not used for the committed weights). FEATURES must match CardFeatures (card_policy.cpp)
and HIDDEN kPolicyHidden (card_policy.hpp).
"""
import argparse
import re
import sys
import time

import numpy as np

FEATURES = ["lead", "second", "third", "fourth", "declaring", "need_share", "opp_need_share", "trick_no",
            "unseen_trumps", "own_trumps", "partner_winning", "winning_rank", "winning_trump", "classic", "bid",
            "heuristic", "rank", "trump", "follows", "ruffs", "discards", "wins_now", "cheapest_winner",
            "overtakes_partner", "higher_unseen", "master", "second_best", "own_len", "own_higher", "unseen_in_suit",
            "lowest_equal", "top_of_sequence", "lowest_legal", "highest_legal", "later_beaters", "later_ruffers",
            "partner_void", "partner_led_suit", "opp_led_suit", "i_led_suit", "away_from_guard", "singleton",
            "p_left_higher", "p_right_higher", "p_partner_higher", "len_left", "len_right", "len_partner",
            "winners_in_suit", "winners", "trumps_left", "trumps_right", "trumps_partner", "partner_safe",
            "p_void_left", "p_void_right", "p_void_partner", "p_top_left", "p_top_right", "p_top_partner",
            "equivalents", "ruff_discard_lead", "lowest_in_suit", "highest_in_suit"]
F = len(FEATURES)
HIDDEN = 32  # kPolicyHidden (card_policy.hpp)
HEURISTIC = FEATURES.index("heuristic")


def load(paths, tie):
    """Features, worth (points + tie * tricks), tricks, points (for the side to play), position
    group per row, and whether the row's deal is held out (id 4 mod 5)."""
    xs, worth, tricks, points, group, held = [], [], [], [], [], []
    base = 0
    for path in paths:
        raw = np.fromfile(path, dtype=np.float32)
        if raw.size % (6 + F):
            sys.exit(f"{path}: {raw.size} floats is not a whole number of {6 + F}-float rows")
        rows = raw.reshape(-1, 6 + F)
        pos = rows[:, 0].astype(np.int64)
        new = np.ones(len(pos), dtype=bool)
        new[1:] = pos[1:] != pos[:-1]
        group.append(np.cumsum(new) - 1 + base)
        base = group[-1][-1] + 1
        side_tricks, total, declaring, bid, classic = (rows[:, i].astype(np.float64) for i in range(1, 6))
        made = total >= bid
        declarers = np.where(made, np.where(classic > 0, total, bid), -bid)
        defenders = np.where(made, 0, 13 - total)
        net = (declarers - defenders) * np.where(declaring > 0, 1, -1)
        points.append(net)
        worth.append(net + tie * side_tricks)
        tricks.append(side_tricks)
        held.append(pos // 52 % 5 == 4)
        xs.append(rows[:, 6:].astype(np.float64))
    cat = np.concatenate
    return cat(xs), cat(worth), cat(tricks), cat(points), cat(group), cat(held)


class Groups:
    """Positions as contiguous runs of rows: starts, lengths, and the rows of a set of positions."""

    def __init__(self, group):
        self.starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
        self.lens = np.diff(np.r_[self.starts, len(group)])

    def rows(self, idx):
        lens = self.lens[idx]
        first = np.cumsum(lens) - lens
        return np.repeat(self.starts[idx] - first, lens) + np.arange(lens.sum()), first, lens


def group_softmax(s, first, lens):
    m = np.repeat(np.maximum.reduceat(s, first), lens)
    e = np.exp(s - m)
    return e / np.repeat(np.add.reduceat(e, first), lens)


def scores(params, x):
    w1, b1, w2, v = params
    h = x @ w1.T + b1
    a = np.maximum(h, 0)
    return a @ w2 + x @ v, h, a


def train(x, best, groups, idx, seed, epochs, batch, lr, l2, regret=None, regret_weight=0.0, features=F):
    """Adam on -log p(best set) + regret_weight * the expected regret (sum of p times the worth
    given away against the best card, in points) over minibatches of positions. Only the first
    `features` inputs are used (the others' weights stay 0)."""
    rng = np.random.default_rng(seed)
    params = [rng.normal(0, 1 / np.sqrt(F), (HIDDEN, F)), np.zeros(HIDDEN), rng.normal(0, 0.1, HIDDEN), np.zeros(F)]
    params[0][:, features:] = 0  # their gradients are 0 too: x is 0 there (main)
    m = [np.zeros_like(p) for p in params]
    s2 = [np.zeros_like(p) for p in params]
    step = 0
    for epoch in range(epochs):
        order = rng.permutation(idx)
        total = 0.0
        for b in range(0, len(order), batch):
            rows, first, lens = groups.rows(order[b:b + batch])
            xb, bb = x[rows], best[rows]
            s, h, a = scores(params, xb)
            p = group_softmax(s, first, lens)
            pbest = np.add.reduceat(p * bb, first)
            total += -np.log(np.maximum(pbest, 1e-12)).sum()
            ds = p - p * bb / np.repeat(pbest, lens)
            if regret_weight:
                rb = regret[rows]
                expected = np.repeat(np.add.reduceat(p * rb, first), lens)
                total += regret_weight * (p * rb).sum()
                ds = ds + regret_weight * p * (rb - expected)
            ds = ds / len(lens)
            da = np.outer(ds, params[2]) * (h > 0)
            grads = [da.T @ xb + l2 * params[0], da.sum(0), a.T @ ds, xb.T @ ds]
            step += 1
            for i, g in enumerate(grads):
                m[i] = 0.9 * m[i] + 0.1 * g
                s2[i] = 0.999 * s2[i] + 0.001 * g * g
                params[i] -= lr * (m[i] / (1 - 0.9 ** step)) / (np.sqrt(s2[i] / (1 - 0.999 ** step)) + 1e-8)
        print(f"  epoch {epoch + 1}: loss {total / len(order):.4f}", flush=True)
    return params


def evaluate(name, nets, x, worth, tricks, points, best, groups, idx, margins):
    """The double-dummy cost of the heuristic's card and of the policy's (the mean score of the
    folded `nets` on the raw features x) on the positions idx."""
    rows, first, lens = groups.rows(idx)
    xr, w, t, pts = x[rows], worth[rows], tricks[rows], points[rows]
    heur = xr[:, HEURISTIC] > 0.5
    top_w = np.repeat(np.maximum.reduceat(w, first), lens)
    top_t = np.repeat(np.maximum.reduceat(t, first), lens)
    top_p = np.repeat(np.maximum.reduceat(pts, first), lens)
    s = sum(scores(net, xr)[0] for net in nets) / len(nets)
    hs = np.repeat(np.add.reduceat(np.where(heur, s, 0), first), lens)
    print(f"{name}: {len(idx)} positions")
    print(f"  {'player':<22} {'best':>6} {'points cost':>12} {'tricks cost':>12} {'overrides':>10}")

    def line(label, chosen):
        n = len(idx)
        is_best = np.add.reduceat(chosen * (w >= top_w - 1e-9), first).sum() / n
        pc = np.add.reduceat(chosen * (top_p - pts), first).sum() / n
        tc = np.add.reduceat(chosen * (top_t - t), first).sum() / n
        over = np.add.reduceat(chosen * ~heur, first).sum() / n
        print(f"  {label:<22} {is_best:6.4f} {pc:12.4f} {tc:12.4f} {over:10.4f}")
        return pc

    line("heuristic", heur.astype(float))
    out = {}
    for margin in margins:
        # the best-scoring card, the heuristic's unless another is more than `margin` above it
        top_s = np.repeat(np.maximum.reduceat(s, first), lens)
        first_top = (s >= top_s) & (np.arange(len(s)) == np.repeat(
            np.minimum.reduceat(np.where(s >= top_s, np.arange(len(s)), len(s)), first), lens))
        keep = np.repeat(np.maximum.reduceat(s, first) <= np.add.reduceat(np.where(heur, s, 0), first) + margin, lens)
        chosen = np.where(keep, heur, first_top).astype(float)
        out[margin] = line(f"model, margin {margin:g}", chosen)
    return out


def folded(params, mean, sd):
    """The net on raw features: the trainer's scaling x' = (x - mean) / sd folded into W1, b1 and
    linear (a constant dropped: it does not change a softmax over the cards of one position)."""
    w1, b1, w2, v = params
    return [w1 / sd, b1 - w1 @ (mean / sd), w2, v / sd]


def write_cpp(path, nets, recipe):
    """Writes the nets (each already folded) as fitted_card_policy() of card_policy.hpp."""

    def arr(a):
        vals = [f"{float(z):.8g}" for z in np.ravel(a)]
        vals = [v if "." in v or "e" in v else v + ".0" for v in vals]  # "0f" is no C++ literal
        vals = [v + "f" for v in vals]
        return ",\n        ".join(", ".join(vals[i:i + 8]) for i in range(0, len(vals), 8))

    body = ",\n    ".join(f"CardPolicyWeights{{\n        {{{arr(w1)}}},\n        {{{arr(b1)}}},\n        {{{arr(w2)}}},\n"
                           f"        {{{arr(v)}}}}}" for w1, b1, w2, v in nets)
    text = f"""// The card policy's weights (include/tarneeb/bots/card_policy.hpp): {len(nets)} nets, whose mean
// score is the policy's, written by tools/train_card_policy.py; do not edit by hand.
// Recipe: {recipe}
#include "tarneeb/bots/card_policy.hpp"

namespace tarneeb::bots {{

namespace {{

const std::array<CardPolicyWeights, {len(nets)}> kFittedNets{{{{
    {body}}}}};

}}  // namespace

std::span<const CardPolicyWeights> fitted_card_policy() {{ return kFittedNets; }}

}}  // namespace tarneeb::bots
"""
    with open(path, "w") as f:
        f.write(text)


def write_raw(path, nets):
    """The nets as float32, one after another (w1, b1, w2, linear each): what bench/bot_specs.hpp's
    learned reads from TARNEEB_LEARNED_WEIGHTS, to compare fits without building them in."""
    np.concatenate([np.ravel(a) for net in nets for a in net]).astype(np.float32).tofile(path)


def read_cpp(path):
    """The nets of a weights file written by write_cpp, as float64 arrays."""
    text = open(path).read()
    body = text[text.index("kFittedNets"):]
    vals = np.array([float(t.rstrip("f")) for t in re.findall(r"-?[0-9.]+(?:e[-+]?[0-9]+)?f", body)])
    sizes = [HIDDEN * F, HIDDEN, HIDDEN, F]
    if len(vals) % sum(sizes):
        sys.exit(f"{path}: {len(vals)} numbers, not a whole number of nets of {sum(sizes)}")
    nets = []
    for net in np.split(vals, len(vals) // sum(sizes)):
        parts = np.split(net, np.cumsum(sizes)[:-1])
        nets.append([parts[0].reshape(HIDDEN, F), parts[1], parts[2], parts[3]])
    return nets


def check_written(path, fitted, x_raw, x_scaled):
    """The weights as written (float32, the scaling folded in) give the same scores on raw
    features as the fitted nets on scaled ones, up to one constant each: a check of the layout."""
    written = read_cpp(path)[-len(fitted):]  # the fitted nets come after any --with nets
    if len(written) != len(fitted):
        sys.exit(f"{path}: {len(written)} nets, expected {len(fitted)}")
    for i, (w, p) in enumerate(zip(written, fitted)):
        diff = scores(w, x_raw)[0] - scores(p, x_scaled)[0]
        print(f"check of {path}, net {i}: raw-feature scores minus fitted scores, spread {diff.std():.2e} (a constant: {diff.mean():+.4f})")
        if diff.std() > 1e-2:
            sys.exit("the written weights do not reproduce the model")


def read_padded(path):
    """The nets of a weights file written by this script (read_cpp), or the one net of an
    earlier single-net file of fewer features (its weights for the features added since: 0)."""
    text = open(path).read()
    if "kFittedNets" in text:
        return read_cpp(path)
    vals = np.array([float(t.rstrip("f")) for t in re.findall(r"-?[0-9.]+(?:e[-+]?[0-9]+)?f", text[text.index("static const"):])])
    old = (len(vals) - 2 * HIDDEN) // (HIDDEN + 1)
    w1, b1, w2, v = np.split(vals, np.cumsum([HIDDEN * old, HIDDEN, HIDDEN]))
    pad = F - old
    return [[np.hstack([w1.reshape(HIDDEN, old), np.zeros((HIDDEN, pad))]), b1, w2, np.r_[v, np.zeros(pad)]]]


def convert(path, args):
    """--convert: the nets of an earlier weights file, padded (read_padded), written again."""
    nets = read_padded(path)
    if args.raw:
        write_raw(args.raw, nets)
    if args.write:
        write_cpp(args.write, nets, args.recipe)
    print(f"converted {path}: {len(nets)} nets, padded to {F} features")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+", help="files written by bench/card_policy_data")
    ap.add_argument("--write", help="the C++ file to write the weights to (src/bots/card_policy_weights.cpp)")
    ap.add_argument("--recipe", default="", help="how the data was made, copied into the written file")
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=256, help="positions per step")
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--l2", type=float, default=1e-4)
    ap.add_argument("--tie", type=float, default=0.25, help="a trick's worth in points beside the score")
    ap.add_argument("--regret", type=float, default=0.0, help="weight of the expected regret in the loss (0: the best set only)")
    ap.add_argument("--positions", type=int, default=0, help="fit on a random subset of this many positions (0: all)")
    ap.add_argument("--ensemble", type=int, default=1, help="nets to fit, with training seeds seed, seed + 1, ...")
    ap.add_argument("--features", type=int, default=F, help="use only the first this many features (the others' weights 0)")
    ap.add_argument("--raw", help="also write the nets as float32 here (bench/bot_specs.hpp TARNEEB_LEARNED_WEIGHTS)")
    ap.add_argument("--with", dest="with_nets", help="an earlier weights file whose nets (read_padded) join the ensemble, "
                    "first, as they are")
    ap.add_argument("--convert", help="no fit: read this weights file of an earlier feature count, pad its nets with "
                    "zero weights for the new features, and write them to --write / --raw")
    args = ap.parse_args()
    if args.convert:
        convert(args.convert, args)
        return
    start = time.process_time()
    x, worth, tricks, points, group, held_row = load(args.data, args.tie)
    groups = Groups(group)
    top = np.repeat(np.maximum.reduceat(worth, groups.starts), groups.lens)
    best = (worth >= top - 1e-9).astype(np.float64)
    held = held_row[groups.starts]
    fit_idx, held_idx = np.flatnonzero(~held), np.flatnonzero(held)
    if args.positions:  # a seeded random subset (a learning curve)
        fit_idx = np.sort(np.random.default_rng(args.seed + 1).permutation(fit_idx)[:args.positions])
    fit_rows = groups.rows(fit_idx)[0]
    x[:, args.features:] = 0
    mean, sd = x[fit_rows].mean(0), x[fit_rows].std(0)
    sd[sd < 1e-6] = 1.0
    xs = (x - mean) / sd
    print(f"{len(x)} rows, {len(groups.starts)} positions: {len(fit_idx)} to fit, {len(held_idx)} held out "
          f"(loaded in {time.process_time() - start:.1f} s)")
    nets, fitted = (read_padded(args.with_nets) if args.with_nets else []), []
    for k in range(args.ensemble):
        start = time.process_time()
        params = train(xs, best, groups, fit_idx, args.seed + k, args.epochs, args.batch, args.lr, args.l2, top - worth,
                       args.regret, args.features)
        print(f"net {k} (seed {args.seed + k}) fitted in {time.process_time() - start:.1f} s of CPU")
        fitted.append(params)
        nets.append(folded(params, mean, sd))
        if args.ensemble > 1 or args.with_nets:
            evaluate(f"held out, net {k}", nets[-1:], x, worth, tricks, points, best, groups, held_idx, [0.5])
    margins = [0, 0.25, 0.5, 1, 2]
    evaluate("fitted positions", nets, x, worth, tricks, points, best, groups, fit_idx[:50000], margins)
    evaluate("held out", nets, x, worth, tricks, points, best, groups, held_idx, margins)
    if args.raw:
        write_raw(args.raw, nets)
        print(f"wrote {args.raw}")
    if args.write:
        write_cpp(args.write, nets, args.recipe or " ".join(args.data))
        print(f"wrote {args.write}")
        check_written(args.write, fitted, x[:20000], xs[:20000])


if __name__ == "__main__":
    main()
