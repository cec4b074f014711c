// A Bot as an engine of the engine protocol (include/tarneeb/bots/engine_adapter.hpp).
#include "tarneeb/bots/engine_adapter.hpp"

#include <charconv>
#include <istream>
#include <ostream>

#include "tarneeb/bots/loop.hpp"

namespace tarneeb::bots {

namespace {

/// Checks a setoption value against its declaration; an error text, or "" when fine.
std::string check_value(const EngineOption& o, const std::string& v) {
    if (o.type == "bool") return v == "true" || v == "false" ? "" : "expects true or false";
    if (o.type != "int") return "";
    long long n = 0;
    const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
    if (ec == std::errc() && p == v.data() + v.size()) return (o.min && n < *o.min) || (o.max && n > *o.max) ? "out of range" : "";
    // Beyond a signed 64-bit integer: an unsigned one (a 64-bit seed), when no maximum is set.
    unsigned long long u = 0;
    const auto [q, uec] = std::from_chars(v.data(), v.data() + v.size(), u);
    if (uec != std::errc() || q != v.data() + v.size()) return "expects an integer";
    return o.max ? "out of range" : "";
}

}  // namespace

int run_engine(const EngineAdapter& adapter, std::istream& in, std::ostream& out, std::ostream& log) {
    std::string line;
    while (std::getline(in, line) && line.find_first_not_of(" \t\r") == std::string::npos) {
    }
    if (!in) return 0;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line != "tarneeb-engine " + std::to_string(kEngineProtocolVersion)) {
        out << "error unsupported protocol, this engine speaks tarneeb-engine " << kEngineProtocolVersion << std::endl;
        return 1;
    }
    out << "id name " << adapter.name << "\n";
    out << "id author " << adapter.author << "\n";
    std::map<std::string, std::string> values;
    for (const EngineOption& o : adapter.options) {
        out << option_line(o);
        values[o.name] = o.default_value;
    }
    out << "ready" << std::endl;

    EngineGame game;
    std::unique_ptr<Bot> bot;
    int bot_budget = -1;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        if (line == "quit") return 0;
        if (line.starts_with("setoption ")) {
            // setoption name NAME value VALUE
            const auto name_at = line.find(" name "), value_at = line.find(" value ");
            if (name_at == std::string::npos || value_at == std::string::npos || value_at < name_at) {
                log << "engine: unreadable line: " << line << "\n";
                continue;
            }
            const std::string name = line.substr(name_at + 6, value_at - name_at - 6);
            const std::string value = line.substr(value_at + 7);
            const EngineOption* o = nullptr;
            for (const EngineOption& d : adapter.options)
                if (d.name == name) o = &d;
            if (!o) {
                log << "engine: no option " << name << "\n";
                continue;
            }
            if (const std::string why = check_value(*o, value); !why.empty()) {
                log << "engine: option " << name << " " << why << ": " << value << "\n";
                continue;
            }
            values[name] = value;
            bot.reset();  // made again with the new value at the next go
            continue;
        }
        if (line.starts_with("go")) {
            const auto go = parse_go(line);
            if (!go) {
                log << "engine: unreadable line: " << line << "\n";
                continue;
            }
            const bool can_decide = game.has_deal() && game.view().my_turn();
            if (!can_decide) {
                log << "engine: asked to act when it is not this seat's turn: " << line << "\n";
                out << "action " << (go->legal.empty() ? std::string("pass") : go->legal.front()) << std::endl;
                continue;
            }
            const SeatView view = game.view();
            if (const std::string mine = legal_tokens(view), theirs = line.substr(line.find(" legal ") + 7); mine != theirs)
                log << "engine: the host's legal actions (" << theirs << ") are not the rules' (" << mine << ")\n";
            if (!bot || (adapter.remake_on_budget && go->budget_ms != bot_budget)) {
                bot = adapter.make(values, go->budget_ms);
                bot_budget = go->budget_ms;
            }
            out << "action " << action_token(decide_or_default(*bot, view)) << std::endl;
            continue;
        }
        if (const auto error = game.apply(line)) {
            log << "engine: " << *error << ": " << line << "\n";
            continue;
        }
        if (const auto acted = game.last_action(); acted && bot) bot->observe(game.view(), acted->first, acted->second);
    }
    return 0;
}

}  // namespace tarneeb::bots
