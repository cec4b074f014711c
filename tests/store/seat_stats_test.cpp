// A finished match's seat statistics (include/tarneeb/store/seat_stats.hpp) counted from its
// Match are what the storage counted before from the stored record: the record replayed, its
// tarneeb-result/1 written and walked as JSON (that old definition is kept below as the oracle,
// and only here). Over the shared example records (legal or not: a record that does not replay
// counts what it reached), 320 matches played by random and heuristic players (both presets;
// won, drawn at the round cap, closed after passed-out deals), and a match played at a hall
// table and stored (each player's profile).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "../server/hall_harness.hpp"
#include "../test_util.hpp"
#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/core/simulate.hpp"
#include "tarneeb/records/record.hpp"
#include "tarneeb/store/seat_stats.hpp"

namespace tarneeb::server {
namespace {

using nlohmann::json;

/// The seat statistics as storage computed them from a stored record until the Match was
/// carried in the row: the record replayed, its result's deals walked (a call's seat from the
/// deal's dealer, a contract counted once `made` is not null).
std::array<SeatStats, 4> record_seat_stats(const std::string& record) {
    std::array<SeatStats, 4> out{};
    const json result = records::result_json(records::replay(record));
    if (!result.contains("deals") || !result["deals"].is_array()) return out;
    for (const auto& deal : result["deals"]) {
        const int dealer = deal.value("dealer", 0);
        if (const auto a = deal.find("auction"); a != deal.end() && a->is_array())
            for (std::size_t i = 0; i < a->size(); ++i)
                if ((*a)[i].is_number_integer()) {
                    auto& s = out[static_cast<std::size_t>((dealer + 1 + static_cast<int>(i)) % 4)];
                    ++s.bids;
                    s.bid_sum += (*a)[i].get<std::int64_t>();
                }
        const auto declarer = deal.find("declarer");
        const auto made = deal.find("made");
        if (declarer == deal.end() || !declarer->is_number_integer() || made == deal.end() || !made->is_boolean()) continue;
        auto& s = out[static_cast<std::size_t>(declarer->get<int>() & 3)];
        ++s.contracts;
        if (made->get<bool>()) ++s.made;
    }
    return out;
}

std::string text_of(const SeatStats& s) {
    return std::to_string(s.bids) + "/" + std::to_string(s.bid_sum) + "/" + std::to_string(s.contracts) + "/" +
           std::to_string(s.made);
}

/// The record the table stores for `m` (record_json plus the hall's "players" and "id").
std::string stored_record(const Match& m) {
    json r = records::record_json(m);
    r["players"] = {"Layla", "Omar", "Rana", "Sami"};
    r["id"] = "t1-1";
    return r.dump();
}

/// Checks seat_stats(m) against the oracle on m's stored record; returns the bids counted.
std::int64_t expect_same(const Match& m, const std::string& what) {
    const auto from_match = seat_stats(m);
    const auto from_record = record_seat_stats(stored_record(m));
    std::int64_t bids = 0;
    for (std::size_t s = 0; s < 4; ++s) {
        EXPECT_EQ(from_match[s], from_record[s])
            << what << " seat " << s << ": " << text_of(from_match[s]) << " vs " << text_of(from_record[s]);
        bids += from_match[s].bids;
    }
    return bids;
}

TEST(SeatStats, TheSharedRecordsCountAsTheirReplayedResultSays) {
    int records = 0, with_errors = 0;
    std::int64_t contracts = 0;
    for (const auto& entry : std::filesystem::directory_iterator(std::string(TARNEEB_TEST_DATA) + "/records")) {
        const std::string path = entry.path().string();
        if (path.ends_with(".expected.json") || !path.ends_with(".json")) continue;
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        const records::Replay replayed = records::replay(text.str());
        const auto from_match = seat_stats(replayed.match);
        const auto from_record = record_seat_stats(text.str());
        for (std::size_t s = 0; s < 4; ++s) {
            EXPECT_EQ(from_match[s], from_record[s]) << path << " seat " << s;
            contracts += from_match[s].contracts;
        }
        ++records;
        with_errors += replayed.error.has_value();
    }
    EXPECT_GT(records, 100);
    EXPECT_GT(with_errors, 0) << "records that stop part-way are among them";
    EXPECT_GT(contracts, 0);
}

/// A match closed by passed-out deals (pass_out_close 2): random play, but from deal
/// `quiet` on every seat passes (random players almost never all pass).
Match closed_match(const Rules& preset, std::uint64_t seed, int quiet) {
    Rules rules = preset;
    rules.pass_out_close = 2;
    Match m(rules, seat(static_cast<int>(seed % 4)));
    Rng rng(seed);
    while (!m.over()) {
        if (m.awaiting_deal() && deal_next_from_seed(m, seed) != ErrorCode::ok) break;
        const Round& r = m.round();
        const bool pass = static_cast<int>(m.rounds().size()) > quiet && r.phase() == Phase::auction;
        if (m.apply(pass ? Action::pass() : random_action(r, rng)) != ErrorCode::ok) break;
    }
    return m;
}

TEST(SeatStats, MatchesPlayedByBotsCountAsTheirStoredRecordsDid) {
    std::map<MatchStatus, int> statuses;
    std::int64_t bids = 0;
    for (const Rules& preset : {kLevantine, kClassic}) {
        // Whole matches; short ones capped after 2 rounds (drawn or won at the cap); and ones
        // closed by the first passed-out deal. (Only what a record keeps of the rules: a
        // preset and these match settings.)
        for (int variant = 0; variant < 3; ++variant) {
            Rules rules = preset;
            if (variant == 1) rules.round_cap = 2;
            if (variant == 2) rules.pass_out_close = 1;
            // A share of them under the sanitizers (test_util.hpp); the share still has a draw.
            for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(test::under_sanitizers(40, 16)); ++seed) {
                const Match m = play_random_match(rules, seat(static_cast<int>(seed % 4)), derive_seed(seed, 7));
                ++statuses[m.status()];
                bids += expect_same(m, "random match " + std::to_string(seed));
            }
            for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(test::under_sanitizers(12, 3)); ++seed) {
                auto a = bots::make_bot("heuristic", seed), b = bots::make_bot("heuristic", seed + 10);
                auto c = bots::make_bot("random", seed + 20), d = bots::make_bot("heuristic", seed + 30);
                const Match m = bots::play_match(rules, seat(static_cast<int>(seed % 4)), seed,
                                                 {a.get(), b.get(), c.get(), d.get()});
                ++statuses[m.status()];
                bids += expect_same(m, "bots' match " + std::to_string(seed));
            }
        }
    }
    for (const Rules& preset : {kLevantine, kClassic})
        for (int quiet = 0; quiet <= 3; ++quiet) {
            const Match m = closed_match(preset, 50 + static_cast<std::uint64_t>(quiet), quiet);
            ++statuses[m.status()];
            bids += expect_same(m, "closed match " + std::to_string(quiet));
        }
    EXPECT_GT(bids, 0);
    EXPECT_GT(statuses[MatchStatus::won], 0);
    EXPECT_GT(statuses[MatchStatus::drawn], 0);
    EXPECT_GT(statuses[MatchStatus::closed], 0);
}

