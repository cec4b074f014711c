#!/usr/bin/env python3
"""A simple Tarneeb engine for the tarneeb engine protocol (docs/engine-protocol.md).

Standard library only. Run it against the built-in bots:

    tarneeb simulate --team0 engine:"python3 examples/engines/simple_engine.py" \
                     --team1 heuristic --matches 10

Strategy (simple, but not random):
  - bidding: counts its own likely tricks (aces, guarded kings and queens, length in its
    longest suit) and bids the lowest legal bid when the team should make it; it never bids
    over its partner;
  - trump: its longest suit (ties: the stronger suit);
  - play: as declarers, draws trumps with the highest trump while the opponents may hold
    some; cashes masters (the highest card left in a suit); otherwise leads low from its
    longest side suit. Second hand low, third and fourth hand win as cheaply as they can,
    never over a partner who is winning, ruffs a losing trick as cheaply as is safe, and
    discards its lowest card.

Options: --log-dir DIR writes every line the host sends into DIR/engine-<pid>.log (the
hidden-information test reads it); --transcript-dir DIR writes the whole session into
DIR/transcript-<pid>.txt, the host's lines as "> LINE" and the engine's as "< LINE", in the
order the engine read and wrote them (the example of docs/engine-protocol.md, which a test
compares with it). The engine declares one protocol option, "margin"
(tenths of a trick it wants in hand beyond a bid), which a host may set with setoption.
"""
import os
import sys

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def rank(card):
    return RANKS.index(card[0])


def suit(card):
    return card[1]


def team(seat):
    return seat % 2


