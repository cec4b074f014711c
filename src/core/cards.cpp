#include "tarneeb/core/cards.hpp"

#include <algorithm>

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

ParsedHand parse_hand(std::string_view text) {
    // The white space of the C locale's isspace, as the stream readers this replaces used.
    constexpr std::string_view space = " \t\n\r\v\f";
    ParsedHand out;
    bool repeated = false;
    std::size_t at = text.find_first_not_of(space);
    while (at != std::string_view::npos) {
        const std::size_t end = std::min(text.find_first_of(space, at), text.size());
        const auto card = parse_card(text.substr(at, end - at));
        ++out.count;
        if (!card) {
            out.error = ErrorCode::bad_card;
            return out;
        }
        repeated = repeated || out.cards.contains(*card);
        out.cards |= *card;
        at = text.find_first_not_of(space, end);
    }
    if (repeated) out.error = ErrorCode::bad_hands;
    return out;
}

}  // namespace tarneeb
