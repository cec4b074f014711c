// Accounts (docs/protocol.md "Accounts"): password hashes as stored, sign-in limits, session
// expiry and revocation, look-alike names, a guest registering with its history kept, and the
// one answer for an unknown name and a wrong password. The hall is driven without sockets.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include <gtest/gtest.h>

#include "hall_harness.hpp"
#include "tarneeb/server/accounts.hpp"
#include "tarneeb/server/hall.hpp"
#include "tarneeb/server/hall_loop.hpp"
#include "test_bot.hpp"

namespace tarneeb::server {
namespace {

using nlohmann::json;

constexpr const char* kPassword = "sesame-open-7";

struct Harness : testing::HallHarness {
    explicit Harness(HallConfig cfg = config(), const std::string& db = ":memory:") : HallHarness(db, cfg) {}

    ConnId connect(const std::string& address = "10.0.0.1") { return HallHarness::connect(address); }
    /// Sends `msg` and returns the answer to it (the connection's last frame).
    json ask(ConnId c, const json& msg) {
        send(c, msg);
        return last_reply(c);
    }
    /// A new guest `name` on a new connection; returns {connection, token}.
    std::pair<ConnId, std::string> guest(const std::string& name, const std::string& address = "10.0.0.1") {
        const ConnId c = connect(address);
        const json w = ask(c, {{"type", "hello"}, {"name", name}});
        EXPECT_EQ(w["type"], "welcome") << w;
        return {c, w.value("token", "")};
    }
    using HallHarness::sign_in;
    json sign_in(ConnId c, const std::string& name, const std::string& password) {
        return ask(c, {{"type", "hello"}, {"name", name}, {"password", password}});
    }
};

TEST(Accounts, PasswordHashIsArgon2idWithTheInteractiveLimits) {
    const std::string stored = hash_password(kPassword);
    EXPECT_EQ(stored.rfind("$argon2id$v=19$", 0), 0u) << stored;
    const auto p = argon2id_params(stored);
    ASSERT_TRUE(p) << stored;
    EXPECT_EQ(p->memory_kib, 65536u);  // crypto_pwhash_MEMLIMIT_INTERACTIVE: 64 MiB
    EXPECT_EQ(p->passes, 2u);          // crypto_pwhash_OPSLIMIT_INTERACTIVE
    EXPECT_EQ(p->lanes, 1u);
    EXPECT_EQ(stored.find(kPassword), std::string::npos);
    EXPECT_NE(hash_password(kPassword), stored) << "a fresh salt each time";
    EXPECT_TRUE(check_password(stored, kPassword));
    EXPECT_FALSE(check_password(stored, "sesame-open-8"));
    EXPECT_FALSE(check_password("", kPassword));
    EXPECT_FALSE(check_password("$argon2i$v=19$m=4096,t=3,p=1$c2FsdHNhbHQ$aGFzaA", kPassword));
    EXPECT_FALSE(check_dummy_password(kPassword));
    EXPECT_FALSE(check_dummy_password(""));
    EXPECT_FALSE(argon2id_params("$argon2id$v=19$m=x,t=2,p=1$abc"));
}

TEST(Accounts, PasswordLengthBounds) {
    EXPECT_FALSE(password_length_ok(std::string(7, 'a')));
    EXPECT_TRUE(password_length_ok(std::string(8, 'a')));
    EXPECT_TRUE(password_length_ok(std::string(256, 'a')));
    EXPECT_FALSE(password_length_ok(std::string(257, 'a')));
    // Characters, not bytes (issue 28): four Arabic letters (8 bytes) are too short, eight are
    // enough; 256 Arabic letters (512 bytes) are allowed, 257 not.
    const std::string kaf = "\xd9\x83";
    std::string four, eight, many;
    for (int i = 0; i < 4; ++i) four += kaf;
    for (int i = 0; i < 8; ++i) eight += kaf;
    for (int i = 0; i < 256; ++i) many += kaf;
    EXPECT_FALSE(password_length_ok(four));
    EXPECT_TRUE(password_length_ok(eight));
    EXPECT_TRUE(password_length_ok(many));
    EXPECT_FALSE(password_length_ok(many + kaf));
    EXPECT_TRUE(password_length_ok("\xf0\x9f\x83\x8f\xf0\x9f\x83\x8f\xf0\x9f\x83\x8f" "abcde"));  // three playing-card emoji and five letters
    // Not UTF-8: a lone continuation byte, a truncated sequence, an overlong '/', a surrogate.
    EXPECT_FALSE(password_length_ok("abcdefg\x80"));
    EXPECT_FALSE(password_length_ok("abcdefgh\xd9"));
    EXPECT_FALSE(password_length_ok("abcdefg\xc0\xaf"));
    EXPECT_FALSE(password_length_ok("abcdefg\xed\xa0\x80"));
}

TEST(Accounts, AttemptLimiterSlidesItsWindow) {
    AttemptLimiter limit(3, 1000);
    EXPECT_EQ(limit.wait_ms("k", 0), 0);
    limit.failed("k", 0);
    limit.failed("k", 100);
    EXPECT_EQ(limit.wait_ms("k", 200), 0);
    limit.failed("k", 200);
    EXPECT_EQ(limit.wait_ms("k", 300), 700);  // the failure at 0 leaves the window at 1000
    EXPECT_EQ(limit.wait_ms("other", 300), 0);
    EXPECT_EQ(limit.wait_ms("k", 1000), 0);
    limit.failed("k", 1000);
    EXPECT_EQ(limit.wait_ms("k", 1000), 100);
    limit.forgive("k");  // the latest failure taken back
    EXPECT_EQ(limit.wait_ms("k", 1000), 0);
    limit.failed("k", 1000);
    limit.succeeded("k");
    EXPECT_EQ(limit.wait_ms("k", 1000), 0);
    EXPECT_EQ(limit.keys(), 0u);
}

TEST(Accounts, DefaultLimitsAreTheDocumentedOnes) {
    const HallConfig c;
    EXPECT_EQ(c.name_failures, 5);
    EXPECT_EQ(c.address_failures, 20);
    EXPECT_EQ(c.attempt_window_ms, 15 * 60 * 1000);
    EXPECT_EQ(c.session_ttl_ms, 30LL * 24 * 3600 * 1000);
}

// Sessions in the store (expiry, revocation, the kMaxSessionsPerPlayer bound), on both
// backends: storage_test.cpp.

TEST(Accounts, GuestRegistersKeepsHistoryAndSignsInElsewhere) {
    Harness h;
    [[maybe_unused]] auto [phone, guest_token] = h.guest("Layla");
    // A match played as a guest, stored under the name.
    MatchRow row;
    row.id = "t9-1";
    row.table = "t9";
    row.finished_ms = h.now;
    row.names = {"Layla", "Omar", "Rana", "Sami"};  // four people: a rated match
    row.status = "won";
    row.winner = 0;
    row.scores = {41, 12};
    row.record = "{}";
    row.rules = "levantine";
    h.storage.store_match(row);  // the hall is idle: its writer thread is not using the storage
    const double rating = h.storage.rating("Layla");
    EXPECT_GT(rating, 1500.0);

    const json reg = h.ask(phone, {{"type", "register"}, {"id", 1}, {"password", kPassword}});
    EXPECT_EQ(reg["type"], "ok") << reg;
    EXPECT_EQ(reg["registered"], true);
    EXPECT_EQ(reg["id"], 1);
    EXPECT_EQ(h.ask(phone, {{"type", "register"}, {"password", kPassword}})["code"], "already_registered");

    // Another device: name (any case) and password.
    const ConnId laptop = h.connect("10.0.0.2");
    const json w = h.sign_in(laptop, "layla", kPassword);
    ASSERT_EQ(w["type"], "welcome") << w;
    EXPECT_EQ(w["name"], "Layla");
    EXPECT_EQ(w["registered"], true);
    EXPECT_NE(w["token"], guest_token);
    EXPECT_EQ(w["token"].get<std::string>().size(), 32u);

    // The phone's token still works (now a session) and says registered.
    const ConnId phone2 = h.connect();
    const json back = h.ask(phone2, {{"type", "hello"}, {"token", guest_token}});
    EXPECT_EQ(back["registered"], true) << back;

    // History and rating are the guest's.
    EXPECT_EQ(h.storage.rating("Layla"), rating);
    EXPECT_EQ(h.storage.player_matches("Layla", /*with_private=*/true)["matches"].size(), 1u);
}

TEST(Accounts, GuestWelcomeSaysNotRegistered) {
    Harness h;
    [[maybe_unused]] auto [c, token] = h.guest("Omar");
    EXPECT_EQ(json::parse(h.frames[c].back())["registered"], false);
    const ConnId again = h.connect();
    EXPECT_EQ(h.ask(again, {{"type", "hello"}, {"token", token}})["registered"], false);
    EXPECT_EQ(h.ask(again, {{"type", "sign_out_everywhere"}})["code"], "not_registered");
    EXPECT_EQ(h.ask(again, {{"type", "sign_out"}})["code"], "not_registered");
    EXPECT_EQ(h.ask(again, {{"type", "change_password"}, {"current", kPassword}, {"password", kPassword}})["code"],
              "not_registered");
}

TEST(Accounts, LookAlikeNamesOfARegisteredPlayerCannotBeTaken) {
    Harness h;
    [[maybe_unused]] auto [c, token] = h.guest("Layla");
    ASSERT_EQ(h.ask(c, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
    for (const char* look_alike : {"Layla", "layla", "LAYLA", "LayIa", "Lay1a"}) {
        const ConnId other = h.connect();
        EXPECT_EQ(h.ask(other, {{"type", "hello"}, {"name", look_alike}})["code"], "name_taken") << look_alike;
    }
    // With a Cyrillic а the name is refused before its key is looked at (mixed scripts).
    EXPECT_EQ(h.ask(h.connect(), {{"type", "hello"}, {"name", "L\xD0\xB0yla"}})["code"], "bad_name");
}

TEST(Accounts, UnknownNameAndWrongPasswordGetTheSameAnswer) {
    Harness h;
    [[maybe_unused]] auto [c, token] = h.guest("Layla");
    ASSERT_EQ(h.ask(c, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
    [[maybe_unused]] auto [g, gt] = h.guest("Rana");  // a guest: a name with no password
    const ConnId d = h.connect("10.0.0.3");
    json wrong = h.sign_in(d, "Layla", "not-the-password");
    json unknown = h.sign_in(d, "Nobody", "not-the-password");
    json unregistered = h.sign_in(d, "Rana", "not-the-password");
    json too_short = h.sign_in(d, "Layla", "short");
    EXPECT_EQ(wrong["code"], "bad_credentials");
    EXPECT_EQ(wrong, unknown);
    EXPECT_EQ(wrong, unregistered);
    EXPECT_EQ(wrong, too_short);
    EXPECT_FALSE(h.hall.guest(d)) << "not signed in";
    // A signed-in connection cannot sign in again.
    EXPECT_EQ(h.sign_in(c, "Layla", kPassword)["code"], "bad_message");
}

TEST(Accounts, FailedSignInsOnANameFromEverywhereSpaceItsAttemptsButNeverLockItsOwnerOut) {
    Harness h;
    [[maybe_unused]] auto [c, token] = h.guest("Layla");
    ASSERT_EQ(h.ask(c, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
    // Failures from five addresses: the name's next attempt waits a second, whoever makes it.
    for (int i = 0; i < 5; ++i) {
        const ConnId d = h.connect("10.1.0." + std::to_string(i));
        EXPECT_EQ(h.sign_in(d, "LAYLA", "wrong-password-" + std::to_string(i))["code"], "bad_credentials");
    }
    const json spaced = h.sign_in(h.connect("10.2.0.1"), "Layla", kPassword);
    EXPECT_EQ(spaced["code"], "too_many_attempts") << "even with the right password";
    // Another name from the same address is not slowed.
    [[maybe_unused]] auto [o, ot] = h.guest("Omar");
    ASSERT_EQ(h.ask(o, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
    EXPECT_EQ(h.sign_in(h.connect("10.2.0.1"), "Omar", kPassword)["type"], "welcome");
    // An attacker with many addresses takes every slot it can: the spacing doubles up to its cap
    // (before the fix: the name was locked for the whole window, and again whenever it ended).
    std::int64_t spacing = kNameBackoffBaseMs;
    for (int i = 0; i < 12; ++i) {
        h.now += spacing;
        EXPECT_EQ(h.sign_in(h.connect("10.3.0." + std::to_string(i)), "Layla", "guess-number-" + std::to_string(i))["code"],
                  "bad_credentials") << i;
        EXPECT_EQ(h.sign_in(h.connect("10.3.1." + std::to_string(i)), "Layla", "guess-again")["code"], "too_many_attempts") << i;
        spacing = std::min(spacing * 2, kNameBackoffCapMs);
    }
    EXPECT_EQ(spacing, kNameBackoffCapMs);
    // Its owner, from an address that has not failed, gets in once the spacing has passed.
    h.now += kNameBackoffCapMs - 1;
    EXPECT_EQ(h.sign_in(h.connect("10.2.0.2"), "Layla", kPassword)["code"], "too_many_attempts");
    h.now += 1;
    EXPECT_EQ(h.sign_in(h.connect("10.2.0.2"), "Layla", kPassword)["type"], "welcome");
    // ... which clears the spacing: the next wrong guess is answered at once.
    EXPECT_EQ(h.sign_in(h.connect("10.4.0.1"), "Layla", "wrong-password")["code"], "bad_credentials");
}

TEST(Accounts, FailedSignInsOnANameFromOneAddressAreLimitedThere) {
    Harness h;
    [[maybe_unused]] auto [c, token] = h.guest("Layla");
    ASSERT_EQ(h.ask(c, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
    for (int i = 0; i < kNameFailures; ++i) {
        h.now += kNameBackoffCapMs;  // past any spacing
        EXPECT_EQ(h.sign_in(h.connect("10.5.0.1"), "Layla", "wrong-password-" + std::to_string(i))["code"], "bad_credentials");
    }
    h.now += kNameBackoffCapMs;
    EXPECT_EQ(h.sign_in(h.connect("10.5.0.1"), "Layla", kPassword)["code"], "too_many_attempts") << "that address is done";
    EXPECT_EQ(h.sign_in(h.connect("10.5.0.2"), "Layla", kPassword)["type"], "welcome") << "another is not";
    // After the window that address may try again.
    h.now += kAttemptWindowMs;
    EXPECT_EQ(h.sign_in(h.connect("10.5.0.1"), "Layla", kPassword)["type"], "welcome");
}

// Issue 27: 40 registrations at once from 5 addresses made every sign-in answer `busy` (the
// password queue is shared). Registrations hold at most half the queue, and each address may
// register at most registrations_per_address names per window.
TEST(Accounts, RegistrationsAreLimitedPerAddressAndLeaveRoomForSignIns) {
    HallConfig cfg = Harness::config();
    cfg.password_queue = 2;
    cfg.registrations_per_address = 2;
    Harness h(cfg);
    [[maybe_unused]] auto [owner, owner_token] = h.guest("Layla", "10.7.0.1");
    ASSERT_EQ(h.ask(owner, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
    // Two registrations sent at once: the second finds the registrations' half of the queue full...
    [[maybe_unused]] auto [a, ta] = h.guest("Omar", "10.7.0.2");
    [[maybe_unused]] auto [b, tb] = h.guest("Rana", "10.7.0.3");
    h.hall.message(a, json{{"type", "register"}, {"password", kPassword}}.dump(), h.now);
    h.hall.message(b, json{{"type", "register"}, {"password", kPassword}}.dump(), h.now);
    // ... and a sign-in sent then still gets in.
    const ConnId phone = h.connect("10.7.0.4");
    h.hall.message(phone, json{{"type", "hello"}, {"name", "Layla"}, {"password", kPassword}}.dump(), h.now);
    h.settle();
    EXPECT_EQ(h.last_reply(a)["type"], "ok");
    EXPECT_EQ(h.last_reply(b)["code"], "busy");
    EXPECT_EQ(h.last(phone, "welcome")["name"], "Layla");
    // Per address: the owner's address registered once; one more, then too_many_attempts.
    [[maybe_unused]] auto [c, tc] = h.guest("Sami", "10.7.0.1");
    EXPECT_EQ(h.ask(c, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
    [[maybe_unused]] auto [d, td] = h.guest("Huda", "10.7.0.1");
    EXPECT_EQ(h.ask(d, {{"type", "register"}, {"password", kPassword}})["code"], "too_many_attempts");
    EXPECT_EQ(h.ask(b, {{"type", "register"}, {"password", kPassword}})["type"], "ok") << "another address";
    h.now += kAttemptWindowMs;
    EXPECT_EQ(h.ask(d, {{"type", "register"}, {"password", kPassword}})["type"], "ok") << "after the window";
}

// Issue 27: guests cost nothing, and each new name is a stored player. New guest names from
// one address are limited per window (hellos sent at once too); a name already taken, a
// returning guest's token and other addresses are not counted against it.
TEST(Accounts, NewGuestsAreLimitedPerAddress) {
    HallConfig cfg = Harness::config();
    cfg.new_guests_per_address = 3;
    Harness h(cfg);
    [[maybe_unused]] auto [layla, layla_token] = h.guest("Layla", "10.8.0.1");
    EXPECT_EQ(h.ask(h.connect("10.8.0.1"), {{"type", "hello"}, {"name", "LAYLA"}})["code"], "name_taken");
    // Three hellos sent at once: the limit's last two places, then one refused.
    std::vector<ConnId> at_once;
    for (const char* n : {"Omar", "Rana", "Sami"}) {
        at_once.push_back(h.connect("10.8.0.1"));
        h.hall.message(at_once.back(), json{{"type", "hello"}, {"name", n}}.dump(), h.now);
    }
    h.settle();
    std::map<std::string, int> answers;
    for (ConnId c : at_once) ++answers[json::parse(h.frames[c].back()).value("code", "welcome")];
    EXPECT_EQ(answers["welcome"], 2);
    EXPECT_EQ(answers["too_many_attempts"], 1);
    // The guest returning with its token is welcome; another address too.
    EXPECT_EQ(h.ask(h.connect("10.8.0.1"), {{"type", "hello"}, {"token", layla_token}})["type"], "welcome");
    h.guest("Huda", "10.8.0.2");
    h.now += kAttemptWindowMs;
    h.guest("Sami", "10.8.0.1");
}

TEST(Accounts, AttemptsSentAtOnceStayWithinTheLimit) {
    Harness h;
    auto [c, token] = h.guest("Layla");
    ASSERT_EQ(h.ask(c, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
    // Seven wrong guesses from seven connections, all sent before any is answered.
    std::vector<ConnId> guesses;
    for (int i = 0; i < 7; ++i) {
        guesses.push_back(h.connect("10.3.0." + std::to_string(i)));
        const json hello = {{"type", "hello"}, {"name", "Layla"}, {"password", "guess-number-" + std::to_string(i)}};
        h.hall.message(guesses.back(), hello.dump(), h.now);
    }
    h.loop.settle(h.hall);
    std::map<std::string, int> codes;
    for (ConnId g : guesses) ++codes[json::parse(h.frames[g].back())["code"].get<std::string>()];
    EXPECT_EQ(codes["bad_credentials"], 5);
    EXPECT_EQ(codes["too_many_attempts"], 2);
}

TEST(Accounts, FailedSignInsAreLimitedPerAddress) {
    HallConfig cfg = Harness::config();
    cfg.address_failures = 3;  // 20 by default: the same rule, fewer hashes
    Harness h(cfg);
    [[maybe_unused]] auto [c, token] = h.guest("Layla");
    ASSERT_EQ(h.ask(c, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
    const ConnId d = h.connect("10.9.9.9");
    for (const char* name : {"Ana", "Bea", "Cem"}) EXPECT_EQ(h.sign_in(d, name, "wrong-password")["code"], "bad_credentials");
    EXPECT_EQ(h.sign_in(d, "Layla", kPassword)["code"], "too_many_attempts");
    const ConnId elsewhere = h.connect("10.9.9.10");
    EXPECT_EQ(h.sign_in(elsewhere, "Layla", kPassword)["type"], "welcome");
}

TEST(Accounts, SessionsExpire) {
    HallConfig cfg = Harness::config();
    cfg.session_ttl_ms = 60'000;
    Harness h(cfg);
    [[maybe_unused]] auto [c, token] = h.guest("Layla");
    ASSERT_EQ(h.ask(c, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
    const std::string session = h.sign_in(h.connect(), "Layla", kPassword)["token"];
    h.now += 59'999;
    EXPECT_EQ(h.ask(h.connect(), {{"type", "hello"}, {"token", session}})["type"], "welcome");
    EXPECT_EQ(h.ask(h.connect(), {{"type", "hello"}, {"token", token}})["type"], "welcome");
    h.now += 1;
    EXPECT_EQ(h.ask(h.connect(), {{"type", "hello"}, {"token", session}})["code"], "unknown_token");
    EXPECT_EQ(h.ask(h.connect(), {{"type", "hello"}, {"token", token}})["code"], "unknown_token");
    // The password still signs in.
    EXPECT_EQ(h.sign_in(h.connect(), "Layla", kPassword)["type"], "welcome");
}

TEST(Accounts, SignOutEverywhereRevokesEveryTokenAndClosesTheOtherConnections) {
    Harness h;
    [[maybe_unused]] auto [phone, guest_token] = h.guest("Layla");
    ASSERT_EQ(h.ask(phone, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
    const ConnId laptop = h.connect();
    const std::string laptop_token = h.sign_in(laptop, "Layla", kPassword)["token"];
    const ConnId tablet = h.connect();
    const std::string tablet_token = h.sign_in(tablet, "Layla", kPassword)["token"];

    EXPECT_EQ(h.ask(tablet, {{"type", "sign_out_everywhere"}, {"id", 5}}), (json{{"type", "ok"}, {"id", 5}}));
    EXPECT_EQ(h.closed_with[phone], 4001);
    EXPECT_EQ(h.closed_with[laptop], 4001);
    EXPECT_FALSE(h.closed_with.count(tablet));
    EXPECT_FALSE(h.hall.guest(phone)) << "closed at once";
    for (const auto& t : {guest_token, laptop_token, tablet_token})
        EXPECT_EQ(h.ask(h.connect(), {{"type", "hello"}, {"token", t}})["code"], "unknown_token");
    // The name stays registered: no guest can take it, the password signs in.
    EXPECT_EQ(h.ask(h.connect(), {{"type", "hello"}, {"name", "Layla"}})["code"], "name_taken");
    EXPECT_EQ(h.sign_in(h.connect(), "Layla", kPassword)["type"], "welcome");
}

TEST(Accounts, SignOutRevokesThisSessionOnly) {
    Harness h;
    [[maybe_unused]] auto [phone, guest_token] = h.guest("Layla");
    ASSERT_EQ(h.ask(phone, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
    const ConnId laptop = h.connect();
    const std::string laptop_token = h.sign_in(laptop, "Layla", kPassword)["token"];
    EXPECT_EQ(h.ask(laptop, {{"type", "sign_out"}})["type"], "ok");
    EXPECT_FALSE(h.closed_with.count(phone));
    EXPECT_EQ(h.ask(h.connect(), {{"type", "hello"}, {"token", laptop_token}})["code"], "unknown_token");
    EXPECT_EQ(h.ask(h.connect(), {{"type", "hello"}, {"token", guest_token}})["type"], "welcome");
}

TEST(Accounts, ChangePasswordChecksTheCurrentOneAndSignsOutOtherSessions) {
    Harness h;
    [[maybe_unused]] auto [phone, guest_token] = h.guest("Layla");
    ASSERT_EQ(h.ask(phone, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
    const ConnId laptop = h.connect();
    const std::string laptop_token = h.sign_in(laptop, "Layla", kPassword)["token"];

    EXPECT_EQ(h.ask(laptop, {{"type", "change_password"}, {"current", "wrong-password"}, {"password", "new-password-1"}})["code"],
              "bad_credentials");
    EXPECT_EQ(h.ask(laptop, {{"type", "change_password"}, {"current", kPassword}, {"password", "short"}})["code"],
              "bad_password");
    EXPECT_FALSE(h.closed_with.count(phone)) << "nothing changed yet";
    EXPECT_EQ(h.ask(laptop, {{"type", "change_password"}, {"current", kPassword}, {"password", "new-password-1"}})["type"],
              "ok");
    EXPECT_EQ(h.closed_with[phone], 4001);
    EXPECT_FALSE(h.closed_with.count(laptop));
    EXPECT_EQ(h.ask(h.connect(), {{"type", "hello"}, {"token", guest_token}})["code"], "unknown_token");
    EXPECT_EQ(h.ask(h.connect(), {{"type", "hello"}, {"token", laptop_token}})["type"], "welcome");
    EXPECT_EQ(h.sign_in(h.connect(), "Layla", kPassword)["code"], "bad_credentials");
    EXPECT_EQ(h.sign_in(h.connect(), "Layla", "new-password-1")["type"], "welcome");
}

TEST(Accounts, RegisterChecksThePassword) {
    Harness h;
    [[maybe_unused]] auto [c, token] = h.guest("Layla");
    EXPECT_EQ(h.ask(c, {{"type", "register"}, {"password", "1234567"}})["code"], "bad_password");
    EXPECT_EQ(h.ask(c, {{"type", "register"}, {"password", std::string(257, 'x')}})["code"], "bad_password");
    EXPECT_EQ(h.ask(c, {{"type", "register"}})["code"], "bad_message");
    EXPECT_EQ(h.ask(c, {{"type", "register"}, {"password", 12345678}})["code"], "bad_message");
    EXPECT_FALSE(h.storage.is_registered("Layla"));
    const ConnId d = h.connect();
    EXPECT_EQ(h.ask(d, {{"type", "register"}, {"password", kPassword}})["code"], "not_signed_in");
}

TEST(Accounts, AFullPasswordQueueAnswersBusy) {
    HallConfig cfg = Harness::config();
    cfg.password_queue = 0;  // no job may wait: every password request is refused
    Harness h(cfg);
    [[maybe_unused]] auto [c, token] = h.guest("Layla");
    EXPECT_EQ(h.ask(c, {{"type", "register"}, {"password", kPassword}})["code"], "busy");
    EXPECT_EQ(h.sign_in(h.connect(), "Layla", kPassword)["code"], "busy");
    EXPECT_FALSE(h.storage.is_registered("Layla"));
    // operators see the refusals in /metrics
    const auto metrics = h.get("/metrics.json");
    ASSERT_TRUE(metrics && metrics->status == 200);
    const auto passwords = nlohmann::json::parse(metrics->body)["passwords"];
    EXPECT_EQ(passwords["refused"], 2);
    EXPECT_EQ(passwords["queued"], 0);
}

TEST(Accounts, NoPasswordIsStoredInClear) {
    const auto path = std::filesystem::temp_directory_path() / ("tarneeb_accounts_" + std::to_string(::getpid()) + ".db");
    std::filesystem::remove(path);
    {
        Harness h(Harness::config(), path.string());
        [[maybe_unused]] auto [c, token] = h.guest("Layla");
        ASSERT_EQ(h.ask(c, {{"type", "register"}, {"password", kPassword}})["type"], "ok");
        ASSERT_EQ(h.ask(c, {{"type", "change_password"}, {"current", kPassword}, {"password", "second-secret-9"}})["type"], "ok");
        EXPECT_EQ(h.sign_in(h.connect(), "Layla", "third-guess-0")["code"], "bad_credentials");
        for (const auto& line : h.logs) {
            EXPECT_EQ(line.find(kPassword), std::string::npos);
            EXPECT_EQ(line.find("second-secret-9"), std::string::npos);
        }
        h.hall.stop();
    }
    std::string bytes;
    for (const char* suffix : {"", "-wal"}) {
        std::ifstream in(path.string() + suffix, std::ios::binary);
        bytes.append(std::istreambuf_iterator<char>(in), {});
    }
    EXPECT_NE(bytes.find("$argon2id$"), std::string::npos) << "the hash is there";
    EXPECT_EQ(bytes.find(kPassword), std::string::npos);
    EXPECT_EQ(bytes.find("second-secret-9"), std::string::npos);
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
}

}  // namespace
}  // namespace tarneeb::server
