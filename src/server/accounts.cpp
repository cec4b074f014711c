#include "tarneeb/server/accounts.hpp"

#include <algorithm>
#include <initializer_list>
#include <mutex>
#include <stdexcept>

#include <sodium.h>
#include <unicode/utf8.h>


namespace tarneeb::server {

namespace {
void init_sodium() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (sodium_init() < 0) throw std::runtime_error("libsodium cannot be initialised");
    });
}

std::uint32_t read_number(std::string_view& s, std::string_view prefix, bool& ok) {
    if (s.substr(0, prefix.size()) != prefix) {
        ok = false;
        return 0;
    }
    s.remove_prefix(prefix.size());
    std::uint64_t v = 0;
    std::size_t n = 0;
    while (n < s.size() && n < 10 && s[n] >= '0' && s[n] <= '9') v = v * 10 + static_cast<std::uint64_t>(s[n++] - '0');
    if (n == 0 || v > UINT32_MAX) ok = false;
    s.remove_prefix(n);
    return static_cast<std::uint32_t>(v);
}
}  // namespace

bool password_length_ok(std::string_view password) {
    if (password.size() > kMaxPasswordBytes) return false;
    // Code points of well-formed UTF-8 (ICU's U8_NEXT: a negative code point for ill-formed input).
    const auto length = static_cast<std::int32_t>(password.size());
    std::size_t chars = 0;
    for (std::int32_t i = 0; i < length; ++chars) {
        UChar32 c;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"  // inside ICU's macro
        U8_NEXT(password.data(), i, length, c);
#pragma GCC diagnostic pop
        if (c < 0) return false;
    }
    return chars >= kMinPasswordChars && chars <= kMaxPasswordChars;
}

std::string hash_password(std::string_view password) {
    init_sodium();
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str_alg(out, password.data(), password.size(), crypto_pwhash_OPSLIMIT_INTERACTIVE,
                              crypto_pwhash_MEMLIMIT_INTERACTIVE, crypto_pwhash_ALG_ARGON2ID13) != 0)
        throw std::runtime_error("crypto_pwhash_str_alg failed (out of memory)");
    return out;
}

bool check_password(std::string_view stored, std::string_view password) {
    init_sodium();
    if (stored.empty() || stored.size() >= crypto_pwhash_STRBYTES || !argon2id_params(stored)) return false;
    const std::string z(stored);  // NUL-terminated
    return crypto_pwhash_str_verify(z.c_str(), password.data(), password.size()) == 0;
}

bool check_dummy_password(std::string_view password) {
    // hash_password of 32 random bytes that were thrown away, with the same parameters as every
    // stored hash: checking against it costs what checking a real one does, from the first call.
    static constexpr std::string_view kDummy =
        "$argon2id$v=19$m=65536,t=2,p=1$Gi/fWAVeCNGAUDD8JohIAg$5tYb88M1OKej1+3Qdd/AXX/xKvJ7Cz5PGsj2s6f4sic";
    (void)check_password(kDummy, password);
    return false;  // whatever the password: no account stands behind the dummy
}

std::optional<Argon2Params> argon2id_params(std::string_view s) {
    constexpr std::string_view kHead = "$argon2id$v=19$";
    if (s.substr(0, kHead.size()) != kHead) return std::nullopt;
    s.remove_prefix(kHead.size());
    bool ok = true;
    Argon2Params p;
    p.memory_kib = read_number(s, "m=", ok);
    p.passes = read_number(s, ",t=", ok);
    p.lanes = read_number(s, ",p=", ok);
    if (!ok || s.empty() || s[0] != '$') return std::nullopt;
    return p;
}

void AttemptLimiter::forget_old(std::deque<std::int64_t>& times, std::int64_t now) const {
    while (!times.empty() && now - times.front() >= window_) times.pop_front();
}

std::int64_t AttemptLimiter::wait_ms(const std::string& key, std::int64_t now) {
    auto it = failures_.find(key);
    if (it == failures_.end()) return 0;
    forget_old(it->second, now);
    if (it->second.empty()) {
        failures_.erase(it);
        return 0;
    }
    if (static_cast<int>(it->second.size()) < max_) return 0;
    return it->second.front() + window_ - now;
}

void AttemptLimiter::forgive(const std::string& key) {
    auto it = failures_.find(key);
    if (it == failures_.end()) return;
    if (!it->second.empty()) it->second.pop_back();
    if (it->second.empty()) failures_.erase(it);
}

void AttemptLimiter::failed(const std::string& key, std::int64_t now) {
    if (failures_.size() > kPrune) {
        for (auto it = failures_.begin(); it != failures_.end();) {
            forget_old(it->second, now);
            it = it->second.empty() ? failures_.erase(it) : std::next(it);
        }
    }
    auto& times = failures_[key];
    forget_old(times, now);
    times.push_back(now);
    while (static_cast<int>(times.size()) > max_) times.pop_front();
}

std::pair<int, std::int64_t> AttemptLimiter::recent(const std::string& key, std::int64_t now) {
    auto it = failures_.find(key);
    if (it == failures_.end()) return {0, 0};
    forget_old(it->second, now);
    if (it->second.empty()) {
        failures_.erase(it);
        return {0, 0};
    }
    return {static_cast<int>(it->second.size()), it->second.back()};
}

// ---- AttemptSpacing, SignInAttempts ---------------------------------------------------------

std::int64_t AttemptSpacing::wait_ms(const std::string& key, std::int64_t now) {
    const auto [failures, latest] = failures_.recent(key, now);
    if (failures < free_) return 0;
    const std::int64_t spacing = std::min(base_ << std::min(failures - free_, 30), cap_);
    return std::max<std::int64_t>(latest + spacing - now, 0);
}

SignInAttempts::SignInAttempts(int name_failures, int address_failures, std::int64_t window_ms)
    : name_(name_failures, window_ms, kNameBackoffBaseMs, kNameBackoffCapMs), pair_(name_failures, window_ms),
      address_(address_failures, window_ms) {}

std::int64_t SignInAttempts::wait_ms(const std::string& key, const std::string& address, std::int64_t now) {
    return std::max({pair_.wait_ms(pair(key, address), now), address_.wait_ms(address, now), name_.wait_ms(key, now)});
}

void SignInAttempts::failed(const std::string& key, const std::string& address, std::int64_t now) {
    name_.failed(key, now);
    pair_.failed(pair(key, address), now);
    address_.failed(address, now);
}

void SignInAttempts::forgive(const std::string& key, const std::string& address) {
    name_.forgive(key);
    pair_.forgive(pair(key, address));
    address_.forgive(address);
}

void SignInAttempts::succeeded(const std::string& key, const std::string& address) {
    name_.succeeded(key);
    pair_.succeeded(pair(key, address));
    address_.forgive(address);
}

}  // namespace tarneeb::server
