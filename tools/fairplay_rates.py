#!/usr/bin/env python3
"""Detection and false-positive rates of a `tarneeb fairplay --json` report (docs/fairplay.md).

Usage: fairplay_rates.py REPORT.json CHEAT_DIR [--pairs]

The report was made over `tarneeb simulate --records` directories, so its players are
PATH#SEAT. The cheaters are seat 0 of every record under CHEAT_DIR (`simulate --seat0 cheater`),
or with --pairs seats 0 and 2 (`simulate --team0 cheater`); every other player is honest.
Prints, for several thresholds, how many cheaters and honest players are flagged among those
scored (players with z), and the same for partnerships on their hidden-dependent z.
Standard library only.
"""
import json
import statistics
import sys


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    pairs = "--pairs" in sys.argv
    if len(args) != 2:
        sys.exit(__doc__)
    report = json.load(open(args[0]))
    cheat_dir = args[1].rstrip("/") + "/"
    cheat_seats = {"0", "2"} if pairs else {"0"}

    def cheater(name):
        path, seat = name.rsplit("#", 1)
        return path.startswith(cheat_dir) and seat in cheat_seats

    players = report["players"]
    cheats = [p for p in players if cheater(p["name"])]
    honest = [p for p in players if not cheater(p["name"])]
    teams = report["partnerships"]
    cheat_teams = [t for t in teams if any(cheater(n) for n in t["players"])]
    honest_teams = [t for t in teams if not any(cheater(n) for n in t["players"])]

    def flagged(lines, thr, key=None):
        zs = [(l[key] if key else l)["z"] for l in lines]
        zs = [z for z in zs if z is not None]
        return f"{sum(z >= thr for z in zs)}/{len(zs)}"

    print(f"players: {len(cheats)} cheaters, {len(honest)} honest; partnerships: {len(cheat_teams)} with a cheater, "
          f"{len(honest_teams)} honest (flagged / scored)")
    for thr in (2.5, 3.0, 3.5, 4.0):
        print(f"z >= {thr}: cheaters {flagged(cheats, thr)}, honest {flagged(honest, thr)}; "
              f"partnerships with a cheater {flagged(cheat_teams, thr, 'hidden')}, honest {flagged(honest_teams, thr, 'hidden')}")
    for label, lines in (("cheaters", cheats), ("honest", honest)):
        if not lines:
            continue
        zs = sorted(p["z"] for p in lines if p["z"] is not None)
        print(f"{label}: median decisions {statistics.median(p['decisions'] for p in lines)}, mean rate "
              f"{statistics.mean(p['rate'] for p in lines):.3f}, z from {zs[0] if zs else None} to {zs[-1] if zs else None}")


if __name__ == "__main__":
    main()
