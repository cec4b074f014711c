// The engine protocol's single lines (include/tarneeb/bots/engine_lines.hpp): the host's hello,
// setoption and go, the engine's option line, and the readers of an engine's lines and of go.
#include "tarneeb/bots/engine_lines.hpp"

#include <utility>

#include "engine_words.hpp"
#include "tarneeb/bots/engine_notation.hpp"

namespace tarneeb::bots {

// ---- the host's lines ---------------------------------------------------------------------

std::string go_line(const SeatView& view, int budget_ms) {
    return "go budget_ms " + std::to_string(budget_ms) + " legal " + legal_tokens(view) + "\n";
}

std::string hello_line() { return "tarneeb-engine " + std::to_string(kEngineProtocolVersion) + "\n"; }

std::string setoption_line(std::string_view name, std::string_view value) {
    return "setoption name " + std::string(name) + " value " + std::string(value) + "\n";
}

std::optional<GoRequest> parse_go(std::string_view line) {
    const auto w = detail::words(line);
    if (w.size() < 4 || w[0] != "go" || w[1] != "budget_ms" || w[3] != "legal") return std::nullopt;
    const auto budget = detail::to_int(w[2]);
    if (!budget || *budget < 0 || *budget > 1'000'000'000) return std::nullopt;
    GoRequest g;
    g.budget_ms = static_cast<int>(*budget);
    for (std::size_t i = 4; i < w.size(); ++i) g.legal.emplace_back(w[i]);
    return g;
}

// ---- the engine's lines -------------------------------------------------------------------

std::string option_line(const EngineOption& o) {
    std::string out = "option name " + o.name + " type " + o.type + " default " + o.default_value;
    if (o.min) out += " min " + std::to_string(*o.min);
    if (o.max) out += " max " + std::to_string(*o.max);
    return out + "\n";
}

EngineLine parse_engine_line(std::string_view line) {
    const auto w = detail::words(line);
    EngineLine out;
    out.text = std::string(line.substr(0, line.size() - (!line.empty() && line.back() == '\r')));
    if (w.empty()) return out;
    if (w[0] == "action" && w.size() == 2) {
        out.kind = EngineLine::Kind::action;
        out.text = std::string(w[1]);
    } else if (w[0] == "ready" && w.size() == 1) {
        out.kind = EngineLine::Kind::ready;
    } else if (w[0] == "info") {
        out.kind = EngineLine::Kind::info;
        out.text = detail::rest_after(line, 1);
    } else if (w[0] == "error") {
        out.kind = EngineLine::Kind::error;
        out.text = detail::rest_after(line, 1);
    } else if (w[0] == "id" && w.size() >= 3 && (w[1] == "name" || w[1] == "author")) {
        out.kind = w[1] == "name" ? EngineLine::Kind::id_name : EngineLine::Kind::id_author;
        out.text = detail::rest_after(line, 2);
    } else if (w[0] == "option" && w.size() >= 7 && w[1] == "name" && w[3] == "type" && w[5] == "default") {
        EngineOption o{std::string(w[2]), std::string(w[4]), std::string(w[6]), std::nullopt, std::nullopt};
        if (o.type != "int" && o.type != "bool" && o.type != "string") return out;
        for (std::size_t i = 7; i + 1 < w.size(); i += 2) {
            const auto v = detail::to_int(w[i + 1]);
            if (!v || (w[i] != "min" && w[i] != "max")) return out;
            (w[i] == "min" ? o.min : o.max) = *v;
        }
        if ((w.size() - 7) % 2 != 0) return out;
        out.kind = EngineLine::Kind::option;
        out.option = std::move(o);
    }
    return out;
}

}  // namespace tarneeb::bots
