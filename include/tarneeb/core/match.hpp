// A match: rounds until a team reaches the target, the round cap is hit, or the table closes
// after too many passed-out deals in a row (docs/rules.md "Common to both presets").
//
// The match never shuffles by itself: the caller hands it each deal's cards (start_round),
// from a seed (deal_next_from_seed) or from a record. Round history is kept so that a record
// can be written at any time.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "tarneeb/core/round.hpp"

namespace tarneeb {

enum class MatchStatus : std::uint8_t { in_progress, won, drawn, closed };
std::string_view to_string(MatchStatus s);

class Match {
public:
    Match() : Match(kLevantine, Seat::s0) {}
    Match(const Rules& rules, Seat first_dealer);

    const Rules& rules() const { return rules_; }
    Seat first_dealer() const { return first_dealer_; }
    MatchStatus status() const { return status_; }
    bool over() const { return status_ != MatchStatus::in_progress; }
    /// The winning team once status() is won (including a bracket tie-break), else nullopt.
    std::optional<Team> winner() const { return winner_; }
    /// True when a bracket draw was decided by the last round (rules.md "Round cap").
    bool tiebreak() const { return tiebreak_; }
    std::array<int, 2> totals() const { return totals_; }
    int total(Team t) const { return totals_[index(t)]; }
    /// Rounds that counted (passed-out deals never do).
    int scored_rounds() const { return scored_rounds_; }
    /// Passed-out deals in a row at the end of the match so far.
    int pass_outs_in_row() const { return pass_outs_in_row_; }

    /// True when the match needs the next deal's cards: in progress and no round under way.
    bool awaiting_deal() const { return !over() && (rounds_.empty() || rounds_.back().over()); }
    /// Dealer of the next deal (rules.md: the deal moves on after a scored round; after a
    /// pass-out it moves on (levantine) or stays (classic)).
    Seat next_dealer() const { return next_dealer_; }
    /// Starts the next round with these hands (a partition of the deck into four 13-card
    /// hands; the caller checks). Errors: match_over, deal_incomplete (a round is under way).
    ErrorCode start_round(const Hands& hands);

    /// Every round so far, the current one last.
    const std::vector<Round>& rounds() const { return rounds_; }
    /// Both teams' totals after round i.
    std::array<int, 2> totals_after(int i) const { return totals_after_[static_cast<std::size_t>(i)]; }
    bool has_round() const { return !rounds_.empty(); }
    /// The current (or last) round. Precondition: has_round().
    const Round& round() const { return rounds_.back(); }

    /// Applies an action to the current round; when the round ends, scores it into the
    /// match. Errors: no_deal (awaiting_deal()), match_over, or the round's error.
    ErrorCode apply(Action a);
    /// As apply(a), checking that `seat` is the seat to act first.
    ErrorCode apply(Seat seat, Action a);

private:
    void finish_round();

    Rules rules_;
    Seat first_dealer_;
    Seat next_dealer_;
    MatchStatus status_ = MatchStatus::in_progress;
    std::optional<Team> winner_;
    bool tiebreak_ = false;
    std::array<int, 2> totals_{};
    int scored_rounds_ = 0;
    int pass_outs_in_row_ = 0;
    std::optional<Team> last_round_winner_;
    std::vector<Round> rounds_;
    std::vector<std::array<int, 2>> totals_after_;
};

/// Deals the next round of `match` from a seed: deal k (k = rounds so far) uses
/// deal_from_seed(derive_seed(match_seed, k), next_dealer). Returns start_round's error.
ErrorCode deal_next_from_seed(Match& match, std::uint64_t match_seed);

}  // namespace tarneeb
