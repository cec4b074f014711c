// Private to the engine protocol's files (src/bots/engine_*.cpp): the small readers every line
// of the protocol goes through (words, integers, seats) and the one seat writer. A line's words
// are separated by spaces or tabs, and a trailing "\r" is ignored (docs/engine-protocol.md
// "Lines"); numbers are decimal, seats the digits 0..3.
#pragma once

#include <charconv>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tarneeb/core/cards.hpp"

namespace tarneeb::bots::detail {

/// Words of a line separated by spaces or tabs (a trailing "\r" dropped).
inline std::vector<std::string_view> words(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::vector<std::string_view> out;
    std::size_t at = 0;
    while (at < line.size()) {
        const std::size_t b = line.find_first_not_of(" \t", at);
        if (b == std::string_view::npos) break;
        std::size_t e = line.find_first_of(" \t", b);
        if (e == std::string_view::npos) e = line.size();
        out.push_back(line.substr(b, e - b));
        at = e;
    }
    return out;
}

/// The rest of `line` after its first `n` words (for free text), trimmed.
inline std::string rest_after(std::string_view line, int n) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::size_t at = 0;
    for (int i = 0; i < n; ++i) {
        at = line.find_first_not_of(" \t", at);
        if (at == std::string_view::npos) return {};
        at = line.find_first_of(" \t", at);
        if (at == std::string_view::npos) return {};
    }
    const std::size_t b = line.find_first_not_of(" \t", at);
    if (b == std::string_view::npos) return {};
    const std::size_t e = line.find_last_not_of(" \t");
    return std::string(line.substr(b, e - b + 1));
}

/// A decimal integer (optional leading '-'), the whole word.
inline std::optional<long long> to_int(std::string_view w) {
    long long v = 0;
    const auto [p, ec] = std::from_chars(w.data(), w.data() + w.size(), v);
    if (ec != std::errc() || p != w.data() + w.size() || w.empty()) return std::nullopt;
    return v;
}

/// Word i of a line as an integer, if there is one.
inline std::optional<long long> int_at(const std::vector<std::string_view>& w, std::size_t i) {
    return i < w.size() ? to_int(w[i]) : std::nullopt;
}

/// A seat as the protocol writes it: one digit 0..3.
inline std::optional<Seat> to_seat(std::string_view w) {
    if (w.size() != 1 || w[0] < '0' || w[0] > '3') return std::nullopt;
    return seat(w[0] - '0');
}

/// The digit of seat `s` (to_seat's inverse).
inline char seat_char(Seat s) { return static_cast<char>('0' + index(s)); }

}  // namespace tarneeb::bots::detail
