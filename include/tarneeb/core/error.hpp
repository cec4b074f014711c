// Error codes with stable names: the codes of docs/record-format.md, plus the few that only a
// live table needs (a seat acting out of turn). The names are part of the public contract
// (records, the protocol, the CLI); never renumber or rename one.
#pragma once

#include <string_view>

namespace tarneeb {

enum class ErrorCode : unsigned char {
    ok = 0,
    bad_format,
    unknown_rules,
    bad_dealer,
    bad_card,
    bad_hands,
    bad_bid,
    bid_too_low,
    auction_closed,
    auction_open,
    no_contract,
    trump_missing,
    bad_trump,
    card_not_held,
    must_follow_suit,
    deal_over,
    deal_incomplete,
    match_over,
    // Not in record-format.md: only live play can produce these.
    out_of_turn,    ///< the acting seat is not the seat to act
    trump_named,    ///< trump was already named this deal
    no_deal,        ///< the match waits for the next deal's cards
};

/// The stable snake_case name, e.g. "must_follow_suit".
std::string_view to_string(ErrorCode code);

}  // namespace tarneeb
