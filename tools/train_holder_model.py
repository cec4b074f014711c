#!/usr/bin/env python3
"""Fits the holder model (include/tarneeb/bots/holder_model.hpp) to positions of self-play.

    build/release/bench/holder_data --deals 20000 --positions 3 --seed 1 --out /tmp/holder.f32
    python3 tools/train_holder_model.py /tmp/holder.f32 [--write src/bots/holder_weights.cpp]

--weights FILE also reports the weights of FILE (a holder_weights.cpp) on the held-out rows (e.g.
the levantine fit on classic deals). The model is a conditional logit: for a hidden card, each seat that may hold it scores w . f
(its kHolderFeatures features) and the seats share the card by the softmax of their scores. The
weights maximise the likelihood of the true holders (Newton's method: 21 weights, a few
iterations, deterministic), with a small L2 penalty. The last fifth of the rows (the last
deals) is held out: printed are the log loss, the share of cards whose likeliest holder is the
true one, and the mean probability given to the true holder, for the prior alone (cards held)
and for the fit. Needs numpy (Debian: apt-get install python3-numpy).
"""
import argparse
import re
import sys
import time

import numpy as np

FEATURES = 21
NAMES = ["left", "partner", "right", "log_cards_left", "bid", "only_passed", "declarer", "voids_elsewhere",
         "trump_x_declarer", "rank_x_declarer", "rank_x_bid", "trump_rank_x_declarer", "played_suit", "led_suit",
         "discarded_suit", "ruffed_x_trump", "declined", "led_below", "rank_x_only_passed",
         "rank_x_led_suit", "trump_x_partner_declares"]


def load(path):
    raw = np.fromfile(path, dtype=np.float32)
    width = 4 + 3 * FEATURES
    if raw.size % width:
        sys.exit(f"{path}: {raw.size} floats is not a whole number of {width}-float rows")
    rows = raw.reshape(-1, width).astype(np.float64)
    label = rows[:, 0].astype(np.int64)
    mask = rows[:, 1:4] > 0
    feats = rows[:, 4:].reshape(-1, 3, FEATURES)
    return label, mask, feats


def probabilities(w, mask, feats):
    z = feats @ w
    z = np.where(mask, z, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    e = np.where(mask, np.exp(z), 0.0)
    return e / e.sum(axis=1, keepdims=True)


def report(name, w, label, mask, feats):
    p = probabilities(w, mask, feats)
    truth = p[np.arange(len(label)), label]
    loss = -np.mean(np.log(np.maximum(truth, 1e-12)))
    right = np.mean(p.argmax(axis=1) == label)
    print(f"{name:>8}: log loss {loss:.4f}, likeliest holder right {right:.4f}, p(true holder) {truth.mean():.4f}")
    return loss


def fit(label, mask, feats, l2=1e-3, iterations=12):
    w = np.zeros(FEATURES)
    w[3] = 1.0  # the prior: the chance in proportion to the cards held
    n = len(label)
    onehot = np.zeros_like(mask, dtype=np.float64)
    onehot[np.arange(n), label] = 1.0
    for it in range(iterations):
        p = probabilities(w, mask, feats)
        mu = np.einsum("nj,njk->nk", p, feats)                      # expected features
        grad = np.einsum("nj,njk->k", onehot - p, feats) - l2 * n * w
        # Hessian of the log likelihood: -(E[f f^T] - mu mu^T), summed over rows.
        second = np.einsum("nj,njk,njl->kl", p, feats, feats)
        hess = -(second - mu.T @ mu) - l2 * n * np.eye(FEATURES)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-7:
            break
    return w


def write_cpp(path, w, recipe):
    values = ", ".join(f"{x:.9g}" for x in w)
    names = "\n".join(f"//   {i:2d} {n:<22} {x:+.5f}" for i, (n, x) in enumerate(zip(NAMES, w)))
    text = f"""// The holder model's weights (include/tarneeb/bots/holder_model.hpp), written by
// tools/train_holder_model.py; do not edit by hand. Fitted on: {recipe}
{names}
#include "tarneeb/bots/holder_model.hpp"

namespace tarneeb::bots {{

const HolderWeights& fitted_holder_weights() {{
    static const HolderWeights w{{{values}}};
    return w;
}}

}}  // namespace tarneeb::bots
"""
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+", help="files written by bench/holder_data")
    ap.add_argument("--write", help="the C++ file to write the weights to (src/bots/holder_weights.cpp)")
    ap.add_argument("--recipe", default="", help="how the data was made, copied into the written file")
    ap.add_argument("--rows", type=int, default=0, help="use at most this many rows of training data (0: all)")
    ap.add_argument("--weights", help="also report these weights on the held-out rows (a holder_weights.cpp)")
    args = ap.parse_args()
    parts = [load(p) for p in args.data]
    label = np.concatenate([p[0] for p in parts])
    mask = np.concatenate([p[1] for p in parts])
    feats = np.concatenate([p[2] for p in parts])
    cut = len(label) * 4 // 5
    train = slice(0, cut if not args.rows else min(cut, args.rows))
    held = slice(cut, len(label))
    print(f"{len(label)} rows: {train.stop} to fit, {len(label) - cut} held out")
    prior = np.zeros(FEATURES)
    prior[3] = 1.0
    start = time.process_time()
    w = fit(label[train], mask[train], feats[train])
    print(f"fitted in {time.process_time() - start:.1f} s of CPU")
    report("prior", prior, label[held], mask[held], feats[held])
    report("fit", w, label[held], mask[held], feats[held])
    if args.weights:
        text = open(args.weights).read()
        given = np.array([float(x) for x in re.search(r"HolderWeights w\{([^}]*)\}", text).group(1).split(",")])
        report("given", given, label[held], mask[held], feats[held])
    for n, x in zip(NAMES, w):
        print(f"  {n:<22} {x:+.4f}")
    if args.write:
        write_cpp(args.write, w, args.recipe or " ".join(args.data))
        print(f"wrote {args.write}")


if __name__ == "__main__":
    main()
