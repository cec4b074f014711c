#include "tarneeb/core/error.hpp"

namespace tarneeb {

std::string_view to_string(ErrorCode code) {
    switch (code) {
        case ErrorCode::ok: return "ok";
        case ErrorCode::bad_format: return "bad_format";
        case ErrorCode::unknown_rules: return "unknown_rules";
        case ErrorCode::bad_dealer: return "bad_dealer";
        case ErrorCode::bad_card: return "bad_card";
        case ErrorCode::bad_hands: return "bad_hands";
        case ErrorCode::bad_bid: return "bad_bid";
        case ErrorCode::bid_too_low: return "bid_too_low";
        case ErrorCode::auction_closed: return "auction_closed";
        case ErrorCode::auction_open: return "auction_open";
        case ErrorCode::no_contract: return "no_contract";
        case ErrorCode::trump_missing: return "trump_missing";
        case ErrorCode::bad_trump: return "bad_trump";
        case ErrorCode::card_not_held: return "card_not_held";
        case ErrorCode::must_follow_suit: return "must_follow_suit";
        case ErrorCode::deal_over: return "deal_over";
        case ErrorCode::deal_incomplete: return "deal_incomplete";
        case ErrorCode::match_over: return "match_over";
        case ErrorCode::out_of_turn: return "out_of_turn";
        case ErrorCode::trump_named: return "trump_named";
        case ErrorCode::no_deal: return "no_deal";
    }
    return "unknown";
}

}  // namespace tarneeb
