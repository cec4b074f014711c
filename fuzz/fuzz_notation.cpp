// libFuzzer target: card and suit notation. Whatever parses must print canonically and parse
// back to the same value; a whole hand string must never crash the reader.
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
    return 0;
}
