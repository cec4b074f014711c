// The `Authorization` header of the HTTP API (docs/protocol.md "HTTP"): who asks, for reads that
// depend on it (a private table's matches are its players'). Boost-free, tested without sockets
// (tests/net/http_auth_test.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tarneeb::server {

/// The longest token taken from a header; a longer one counts as none.
inline constexpr std::size_t kMaxBearerToken = 128;

/// The token of an `Authorization: Bearer <token>` header value, or "" when it is anything else
/// (another scheme, no token, spaces or a comma after it, over kMaxBearerToken bytes). As RFC
/// 9110 §11.1 and RFC 6750 §2.1 say: the scheme is case-insensitive and one or more spaces
/// separate it from the token (a token68: letters, digits and -._~+/ then any '=').
inline std::string bearer_token(std::string_view value) {
    constexpr std::string_view scheme = "bearer";
    if (value.size() <= scheme.size()) return {};
    for (std::size_t i = 0; i < scheme.size(); ++i)
        if ((value[i] | 0x20) != scheme[i]) return {};
    std::size_t at = scheme.size();
    if (value[at] != ' ') return {};
    while (at < value.size() && value[at] == ' ') ++at;
    const std::string_view token = value.substr(at);
    if (token.empty() || token.size() > kMaxBearerToken) return {};
    std::size_t i = 0;
    auto token_char = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
               c == '_' || c == '~' || c == '+' || c == '/';
    };
    while (i < token.size() && token_char(token[i])) ++i;
    if (i == 0) return {};
    while (i < token.size() && token[i] == '=') ++i;
    return i == token.size() ? std::string(token) : std::string();
}

}  // namespace tarneeb::server
