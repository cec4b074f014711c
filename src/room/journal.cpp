#include "tarneeb/room/journal.hpp"

#include <algorithm>
#include <utility>

#include "json_text.hpp"
#include "tarneeb/support/overloaded.hpp"

namespace tarneeb::server {

using nlohmann::json;

json journal_json(const JournalEntry& entry) {
    return std::visit(
        Overloaded{
            [](const journal::Sit& e) { return json{{"op", "sit"}, {"seat", index(e.seat)}, {"name", e.name}}; },
            [](const journal::Leave& e) { return json{{"op", "leave"}, {"seat", index(e.seat)}}; },
            [](const journal::AddBot& e) {
                return json{{"op", "bot"}, {"seat", index(e.seat)}, {"bot", e.bot}, {"seed", e.seed}};
            },
            [](const journal::RemoveBot& e) { return json{{"op", "unbot"}, {"seat", index(e.seat)}}; },
            [](const journal::Start& e) {
                json j{{"op", "start"}, {"seed", e.seed}};
                if (e.match) j["match"] = *e.match;
                if (e.version) j["version"] = *e.version;
                if (e.deal) j["deal"] = *e.deal;
                return j;
            },
            [](const journal::Act& e) {
                json j{{"op", "act"}, {"seat", index(e.seat)}, {"a", action_text(e.action)}};
                if (e.deal) j["deal"] = *e.deal;
                if (e.timeout) j["timeout"] = true;
                return j;
            },
        },
        entry);
}

namespace {
using json_text::key;
using json_text::put;

/// `"op":"<op>","seat":<seat>` (the keys that follow each other in sit, leave, unbot and act).
void put_op_and_seat(std::string& out, std::string_view op, Seat seat, bool first) {
    key(out, "op", first);
    put(out, op);
    key(out, "seat");
    put(out, index(seat));
}
}  // namespace

std::string journal_text(const JournalEntry& entry) {
    // Keys in dump()'s order (sorted); an optional key is left out when it has no value.
    std::string out;
    out.reserve(64);
    out += '{';
    std::visit(Overloaded{
                   [&](const journal::Sit& e) {
                       key(out, "name", true);
                       put(out, e.name);
                       put_op_and_seat(out, "sit", e.seat, false);
                   },
                   [&](const journal::Leave& e) { put_op_and_seat(out, "leave", e.seat, true); },
                   [&](const journal::AddBot& e) {
                       key(out, "bot", true);
                       put(out, e.bot);
                       put_op_and_seat(out, "bot", e.seat, false);
                       key(out, "seed");
                       put(out, e.seed);
                   },
                   [&](const journal::RemoveBot& e) { put_op_and_seat(out, "unbot", e.seat, true); },
                   [&](const journal::Start& e) {
                       bool first = true;
                       if (e.deal) {
                           key(out, "deal", std::exchange(first, false));
                           put(out, *e.deal);
                       }
                       if (e.match) {
                           key(out, "match", std::exchange(first, false));
                           put(out, *e.match);
                       }
                       key(out, "op", first);
                       put(out, "start");
                       key(out, "seed");
                       put(out, e.seed);
                       if (e.version) {
                           key(out, "version");
                           put(out, *e.version);
                       }
                   },
                   [&](const journal::Act& e) {
                       key(out, "a", true);
                       put(out, action_text(e.action));
                       if (e.deal) {
                           key(out, "deal");
                           put(out, *e.deal);
                       }
                       put_op_and_seat(out, "act", e.seat, false);
                       if (e.timeout) {
                           key(out, "timeout");
                           put(out, true);
                       }
                   },
               },
               entry);
    out += '}';
    return out;
}

std::optional<JournalEntry> parse_journal_entry(const json& e) {
    try {
        const std::string op = e.at("op").get<std::string>();
        const auto seat_at = [&] { return tarneeb::seat(e.at("seat").get<int>() & 3); };
        const auto unsigned_at = [&](const char* key) -> std::optional<std::uint64_t> {
            if (auto it = e.find(key); it != e.end() && it->is_number_unsigned()) return it->get<std::uint64_t>();
            return std::nullopt;
        };
        if (op == "sit") return journal::Sit{seat_at(), e.at("name").get<std::string>()};
        if (op == "leave") return journal::Leave{seat_at()};
        if (op == "bot") return journal::AddBot{seat_at(), e.at("bot").get<std::string>(), e.at("seed").get<std::uint64_t>()};
        if (op == "unbot") return journal::RemoveBot{seat_at()};
        if (op == "start") {
            journal::Start s;
            s.seed = e.at("seed").get<std::uint64_t>();
            if (e.contains("match")) s.match = e.at("match").get<int>();
            s.version = unsigned_at("version");
            s.deal = unsigned_at("deal");
            return s;
        }
        if (op == "act") {
            const auto a = parse_action_text(e.at("a").get<std::string>());
            if (!a) return std::nullopt;
            return journal::Act{seat_at(), *a, unsigned_at("deal"), e.value("timeout", false)};
        }
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

std::string_view journal_op(const JournalEntry& entry) {
    static constexpr std::string_view kOps[] = {"sit", "leave", "bot", "unbot", "start", "act"};
    return kOps[entry.index()];
}

std::string action_text(Action a) {
    switch (a.kind) {
        case ActionKind::call: return a.is_pass() ? "pass" : std::to_string(a.bid_value());
        case ActionKind::trump: return std::string{'t', suit_letter(a.suit())};
        case ActionKind::play: return to_string(a.card());
    }
    return "?";
}

std::optional<Action> parse_action_text(std::string_view text) {
    if (text == "pass") return Action::pass();
    if (text.size() == 2 && text[0] == 't') {
        const auto s = parse_suit(text.substr(1));
        if (s) return Action::name_trump(*s);
        return std::nullopt;
    }
    if (!text.empty() && text.size() <= 2 && std::all_of(text.begin(), text.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
        int v = 0;
        for (char ch : text) v = v * 10 + (ch - '0');
        return Action::bid(v);
    }
    const auto c = parse_card(text);
    if (c) return Action::play(*c);
    return std::nullopt;
}

}  // namespace tarneeb::server
