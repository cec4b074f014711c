// Rules: every variant knob of the game in one value, and the two presets of docs/rules.md.
//
// A new variant is a new preset value (or a new knob with a default), never a fork of the
// engine. Rules is trivially copyable so a round can carry it by value.
#pragma once

#include <optional>
#include <string_view>

namespace tarneeb {

/// How the auction runs (rules.md, each preset's "Auction").
enum class AuctionStyle : unsigned char {
    /// levantine: pass or bid higher, turns go round until three pass after the high bid;
    /// a pass does not shut a player out; all four passing the first time round passes out.
    open,
    /// classic: one call each, from the player after the dealer to the dealer; each bid
    /// higher than any before, except that the dealer may equal the standing high bid.
    single_round_dealer_equals,
};

/// What a made contract scores (rules.md, each preset's "Scoring"). A set contract always
/// costs the bid and gives the defenders one point per trick they took.
enum class ScoringStyle : unsigned char {
    bid_value,   ///< levantine: the bid, overtricks count for nothing
    tricks_won,  ///< classic: the tricks the declaring team won
};

/// Who deals after a passed-out deal.
enum class PassOutDealer : unsigned char { next, same };

struct Rules {
    AuctionStyle auction = AuctionStyle::open;
    ScoringStyle scoring = ScoringStyle::bid_value;
    PassOutDealer pass_out_dealer = PassOutDealer::next;
    int min_bid = 7;              ///< lowest bid (tricks)
    int max_bid = 13;             ///< highest bid (tricks)
    int target = 31;              ///< first team to reach or pass it wins
    int round_cap = 50;           ///< scored rounds after which the higher score wins
    int pass_out_close = 8;       ///< passed-out deals in a row that close the table
    bool bracket_tiebreak = false;///< a draw at the cap goes to the team that won the last round

    friend constexpr bool operator==(const Rules&, const Rules&) = default;
};

/// The preset names a record or a command line may give.
enum class Preset : unsigned char { levantine, classic };

/// rules.md "Preset levantine" (the default).
inline constexpr Rules kLevantine{};
/// rules.md "Preset classic".
inline constexpr Rules kClassic{AuctionStyle::single_round_dealer_equals, ScoringStyle::tricks_won,
                                PassOutDealer::same};

constexpr Rules rules_for(Preset p) { return p == Preset::classic ? kClassic : kLevantine; }
/// "levantine" / "classic" → preset; nullopt for anything else (case-sensitive).
std::optional<Preset> parse_preset(std::string_view name);
std::string_view to_string(Preset p);

}  // namespace tarneeb
