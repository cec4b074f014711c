// Accounts (docs/protocol.md "Accounts"): a guest's name made a registered account with a
// password, signed in on any device with name and password.
//
// Passwords: 8..256 characters (Unicode code points, as NIST SP 800-63B counts them: four
// Arabic letters are four; kMinPasswordChars, kMaxPasswordChars) of valid UTF-8, any characters.
// Stored only as libsodium's Argon2id string (crypto_pwhash_str_alg, ARGON2ID13) with the
// interactive limits (crypto_pwhash_OPSLIMIT_INTERACTIVE = 2 passes,
// crypto_pwhash_MEMLIMIT_INTERACTIVE = 64 MiB): `$argon2id$v=19$m=65536,t=2,p=1$<salt>$<hash>`,
// salt random per password. Hashing or checking one takes tens of milliseconds and 64 MiB:
// the hall runs them on its password threads (a bounded queue), never on its event loop.
// No password is ever stored or logged in clear.
//
// Sign-in attempts are limited (SignInAttempts, in the hall): failures per name key from one
// address (kNameFailures in kAttemptWindowMs) and per address (kAddressFailures in the same
// window) are refused; a name's failures from everywhere only space its attempts out (at most
// kNameBackoffCapMs), so that nobody can lock its owner out.
// An attempt counts as a failure from the moment its password is queued for checking until it
// succeeds, so that attempts sent at once cannot pass the limit while they wait.
//
// Error codes of the accounts' messages (stable, docs/protocol.md):
//   bad_credentials     wrong name or password, the same answer and about the same time whether
//                       the name exists or not (an unknown name checks a dummy hash)
//   bad_password        a new password outside 8..256 bytes
//   too_many_attempts   too many failed sign-ins for this name or from this address lately
//   busy                the password queue is full (too many sign-ins at once): try again
//   already_registered  `register` from a registered player
//   not_registered      a request for registered players only, from a guest
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <unordered_map>

namespace tarneeb::server {

inline constexpr std::size_t kMinPasswordChars = 8;
inline constexpr std::size_t kMaxPasswordChars = 256;
/// The most bytes a password can have (kMaxPasswordChars of 4-byte UTF-8): longer input is
/// refused before it is decoded.
inline constexpr std::size_t kMaxPasswordBytes = 4 * kMaxPasswordChars;

inline constexpr std::string_view kBadCredentials = "bad_credentials";
inline constexpr std::string_view kBadPassword = "bad_password";
inline constexpr std::string_view kTooManyAttempts = "too_many_attempts";
inline constexpr std::string_view kBusy = "busy";
inline constexpr std::string_view kAlreadyRegistered = "already_registered";
inline constexpr std::string_view kNotRegistered = "not_registered";

/// True when `password` is an acceptable new password: valid UTF-8 of
/// kMinPasswordChars..kMaxPasswordChars code points.
bool password_length_ok(std::string_view password);

/// The Argon2id string of `password` (a fresh random salt each call; interactive limits, as
/// above). Slow (tens of ms, 64 MiB): call off the event loop. Throws std::runtime_error when
/// libsodium cannot (out of memory).
std::string hash_password(std::string_view password);

/// True when `password` matches `stored` (an Argon2id string from hash_password). False for a
/// wrong password and for a `stored` that is not such a string. Slow, like hash_password.
bool check_password(std::string_view stored, std::string_view password);

/// Checks `password` against a fixed hash of a random password nobody knows, with the stored
/// hashes' parameters, and returns false whatever the result: the same work as check_password,
/// for a sign-in whose name is unknown or not registered, so that the answer takes about the
/// same time whether the name exists or not.
bool check_dummy_password(std::string_view password);

/// The parameters written in an `$argon2id$v=19$m=M,t=T,p=P$...` string: memory in KiB,
/// passes, lanes. nullopt when `stored` is not of that form.
struct Argon2Params {
    std::uint32_t memory_kib = 0;
    std::uint32_t passes = 0;
    std::uint32_t lanes = 0;
};
std::optional<Argon2Params> argon2id_params(std::string_view stored);

/// Failed sign-ins in a sliding window, by key (a name key or an address). On the hall's
/// thread only. Memory: at most `max_failures` times per key (a key at its limit gets no more
/// attempts, so no more failures), and keys whose failures are all older than the window are
/// dropped once the map holds more than kPrune keys.
class AttemptLimiter {
public:
    AttemptLimiter(int max_failures, std::int64_t window_ms) : max_(max_failures), window_(window_ms) {}
    /// 0 when `key` may try now (`now` in ms); else the ms until its oldest failure leaves the window.
    std::int64_t wait_ms(const std::string& key, std::int64_t now);
    /// A failed attempt of `key` at `now`.
    void failed(const std::string& key, std::int64_t now);
    /// A successful sign-in: the key's failures are forgotten.
    void succeeded(const std::string& key) { failures_.erase(key); }
    /// Takes back the latest failure of `key` (an attempt counted as failed while it was
    /// checked, which then succeeded).
    void forgive(const std::string& key);
    std::size_t keys() const { return failures_.size(); }
    /// The failures of `key` in the window at `now` (at most max_failures) and when the latest was.
    std::pair<int, std::int64_t> recent(const std::string& key, std::int64_t now);

