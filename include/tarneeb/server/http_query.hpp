// The query string of an HTTP API request ("limit=20&before=t3-1"): its parameters, decoded.
// Boost-free, used by the hall's HTTP endpoints (hall_http.cpp, hall_fairplay.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tarneeb::server {

/// `s` with each %XX (hex) replaced by its byte and each '+' by a space (application/
/// x-www-form-urlencoded); a '%' not followed by two hex digits is kept as it is.
inline std::string url_decode(std::string_view s) {
    std::string out;
    auto hex = [](char ch) -> int {
        if (ch >= '0' && ch <= '9') return ch - '0';
        if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
        if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
        return -1;
    };
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            const int hi = hex(s[i + 1]), lo = hex(s[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out.push_back(static_cast<char>(hi * 16 + lo));
                i += 2;
                continue;
            }
        }
        out.push_back(s[i] == '+' ? ' ' : s[i]);
    }
    return out;
}

/// The value of `key` in a query string, URL-decoded; the last one when the key is there more
/// than once; "" for a key with no '='; nullopt when it is absent.
inline std::optional<std::string> query_param(std::string_view query, std::string_view key) {
    std::optional<std::string> value;
    while (!query.empty()) {
        const auto amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
        const auto eq = pair.find('=');
        if (url_decode(pair.substr(0, eq)) != key) continue;
        value = eq == std::string_view::npos ? std::string() : url_decode(pair.substr(eq + 1));
    }
    return value;
}

/// A parameter that must be a whole number in [lo, hi] written in at most 9 decimal digits:
/// `fallback` when absent, nullopt when anything else (a bad request).
inline std::optional<int> int_param(std::string_view query, std::string_view key, int fallback, int lo, int hi) {
    const auto v = query_param(query, key);
    if (!v) return fallback;
    if (v->empty() || v->size() > 9) return std::nullopt;
    int n = 0;
    for (char c : *v) {
        if (c < '0' || c > '9') return std::nullopt;
        n = n * 10 + (c - '0');
    }
    if (n < lo || n > hi) return std::nullopt;
    return n;
}

}  // namespace tarneeb::server