TEST(SeatStats, APlayersProfileAtAHallTableCountsWhatTheStoredRecordSays) {
    testing::HallHarness h;
    const std::vector<ConnId> cs = {h.connect(), h.connect(), h.connect(), h.connect()};
    const std::string tid = testing::seat_four(h, cs, {{"target", 11}, {"turn_seconds", 0}});
    h.send(cs[0], {{"type", "start"}});
    h.play(cs);
    ASSERT_EQ(h.last(cs[0], "table")["state"], "finished");
    const auto record = h.storage.match_record(tid + "-1");
    ASSERT_TRUE(record);
    const auto expected = record_seat_stats(*record);
    std::int64_t contracts = 0;
    const char* names[] = {"Layla", "Omar", "Rana", "Sami"};
    for (std::size_t s = 0; s < 4; ++s) {
        const json p = json::parse(h.get(std::string("/api/players/") + names[s])->body);
        EXPECT_EQ(p["bids"], expected[s].bids) << names[s];
        EXPECT_EQ(p["contracts"], json({{"bid", expected[s].contracts}, {"made", expected[s].made}})) << names[s];
        if (expected[s].bids > 0) {  // the profile's rounding (sqlite_profiles.cpp)
            const double mean = static_cast<double>(expected[s].bid_sum) / static_cast<double>(expected[s].bids);
            EXPECT_DOUBLE_EQ(p["average_bid"].get<double>(), std::round(mean * 100) / 100) << names[s];
        }
        contracts += expected[s].contracts;
    }
    EXPECT_GT(contracts, 0);
}

}  // namespace
}  // namespace tarneeb::server
