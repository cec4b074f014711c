#include "tarneeb/net/static_files.hpp"

#include <string>
#include <system_error>

namespace tarneeb::server {

namespace fs = std::filesystem;

namespace {

int hex_digit(char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/// Percent-decodes `s` once; nullopt for a malformed escape or a byte no file name here has.
std::optional<std::string> decode_path(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        char ch = s[i];
        if (ch == '%') {
            if (i + 2 >= s.size()) return std::nullopt;
            const int hi = hex_digit(s[i + 1]), lo = hex_digit(s[i + 2]);
            if (hi < 0 || lo < 0) return std::nullopt;
            ch = static_cast<char>(hi * 16 + lo);
            i += 2;
            if (ch == '%') return std::nullopt;  // "%25...": no second decoding, no such names
        }
        const auto u = static_cast<unsigned char>(ch);
        if (u < 0x20 || u == 0x7f || ch == '\\') return std::nullopt;
        out.push_back(ch);
    }
    return out;
}

/// Whether `p` is `root` or below it (both canonical).
bool inside(const fs::path& root, const fs::path& p) {
    auto r = root.begin();
    auto q = p.begin();
    for (; r != root.end(); ++r, ++q) {
        if (r->empty()) continue;  // a trailing separator of root
        if (q == p.end() || *r != *q) return false;
    }
    return true;
}

}  // namespace

std::optional<fs::path> resolve_static(const fs::path& root, std::string_view target,
                                       const std::vector<fs::path>& forbidden) {
    if (root.empty() || target.empty() || target.size() > kMaxStaticTarget || target.front() != '/') return std::nullopt;
    target = target.substr(0, target.find_first_of("?#"));
    const auto decoded = decode_path(target);
    if (!decoded || decoded->empty() || decoded->front() != '/') return std::nullopt;
    std::error_code ec;
    const fs::path base = fs::canonical(root, ec);
    if (ec || !fs::is_directory(base, ec)) return std::nullopt;

    fs::path candidate = base;
    std::string_view rest = std::string_view(*decoded).substr(1);
    while (true) {
        const auto slash = rest.find('/');
        const std::string_view seg = rest.substr(0, slash);
        if (slash == std::string_view::npos && seg.empty()) {
            candidate /= "index.html";  // "/" or ".../"
            break;
        }
        if (seg.empty() || seg.front() == '.') return std::nullopt;  // "//", ".", "..", hidden files
        candidate /= fs::path(std::string(seg));
        if (slash == std::string_view::npos) break;
        rest = rest.substr(slash + 1);
    }

    const fs::path real = fs::canonical(candidate, ec);  // follows every symlink
    if (ec || !inside(base, real)) return std::nullopt;
    if (!fs::is_regular_file(real, ec) || ec) return std::nullopt;
    for (const auto& f : forbidden) {
        if (f.empty()) continue;
        const fs::path abs = fs::weakly_canonical(fs::absolute(f, ec), ec);
        if (ec) continue;
        for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
            const fs::path banned = fs::weakly_canonical(abs.string() + suffix, ec);
            if (!ec && banned == real) return std::nullopt;
            if (fs::equivalent(real, abs.string() + suffix, ec) && !ec) return std::nullopt;  // a hard link
        }
    }
    return real;
}

}  // namespace tarneeb::server
