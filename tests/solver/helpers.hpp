// Small helpers shared by the solver tests.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/core/cards.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/simulate.hpp"

namespace tarneeb::test {

/// A round of random legal play (random dealer) stopped after `cards` cards, in phase play;
/// deals passed out are skipped.
inline Round random_round_at(std::uint64_t seed, int cards, const Rules& rules = kLevantine) {
    Rng rng(seed);
    for (;;) {
        Round r(rules, seat(static_cast<int>(rng.below(4))), deal_hands(shuffled_deck(rng), Seat::s0));
        while (r.phase() == Phase::auction || r.phase() == Phase::trump) r.apply(random_action(r, rng));
        if (r.phase() != Phase::play) continue;
        while (r.cards_played() < cards) r.apply(random_action(r, rng));
        return r;
    }
}

inline CardSet hand_of(const std::string& text) {
    std::istringstream in(text);
    std::string w;
    CardSet h;
    while (in >> w) h |= *parse_card(w);
    return h;
}

struct OracleDeal {
    int id = 0;
    Hands hands{};
    std::array<std::array<int, 4>, 4> tricks{};  // [our suit index][seat]
};

inline std::vector<OracleDeal> read_oracle() {
    std::ifstream in(std::string(TARNEEB_TEST_DATA) + "/dd_oracle_2000.jsonl");
    std::vector<OracleDeal> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        const auto j = nlohmann::json::parse(line);
        OracleDeal d;
        d.id = j["id"];
        for (std::size_t s = 0; s < 4; ++s) d.hands[s] = hand_of(j["hands"][s].get<std::string>());
        for (Suit su : kSuits) {
            const std::string key(1, suit_letter(su));
            for (std::size_t s = 0; s < 4; ++s) d.tricks[static_cast<std::size_t>(index(su))][s] = j["tricks"][key][s];
        }
        out.push_back(d);
    }
    return out;
}

}  // namespace tarneeb::test