    static constexpr std::size_t kPrune = 4096;

private:
    void forget_old(std::deque<std::int64_t>& times, std::int64_t now) const;
    int max_;
    std::int64_t window_;
    std::unordered_map<std::string, std::deque<std::int64_t>> failures_;
};

/// Failures on one key (a name, a table's join code) from anywhere: never a lock-out, a growing
/// spacing (issue 27). Past `free` failures in the window, an attempt waits
/// `base_ms` · 2^(failures − free) after the latest failure, at most `cap_ms`; so whoever has the
/// right password or code gets in within `cap_ms` whatever others try. On one thread.
class AttemptSpacing {
public:
    AttemptSpacing(int free, std::int64_t window_ms, std::int64_t base_ms, std::int64_t cap_ms)
        : free_(free), base_(base_ms), cap_(cap_ms), failures_(free + 16, window_ms) {}
    /// 0 when `key` may try at `now`; else the ms to wait.
    std::int64_t wait_ms(const std::string& key, std::int64_t now);
    void failed(const std::string& key, std::int64_t now) { failures_.failed(key, now); }
    void forgive(const std::string& key) { failures_.forgive(key); }
    void succeeded(const std::string& key) { failures_.succeeded(key); }

private:
    int free_;
    std::int64_t base_, cap_;
    AttemptLimiter failures_;  ///< the latest free + 16 failures per key: the spacing is at its cap long before
};

/// The limits `tarneeb serve` uses (HallConfig): 5 failures per name from one address and 20
/// per address in 15 minutes; past 5 failures on a name from anywhere, its attempts are spaced
/// 1 s, 2 s, 4 s ... at most 30 s apart.
inline constexpr int kNameFailures = 5;
inline constexpr int kAddressFailures = 20;
inline constexpr std::int64_t kAttemptWindowMs = 15 * 60 * 1000;
inline constexpr std::int64_t kNameBackoffBaseMs = 1000;
inline constexpr std::int64_t kNameBackoffCapMs = 30'000;
/// Wrong join codes of private tables (HallConfig): 20 per address, 10 per table before spacing.
inline constexpr int kCodeFailuresPerAddress = 20;
inline constexpr int kCodeFailuresPerTable = 10;

/// The sign-in limits (issue 27): what `hello` with a password and `change_password` check
/// before a password is tried. A name is never locked for everyone — a lock on a name let anyone
/// lock its owner out for good — so the rules are:
///   - per address: `address_failures` failures in the window, then too_many_attempts;
///   - per name from one address: `name_failures` failures in the window, then too_many_attempts;
///   - per name from anywhere: past `name_failures` failures in the window, an attempt waits
///     kNameBackoffBaseMs · 2^(failures − name_failures) after the latest failure, at most
///     kNameBackoffCapMs; so its owner, from an address that has not failed, gets in within
///     that wait whatever others try.
/// An attempt counts as failed from the moment it is let through (attempts sent at once stay
/// within the limits) until forgiven (it succeeded, or was never tried). On the hall's thread.
class SignInAttempts {
public:
    SignInAttempts(int name_failures, int address_failures, std::int64_t window_ms);
    /// 0 when an attempt on name key `key` from `address` may go now; else the ms to wait.
    std::int64_t wait_ms(const std::string& key, const std::string& address, std::int64_t now);
    /// An attempt let through at `now`: counted as failed until forgiven.
    void failed(const std::string& key, const std::string& address, std::int64_t now);
    /// Takes back the latest failure counted for `key` from `address`.
    void forgive(const std::string& key, const std::string& address);
    /// The right password: the name's failures are forgotten, the address's latest forgiven.
    void succeeded(const std::string& key, const std::string& address);

private:
    static std::string pair(const std::string& key, const std::string& address) { return key + '\n' + address; }
    AttemptSpacing name_;     ///< per name from anywhere
    AttemptLimiter pair_;     ///< per name from one address
    AttemptLimiter address_;  ///< per address, all names
};

}  // namespace tarneeb::server