class SimpleEngine:
    """The protocol and the strategy. handle(line) returns the lines to write back."""

    name = "simple_engine.py"
    author = "the tarneeb project (example)"

    def __init__(self):
        self.margin = 6  # tenths of a trick
        self.seat = 0
        self.max_bid = 13
        self.min_bid = 7
        self.new_deal([])

    # ---- game state, from the host's lines ------------------------------------------
    def new_deal(self, hand):
        self.hand = set(hand)
        self.played = set()
        self.trick = []  # (seat, card) of the trick in progress
        self.trump = None
        self.declarer = None
        self.bids = {}  # seat -> highest bid it made
        self.voids = {s: set() for s in range(4)}

    def handle(self, line):
        words = line.split()
        if not words:
            return []
        kind = words[0]
        if kind == "tarneeb-engine":
            if words[1:] != ["1"]:
                return ["error unsupported protocol " + " ".join(words[1:])]
            return ["id name " + self.name, "id author " + self.author,
                    "option name margin type int default 6 min 0 max 30", "ready"]
        if kind == "setoption" and len(words) == 5 and words[2] == "margin":
            self.margin = int(words[4])
        elif kind == "newmatch":
            kv = dict(zip(words[1::2], words[2::2]))
            self.seat = int(kv["seat"])
            self.min_bid = int(kv.get("min_bid", 7))
            self.max_bid = int(kv.get("max_bid", 13))
        elif kind == "deal":
            self.new_deal(words[4:])
        elif kind == "call":
            if words[2] != "pass":
                self.bids[int(words[1])] = int(words[2])
        elif kind == "contract":
            self.declarer = int(words[1])
        elif kind == "trump":
            self.trump = words[2]
        elif kind == "play":
            seat, card = int(words[1]), words[2]
            if self.trick and suit(card) != suit(self.trick[0][1]):
                self.voids[seat].add(suit(self.trick[0][1]))
            self.trick.append((seat, card))
            self.played.add(card)
            self.hand.discard(card)
        elif kind == "trick":
            self.trick = []
        elif kind == "go":
            legal = words[words.index("legal") + 1:]
            return ["action " + self.choose(legal)]
        return []

    # ---- bidding and trump ------------------------------------------------------------
    def suit_cards(self, s, cards=None):
        return sorted((c for c in (self.hand if cards is None else cards) if suit(c) == s), key=rank)

    def own_tricks(self, trump):
        """This hand's likely tricks with `trump` as trump, in tenths."""
        tenths = 0
        for s in SUITS:
            cards = self.suit_cards(s)
            ranks = {c[0] for c in cards}
            n = len(cards)
            if "A" in ranks:
                tenths += 10
            if "K" in ranks and n >= 2:
                tenths += 8 if "A" in ranks else 5
            if "Q" in ranks and n >= 3:
                tenths += 4
            if s == trump:
                tenths += 9 * max(0, n - 3)
            elif n <= 1 and len(self.suit_cards(trump)) >= 4:
                tenths += 6 * (2 - n)  # a ruff or two
        return tenths

    def best_trump(self):
        return max(SUITS, key=lambda s: (len(self.suit_cards(s)), self.own_tricks(s), SUITS.index(s)))

    def bid(self, legal):
        bids = sorted(int(a) for a in legal if a != "pass")
        if not bids:
            return "pass"
        partner = (self.seat + 2) % 4
        if partner in self.bids and max(self.bids.values()) == self.bids[partner]:
            return "pass"  # never over the partner
        own = self.own_tricks(self.best_trump())
        team_tenths = 47 + own * 61 // 100  # about 4.7 + 0.61 x own (docs/bots.md)
        can_make = (team_tenths - self.margin) // 10
        return str(bids[0]) if bids[0] <= can_make else "pass"

    # ---- play -------------------------------------------------------------------------
    def outstanding(self, s):
        """Cards of suit s neither held nor played."""
        return [c for s2 in [s] for c in (r + s2 for r in RANKS) if c not in self.hand and c not in self.played]

    def is_master(self, card):
        return all(rank(o) < rank(card) for o in self.outstanding(suit(card)))

    def beats(self, a, b, led):
        if suit(a) == suit(b):
            return rank(a) > rank(b)
        if suit(a) == self.trump:
            return True
        if suit(b) == self.trump:
            return False
        return False  # a is off-suit and not a trump: it never wins (b followed or is a trump)

    def winning(self):
        led = suit(self.trick[0][1])
        best = self.trick[0]
        for seat_card in self.trick[1:]:
            if self.beats(seat_card[1], best[1], led):
                best = seat_card
        return best

    def lowest(self, cards):
        # Lowest rank; among equals, a non-trump first.
        return min(cards, key=lambda c: (rank(c), suit(c) == self.trump))

    def lead(self, legal):
        declaring = self.declarer is not None and team(self.declarer) == team(self.seat)
        trumps = self.suit_cards(self.trump, legal)
        if declaring and trumps and self.outstanding(self.trump) and self.is_master(trumps[-1]):
            return trumps[-1]
        masters = [c for c in legal if suit(c) != self.trump and self.is_master(c)]
        opponents = [(self.seat + 1) % 4, (self.seat + 3) % 4]
        safe = [c for c in masters if not any(suit(c) in self.voids[o] for o in opponents)]
        if safe:
            return max(safe, key=rank)
        side = [c for c in legal if suit(c) != self.trump] or list(legal)
        longest = max(SUITS, key=lambda s: (len(self.suit_cards(s, side)), SUITS.index(s)))
        return self.lowest(self.suit_cards(longest, side))

    def follow(self, legal):
        led = suit(self.trick[0][1])
        win_seat, win_card = self.winning()
        partner_winning = team(win_seat) == team(self.seat)
        last = len(self.trick) == 3
        beating = [c for c in legal if self.beats(c, win_card, led)]
        if partner_winning and (last or self.is_master(win_card) or suit(win_card) == self.trump):
            return self.lowest(legal)
        if not beating:
            return self.lowest(legal)
        cheapest = min(beating, key=lambda c: (suit(c) == self.trump, rank(c)))
        if suit(cheapest) == led and len(self.trick) == 1 and not self.is_master(cheapest):
            return self.lowest(legal)  # second hand low
        return cheapest

    def choose(self, legal):
        if not legal:
            return "pass"
        if legal[0] == "pass" or legal[0].isdigit():
            return self.bid(legal)
        if legal[0] in SUITS and len(legal[0]) == 1:
            return self.best_trump()
        choice = self.follow(legal) if self.trick else self.lead(legal)
        return choice if choice in legal else legal[0]


def main(engine=None):
    engine = engine or SimpleEngine()
    log = None
    if "--log-dir" in sys.argv:
        directory = sys.argv[sys.argv.index("--log-dir") + 1]
        log = open(os.path.join(directory, "engine-%d.log" % os.getpid()), "w")
    transcript = None
    if "--transcript-dir" in sys.argv:
        directory = sys.argv[sys.argv.index("--transcript-dir") + 1]
        transcript = open(os.path.join(directory, "transcript-%d.txt" % os.getpid()), "w")
    for line in sys.stdin:
        if log:
            log.write(line)
            log.flush()
        if transcript:
            transcript.write("> " + line.rstrip("\r\n") + "\n")
            transcript.flush()
        if line.strip() == "quit":
            break
        answer = engine.handle(line)
        for out in answer:
            sys.stdout.write(out + "\n")
        sys.stdout.flush()
        if transcript and answer:
            transcript.write("".join("< " + out + "\n" for out in answer))
            transcript.flush()


if __name__ == "__main__":
    main()
