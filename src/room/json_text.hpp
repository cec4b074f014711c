// Writing JSON values straight to text as nlohmann::json's dump() writes them (compact, UTF-8
// passed through): the fast writers of the room's hot texts, the table message
// (table_message.cpp) and the journal entries (journal.cpp), each checked byte for byte against
// the dump() of its plain JSON reference in tests. Each appends to `out`.
// Internal to the room library (not a public header).
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tarneeb::server::json_text {

inline void put(std::string& out, std::int64_t v) {
    char buf[24];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, static_cast<std::size_t>(end - buf));
}
inline void put(std::string& out, int v) { put(out, static_cast<std::int64_t>(v)); }
inline void put(std::string& out, std::uint64_t v) {
    char buf[24];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, static_cast<std::size_t>(end - buf));
}
inline void put(std::string& out, bool v) { out += v ? "true" : "false"; }

/// A string with dump()'s escapes: \" \\ \b \f \n \r \t, other control bytes as \u00xx.
inline void put(std::string& out, std::string_view s) {
    out += '"';
    for (const char ch : s) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\b': out += "\\b"; break;
            case '\f': out += "\\f"; break;
            case '\n': out += "\\n"; break;
            case '\r': out += "\\r"; break;
            case '\t': out += "\\t"; break;
            default:
                if (c < 0x20) {
                    static constexpr char kHex[] = "0123456789abcdef";
                    out += "\\u00";
                    out += kHex[c >> 4];
                    out += kHex[c & 15];
                } else {
                    out += ch;
                }
        }
    }
    out += '"';
}
inline void put(std::string& out, const char* s) { put(out, std::string_view(s)); }

/// `[A,B]`: a pair of numbers (the teams' points, tricks, scores).
inline void put_pair(std::string& out, int a, int b) {
    out += '[';
    put(out, a);
    out += ',';
    put(out, b);
    out += ']';
}

/// The value, or null.
template <class T>
void put_or_null(std::string& out, const std::optional<T>& v) {
    if (v) put(out, *v);
    else out += "null";
}

/// `"key":` after a comma unless it is the object's first key.
inline void key(std::string& out, std::string_view k, bool first = false) {
    if (!first) out += ',';
    out += '"';
    out += k;
    out += "\":";
}

}  // namespace tarneeb::server::json_text
