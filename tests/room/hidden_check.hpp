// The hidden-information check on the bytes (issue 5): given every frame one seat received
// during a match and the match's tarneeb-record/1, find any card of another seat that appears
// in a frame before it was played.
//
// For a table frame of deal r (round.number) with n cards played (round.plays), the cards that
// may appear are: the seat's own hand as dealt in deal r, the first n cards played in deal r
// and, in the frame that carries the "deal" event, the cards of deal r-1 (its last trick's
// events travel with the next deal). Every two-character card token in quotes ("QS") in the
// frame's text is checked; other frames (welcome, ok, error, tables) may hold no card at all.
//
// The tricks a table frame shows (round.finished_tricks, round.current_trick and the older
// round.trick) are checked against the frame's own round.plays as well: trick t's card i must
// be the play 4t+i, with its seat, so a trick can only ever show a card already played.
//
// A table frame's "history" (the finished rounds of the match) is checked against the record:
// round k's tricks, card by card, must be exactly the play of deal k, and only rounds that are
// over appear (before deal r, or deal r itself once scored or passed out). The rest of the
// frame, without its history, is then checked as above (every card of a scored round was
// played, so the history's cards cannot be told apart from the current deal's by text alone).
#pragma once

#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tarneeb::server::testing {

inline std::set<std::string> split_cards(const std::string& text) {
    std::set<std::string> out;
    std::istringstream in(text);
    std::string w;
    while (in >> w) out.insert(w);
    return out;
}

/// The trick fields of a table frame's round that do not repeat its plays in order (see above).
inline std::vector<std::string> trick_mismatches(const nlohmann::json& round) {
    std::vector<std::string> out;
    const auto& plays = round["plays"];
    auto check = [&](const nlohmann::json& cards, std::size_t first, const std::string& what) {
        if (!cards.is_array()) return;
        for (std::size_t i = 0; i < cards.size(); ++i)
            if (first + i >= plays.size() || cards[i] != plays[first + i])
                out.push_back(what + " card " + std::to_string(i) + " " + cards[i].dump() + " is not a card played");
    };
    std::size_t finished = 0;
    if (round.contains("finished_tricks")) {
        finished = round["finished_tricks"].size();
        for (std::size_t t = 0; t < finished; ++t)
            check(round["finished_tricks"][t]["cards"], 4 * t, "finished trick " + std::to_string(t));
    }
    if (round.contains("current_trick") && round["current_trick"].is_object()) {
        const auto& ct = round["current_trick"];
        check(ct["cards"], 4 * finished, "current trick");
        if (!ct["winner"].is_null()) out.push_back("current trick has a winner");
        if (!ct["cards"].empty() && ct["cards"][0]["seat"] != ct["leader"]) out.push_back("current trick led by another seat");
    }
    check(round["trick"], plays.size() - plays.size() % 4, "trick");
    return out;
}

/// The rounds of a table frame's "history" that are not finished rounds of the record (see above).
inline std::vector<std::string> history_mismatches(const nlohmann::json& frame, const nlohmann::json& deals) {
    std::vector<std::string> out;
    const auto& history = frame["history"];
    if (!history.is_array()) return {"history is not a list"};
    const auto& round = frame["round"];
    const int current = round.is_object() ? round["number"].get<int>() : 0;
    const bool current_over = round.is_object() && (round["phase"] == "scored" || round["phase"] == "passed_out");
    for (std::size_t k = 0; k < history.size(); ++k) {
        const auto& h = history[k];
        const std::string where = "history round " + std::to_string(k + 1);
        if (h["number"] != static_cast<int>(k + 1)) out.push_back(where + " has number " + h["number"].dump());
        if (static_cast<int>(k + 1) > current || (static_cast<int>(k + 1) == current && !current_over)) {
            out.push_back(where + " is not over");
            continue;
        }
        if (k >= deals.size()) {
            out.push_back(where + " is not in the record");
            continue;
        }
        nlohmann::json cards = nlohmann::json::array();
        for (const auto& trick : h["tricks"]) {
            if (trick["cards"].size() != 4 || trick["winner"].is_null()) out.push_back(where + " has an unfinished trick");
            for (const auto& c : trick["cards"]) cards.push_back(c["card"]);
        }
        const auto& play = deals[k].contains("play") ? deals[k]["play"] : nlohmann::json::array();
        if (cards != play) out.push_back(where + " shows cards other than its play: " + cards.dump());
    }
    return out;
}

/// Returns a description of each leak (empty when none). `match` is the table's match number;
/// `seat` -1 checks a spectator (no hand may appear at all).
inline std::vector<std::string> hidden_leaks(const std::vector<std::string>& frames, int seat, int match,
                                             const nlohmann::json& record) {
    std::vector<std::string> leaks;
    static const std::regex kCard("\"([2-9TJQKA][SHDC])\"");
    const auto& deals = record.at("deals");
    for (std::size_t f = 0; f < frames.size(); ++f) {
        const auto j = nlohmann::json::parse(frames[f], nullptr, false);
        std::set<std::string> allowed;
        if (j.is_object() && j.value("type", "") == "table" && j.value("match", 0) == match && j["round"].is_object()) {
            const int r = j["round"]["number"].get<int>();
            const std::size_t n = j["round"]["plays"].size();
            if (r < 1 || r > static_cast<int>(deals.size())) {
                leaks.push_back("frame " + std::to_string(f) + ": deal " + std::to_string(r) + " not in the record");
                continue;
            }
            const auto& deal = deals[static_cast<std::size_t>(r - 1)];
            for (const auto& m : trick_mismatches(j["round"])) leaks.push_back("frame " + std::to_string(f) + ": " + m);
            if (seat >= 0) allowed = split_cards(deal["hands"][static_cast<std::size_t>(seat)].get<std::string>());
            if (deal.contains("play"))
                for (std::size_t i = 0; i < n && i < deal["play"].size(); ++i) allowed.insert(deal["play"][i].get<std::string>());
            bool has_deal_event = false;
            for (const auto& e : j["events"]) has_deal_event |= e.value("event", "") == "deal";
            if (has_deal_event && r >= 2 && deals[static_cast<std::size_t>(r - 2)].contains("play"))
                for (const auto& c : deals[static_cast<std::size_t>(r - 2)]["play"]) allowed.insert(c.get<std::string>());
        } else if (j.is_object() && j.value("type", "") == "table" && j.value("match", 0) != match) {
            continue;  // another match at the table
        }
        std::string text = frames[f];
        if (j.is_object() && j.value("type", "") == "table" && j.contains("history")) {
            for (const auto& m : history_mismatches(j, deals)) leaks.push_back("frame " + std::to_string(f) + ": " + m);
            nlohmann::json rest = j;
            rest.erase("history");
            text = rest.dump();
        }
        for (std::sregex_iterator it(text.begin(), text.end(), kCard), end; it != end; ++it) {
            const std::string card = (*it)[1];
            if (!allowed.count(card)) leaks.push_back("frame " + std::to_string(f) + " shows " + card);
        }
    }
    return leaks;
}

}  // namespace tarneeb::server::testing
