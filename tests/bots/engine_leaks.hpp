// The hidden-information check on what an engine is told (issue 13): reading the lines a host
// wrote to one engine's stdin, in order, no card of another seat may appear before it is
// played. A card may appear when it is in the seat's own hand (the last "deal" line's) or was
// announced by a "play" line of the same deal (that line included).
#pragma once

#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace tarneeb::test {

struct LeakReport {
    std::vector<std::string> leaks;  ///< "line N: CARD in <line>"
    int cards_checked = 0;           ///< card tokens seen (to show the check was not vacuous)
    int deals = 0;
    /// Each deal line's hand as written, with the seat of the newmatch line before it.
    std::vector<std::pair<int, std::string>> hands;
};

inline LeakReport engine_leaks(const std::string& transcript) {
    static const std::regex kCard("^(?:[2-9TJQKA]|10)[SHDCshdc]$");
    LeakReport r;
    std::set<std::string> allowed;
    int seat = -1;
    std::istringstream in(transcript);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        std::istringstream ws(line);
        std::vector<std::string> w;
        for (std::string x; ws >> x;) w.push_back(x);
        if (w.empty()) continue;
        if (w[0] == "newmatch" && w.size() > 2 && w[1] == "seat") seat = std::stoi(w[2]);
        if (w[0] == "deal") {
            allowed.clear();
            ++r.deals;
            std::string hand;
            for (std::size_t i = 4; i < w.size(); ++i) {
                allowed.insert(w[i]);
                hand += (hand.empty() ? "" : " ") + w[i];
            }
            r.hands.emplace_back(seat, hand);
            continue;
        }
        if (w[0] == "play" && w.size() == 3) allowed.insert(w[2]);
        for (const std::string& x : w)
            if (std::regex_match(x, kCard)) {
                ++r.cards_checked;
                if (!allowed.count(x)) r.leaks.push_back("line " + std::to_string(n) + ": " + x + " in '" + line + "'");
            }
    }
    return r;
}

}  // namespace tarneeb::test
