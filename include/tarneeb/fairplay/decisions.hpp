// Fair play (issue 27, docs/fairplay.md), step 1: each seat's card decisions of played deals,
// counted against the double-dummy solver.
//
// A card decision is every position of a deal's play where a seat chose a card. It is
// **non-obvious** when its legal cards do not all have the same double-dummy value (tricks for
// the side to play with perfect play afterwards, solver.hpp): a singleton, touching cards or
// a position where every card comes to the same are not counted. For each non-obvious
// decision the tally counts whether the card played was a double-dummy best card, and whether
// the position is **hidden-dependent**: the set of best cards changes when the cards the seat
// has not seen are dealt again to the other three seats consistently with everything the seat
// saw (their numbers of cards, the suits they showed out of: bots::sample_layout, one layout
// per position from a fixed seed). On such positions the best card depends on where the
// hidden cards are, partner's included; a player who plays the best card there much more
// often than others plays as if it saw them.
//
// Cost: one DDS SolveBoard per position (every legal card at once) and one more per
// non-obvious position (the re-dealt layout), on one Solver for the whole deal: about 0.1-0.2 s
// of CPU per deal (docs/fairplay.md). Deterministic: the same round and seed give the same tally.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tarneeb/core/match.hpp"
#include "tarneeb/solver/position.hpp"

namespace tarneeb::fairplay {

/// Counts of one seat's (or one player's, or one partnership's) card decisions.
struct Tally {
    int positions = 0;    ///< every card decision, obvious ones included
    int decisions = 0;    ///< non-obvious decisions (more than one value among the legal cards)
    int best = 0;         ///< of which the card played was a double-dummy best card
    int hidden = 0;       ///< non-obvious decisions that are hidden-dependent (file comment)
    int hidden_best = 0;  ///< of which the card played was a double-dummy best card
    Tally& operator+=(const Tally& o);
    friend bool operator==(const Tally&, const Tally&) = default;
};

/// Adds the card decisions of `played` (a round as replayed from a record or played by the
/// engine: its dealt hands, calls, trump and cards) to `out`, by seat. A round without play
/// (passed out, trump not named) adds nothing. `seed` fixes the re-dealt layouts. Leases one
/// Solver for the call. Errors: the solver's (dds_failure), with `out` holding the positions
/// before it.
solver::SolveError tally_round(const Round& played, std::uint64_t seed, BySeat<Tally>& out);

/// One match's tallies with who sat where.
struct MatchTally {
    std::array<std::string, 4> names;             ///< player by seat
    std::array<std::optional<double>, 4> ratings; ///< Elo by seat when known (the CLI: none)
    BySeat<Tally> seats{};
};

/// Every round of `match` (tally_round); names and ratings are left to the caller.
solver::SolveError tally_match(const Match& match, std::uint64_t seed, MatchTally& out);

/// A tarneeb-record/1 text (docs/record-format.md) replayed and tallied. The players are the
/// record's "players" (4 names, as the server stores them); a record without them gets
/// `fallback` + "#" + seat ("m7.json#0"), so each seat of each file is its own player.
/// nullopt on success, else why the record was not counted ("record rejected: card_not_held
/// (deal 2)", "solver: dds_failure"); a rejected record counts nothing.
std::optional<std::string> tally_record(std::string_view text, const std::string& fallback, std::uint64_t seed,
                                        MatchTally& out);

}  // namespace tarneeb::fairplay
