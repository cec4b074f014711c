#include "tarneeb/core/cards.hpp"

#include "tarneeb/core/error.hpp"
#include "tarneeb/core/rules.hpp"

namespace tarneeb {
namespace {

char upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

std::optional<Rank> parse_rank(std::string_view t) {
    if (t == "10") return Rank::ten;
    if (t.size() != 1) return std::nullopt;
    switch (upper(t[0])) {
        case 'A': return Rank::ace;
        case 'K': return Rank::king;
        case 'Q': return Rank::queen;
        case 'J': return Rank::jack;
        case 'T': return Rank::ten;
        default: break;
    }
    if (t[0] >= '2' && t[0] <= '9') return static_cast<Rank>(t[0] - '2');
    return std::nullopt;
}

}  // namespace

std::optional<Suit> parse_suit(std::string_view t) {
    if (t == "\u2660" || t == "\u2664") return Suit::spades;
    if (t == "\u2665" || t == "\u2661") return Suit::hearts;
    if (t == "\u2666" || t == "\u2662") return Suit::diamonds;
    if (t == "\u2663" || t == "\u2667") return Suit::clubs;
    if (t.size() != 1) return std::nullopt;
    switch (upper(t[0])) {
        case 'S': return Suit::spades;
        case 'H': return Suit::hearts;
        case 'D': return Suit::diamonds;
        case 'C': return Suit::clubs;
        default: return std::nullopt;
    }
}

std::optional<Card> parse_card(std::string_view t) {
    if (t.size() < 2 || t.size() > 3) return std::nullopt;
    auto rank = parse_rank(t.substr(0, t.size() - 1));
    auto suit = parse_suit(t.substr(t.size() - 1));
    if (!rank || !suit) return std::nullopt;
    return Card(*suit, *rank);
}

char suit_letter(Suit s) { return "CDHS"[index(s)]; }
char rank_letter(Rank r) { return "23456789TJQKA"[index(r)]; }

std::string to_string(Card c) { return {rank_letter(c.rank()), suit_letter(c.suit())}; }

std::string to_string(CardSet set) {
    std::string out;
    for (Card c : set) {
        if (!out.empty()) out += ' ';
        out += to_string(c);
    }
    return out;
}

std::optional<Preset> parse_preset(std::string_view name) {
    if (name == "levantine") return Preset::levantine;
    if (name == "classic") return Preset::classic;
    return std::nullopt;
}

std::string_view to_string(Preset p) { return p == Preset::classic ? "classic" : "levantine"; }

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
