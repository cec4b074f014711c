// The engine protocol's notation (include/tarneeb/bots/engine_notation.hpp): action tokens in
// their phase, the legal actions as one line, the preset's name, and split_command.
#include "tarneeb/bots/engine_notation.hpp"

#include <algorithm>
#include <utility>

#include "engine_words.hpp"

namespace tarneeb::bots {

std::string action_token(Action a) {
    switch (a.kind) {
        case ActionKind::call: return a.is_pass() ? std::string("pass") : std::to_string(a.bid_value());
        case ActionKind::trump: return std::string(1, suit_letter(a.suit()));
        case ActionKind::play: return to_string(a.card());
    }
    return "?";
}

std::optional<Action> parse_action_token(std::string_view t, Phase phase) {
    switch (phase) {
        case Phase::auction: {
            if (t == "pass") return Action::pass();
            if (t.empty() || t.size() > 2 || t[0] == '0') return std::nullopt;
            if (!std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; })) return std::nullopt;
            return Action::bid(static_cast<int>(*detail::to_int(t)));
        }
        case Phase::trump: {
            if (t.size() != 1) return std::nullopt;  // letters only, not the symbols
            const auto s = parse_suit(t);
            if (!s) return std::nullopt;
            return Action::name_trump(*s);
        }
        case Phase::play: {
            const auto c = parse_card(t);
            if (!c) return std::nullopt;
            return Action::play(*c);
        }
        default: return std::nullopt;
    }
}

std::string legal_tokens(const SeatView& view) {
    std::string out;
    for (Action a : view.legal_actions()) {
        if (!out.empty()) out += ' ';
        out += action_token(a);
    }
    return out;
}

std::string_view rules_name(const Rules& rules) {
    // The play rules only: target, cap, pass-out close and tie-break are match settings a
    // table may change within a preset (rules.md "Preset classic").
    const auto same_play = [&rules](const Rules& p) {
        return rules.auction == p.auction && rules.scoring == p.scoring && rules.pass_out_dealer == p.pass_out_dealer &&
               rules.min_bid == p.min_bid && rules.max_bid == p.max_bid;
    };
    if (same_play(kLevantine)) return "levantine";
    if (same_play(kClassic)) return "classic";
    return "custom";
}

std::optional<std::vector<std::string>> split_command(std::string_view command) {
    std::vector<std::string> out;
    std::string word;
    bool in_word = false;
    for (std::size_t i = 0; i < command.size(); ++i) {
        const char c = command[i];
        if (c == ' ' || c == '\t' || c == '\n') {
            if (in_word) out.push_back(std::exchange(word, {}));
            in_word = false;
            continue;
        }
        in_word = true;
        if (c == '\\') {
            if (++i == command.size()) return std::nullopt;
            word += command[i];
        } else if (c == '\'') {
            const std::size_t end = command.find('\'', i + 1);
            if (end == std::string_view::npos) return std::nullopt;
            word.append(command.substr(i + 1, end - i - 1));
            i = end;
        } else if (c == '"') {
            for (++i;; ++i) {
                if (i == command.size()) return std::nullopt;
                const char d = command[i];
                if (d == '"') break;
                if (d == '\\' && i + 1 < command.size() &&
                    (command[i + 1] == '"' || command[i + 1] == '\\' || command[i + 1] == '$' || command[i + 1] == '`'))
                    ++i;
                word += command[i];
            }
        } else {
            word += c;
        }
    }
    if (in_word) out.push_back(std::move(word));
    return out;
}

}  // namespace tarneeb::bots
