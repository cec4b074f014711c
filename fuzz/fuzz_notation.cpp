// libFuzzer target: card, suit and hand notation. Whatever parses must print canonically and
// parse back to the same value; a whole hand string must never crash the reader (parse_hand:
// record hands and `tarneeb analyze --hands`).
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "tarneeb/core/cards.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    if (auto card = tarneeb::parse_card(text)) {
        const std::string canonical = tarneeb::to_string(*card);
        if (canonical.size() != 2 || tarneeb::parse_card(canonical) != card) std::abort();
        if (!tarneeb::CardSet::deck().contains(*card)) std::abort();
    }
    if (auto suit = tarneeb::parse_suit(text)) {
        const char letter = tarneeb::suit_letter(*suit);
        if (tarneeb::parse_suit(std::string_view(&letter, 1)) != suit) std::abort();
    }
    const tarneeb::ParsedHand hand = tarneeb::parse_hand(text);
    if (hand.error == tarneeb::ErrorCode::ok) {
        if (hand.count != hand.cards.size() || (hand.cards - tarneeb::CardSet::deck()).bits() != 0) std::abort();
        const tarneeb::ParsedHand again = tarneeb::parse_hand(tarneeb::to_string(hand.cards));
        if (again.error != tarneeb::ErrorCode::ok || again.cards != hand.cards || again.count != hand.count) std::abort();
    } else if (hand.error != tarneeb::ErrorCode::bad_card && hand.error != tarneeb::ErrorCode::bad_hands) {
        std::abort();
    }
    return 0;
}
