#!/usr/bin/env python3
"""An engine that misbehaves on purpose, to test a host's handling of faults
(docs/engine-protocol.md "Faults"). Standard library only.

    fault_engine.py MODE [--after N] [--log-dir DIR]

It plays like simple_engine.py until the N-th "go" of this process (default 1), then:
  crash     writes "boom" to stderr and exits with status 3
  hang      never answers (sleeps for an hour)
  garbage   answers "this is not an action"
  illegal   answers a readable but illegal action: bid 14 in the auction, a card it does not
            hold (or may not play) in play; when naming trump (every suit is legal) it
            answers properly and misbehaves at its next go instead
  noready   (at the handshake) says who it is but never "ready"
  chatter   writes a line to stderr at every go, and "info thinking" before each answer,
            and never misbehaves otherwise (the host logs the stderr lines and ignores info)
A restarted process counts its "go" lines from zero again.
"""
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import simple_engine  # noqa: E402

MODES = ("crash", "hang", "garbage", "illegal", "noready", "chatter")


class FaultEngine(simple_engine.SimpleEngine):
    name = "fault_engine.py"

    def __init__(self, mode, after):
        super().__init__()
        self.mode = mode
        self.after = after
        self.goes = 0

    def handle(self, line):
        words = line.split()
        if words[:1] == ["tarneeb-engine"] and self.mode == "noready":
            return ["id name " + self.name]
        if words[:1] != ["go"]:
            return super().handle(line)
        self.goes += 1
        if self.mode == "chatter":
            sys.stderr.write("chatter: go number %d\n" % self.goes)
            sys.stderr.flush()
            return ["info thinking"] + super().handle(line)
        if self.goes < self.after:
            return super().handle(line)
        legal = words[words.index("legal") + 1:]
        if self.mode == "crash":
            sys.stderr.write("boom\n")
            sys.stderr.flush()
            os._exit(3)
        if self.mode == "hang":
            time.sleep(3600)
        if self.mode == "garbage":
            return ["this is not an action"]
        if self.mode == "illegal":
            if legal[0] == "pass" or legal[0].isdigit():
                return ["action 14"]
            if len(legal[0]) == 1:
                self.after = self.goes + 1  # no illegal trump exists: the next go then
                return super().handle(line)
            ranks, suits = "23456789TJQKA", "CDHS"
            for card in (r + s for s in suits for r in ranks):
                if card not in legal:
                    return ["action " + card]
        return super().handle(line)


def main():
    args = sys.argv[1:]
    if not args or args[0] not in MODES:
        sys.stderr.write("usage: fault_engine.py %s [--after N] [--log-dir DIR]\n" % "|".join(MODES))
        sys.exit(2)
    after = int(args[args.index("--after") + 1]) if "--after" in args else 1
    simple_engine.main(FaultEngine(args[0], after))


if __name__ == "__main__":
    main()
