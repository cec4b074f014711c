// Guessing a private table's join code (issue 27: ~1,500 tries a second from one address, no
// limit per table): wrong codes are limited per address at the front (then too_many_attempts)
// and spaced per table at its host (past HallConfig::code_failures_per_table, 1 s doubling to
// 30 s, whoever sends them), so that a friend with the right code waits 30 s at most.
#include <gtest/gtest.h>

#include <string>

#include "hall_harness.hpp"

namespace tarneeb::server::testing {
namespace {

using nlohmann::json;

struct CodeHarness : HallHarness {
    CodeHarness() : HallHarness(":memory:", config()) {}
    static HallConfig config() {
        HallConfig c = HallHarness::config();
        c.code_failures_per_table = 3;
        c.code_failures_per_address = 5;
        return c;
    }
    /// A private table created by Layla: {table, code}.
    std::pair<std::string, std::string> private_table(const std::string& creator = "Layla") {
        const ConnId a = connect("10.0.0.1");
        sign_in(a, creator);
        send(a, {{"type", "create"}, {"private", true}});
        const json created = last(a, "created");
        return {created["table"], created["code"]};
    }
    /// Guest `name` from `address` sends a join with `code`: the answer's code ("" when ok).
    std::string join(const std::string& name, const std::string& address, const std::string& table, const std::string& code) {
        const ConnId c = connect(address);
        sign_in(c, name);
        const json answer = request(c, {{"type", "join"}, {"table", table}, {"code", code}});
        return answer.value("type", "") == "ok" ? "" : answer.value("code", "?");
    }
    int guests = 0;
    std::string next_name() { return "Guest" + std::to_string(++guests); }
};

TEST(JoinCodes, WrongCodesForOneTableAreSpacedWhoeverSendsThemAndTheRightCodeGetsInAfterTheWait) {
    CodeHarness h;
    const auto [table, code] = h.private_table();
    // Three free wrong codes, each from its own address (no address limit reached).
    for (int i = 0; i < 3; ++i) EXPECT_EQ(h.join(h.next_name(), "10.1.0." + std::to_string(i), table, "WRONG" + std::to_string(i)), "bad_code");
    // Then the table's joins with a code wait a second, even with the right code...
    EXPECT_EQ(h.join(h.next_name(), "10.2.0.1", table, code), "too_many_attempts");
    // ... and every wrong one taken doubles the wait, up to 30 s.
    Millis spacing = kNameBackoffBaseMs;
    for (int i = 0; i < 8; ++i) {
        h.now += spacing;
        EXPECT_EQ(h.join(h.next_name(), "10.3.0." + std::to_string(i), table, "GUESS" + std::to_string(i)), "bad_code") << i;
        EXPECT_EQ(h.join(h.next_name(), "10.3.1." + std::to_string(i), table, "GUESS-AGAIN"), "too_many_attempts") << i;
        spacing = std::min(spacing * 2, kNameBackoffCapMs);
    }
    // A friend with the right code gets in once the wait has passed.
    h.now += kNameBackoffCapMs;
    EXPECT_EQ(h.join("Omar", "10.2.0.2", table, code), "");
    // Another table is not slowed.
    const auto [other, other_code] = h.private_table("Rana");
    EXPECT_EQ(h.join(h.next_name(), "10.4.0.1", other, "WRONG"), "bad_code");
    EXPECT_EQ(h.join(h.next_name(), "10.4.0.2", other, other_code), "");
}

TEST(JoinCodes, WrongCodesFromOneAddressAreLimitedWhateverTheTables) {
    CodeHarness h;
    std::vector<std::pair<std::string, std::string>> tables;
    for (int i = 0; i < 5; ++i) tables.push_back(h.private_table("Host" + std::to_string(i)));
    // Five wrong codes from one address, one per table (no table's spacing reached), from new guests.
    for (int i = 0; i < 5; ++i) EXPECT_EQ(h.join(h.next_name(), "10.9.9.9", tables[i].first, "WRONG"), "bad_code") << i;
    // The sixth join with a code from there is refused before it reaches any table, right or not.
    EXPECT_EQ(h.join(h.next_name(), "10.9.9.9", tables[0].first, tables[0].second), "too_many_attempts");
    // Another address is not.
    EXPECT_EQ(h.join(h.next_name(), "10.9.9.10", tables[0].first, tables[0].second), "");
    // A right code does not count: joins with the right code never reach the limit.
    for (int i = 1; i < 5; ++i) EXPECT_EQ(h.join(h.next_name(), "10.8.8.8", tables[i].first, tables[i].second), "") << i;
    EXPECT_EQ(h.join(h.next_name(), "10.8.8.8", tables[1].first, "WRONG"), "bad_code");
    // After the window the first address may try again.
    h.now += kAttemptWindowMs;
    EXPECT_EQ(h.join(h.next_name(), "10.9.9.9", tables[0].first, tables[0].second), "");
}

}  // namespace
}  // namespace tarneeb::server::testing
