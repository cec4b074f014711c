// A seated player who comes back with its token gets its seat back: mid-match, four humans,
// every seat in turn, on one event loop and on several (`--threads`), with the old connection
// cut first or still open (issue 26: on a multi-core host `welcome` said "table": null in 8 of
// 12 tries and the seat went to a stand-in). Through the real `tarneeb serve` (ws_harness.hpp).
#include <memory>
#include <string>
#include <vector>

#include "ws_harness.hpp"

namespace tarneeb::server {
namespace {

using namespace testing;

struct ReconnectCase {
    int threads;
    bool old_closed_first;  ///< the old connection is cut before the new one signs in
};

class Reconnect : public ::testing::TestWithParam<ReconnectCase> {};

/// Whether `c`'s latest table message is at `table` with `c` in `seat`, after version `after`.
bool seated_at(const Client& c, const std::string& table, int seat, std::uint64_t after) {
    const json t = c.last("table");
    return !t.is_null() && t["table"] == table && t["you"] == seat && t["version"].get<std::uint64_t>() > after;
}

TEST_P(Reconnect, EverySeatComingBackWithItsTokenGetsItsSeat) {
    const ReconnectCase p = GetParam();
    ServerProcess server(temp_db("reconnect"), {"--threads", std::to_string(p.threads)});
    ASSERT_NE(server.port(), 0);
    net::io_context ioc;
    std::vector<std::unique_ptr<Client>> players, retired;
    std::vector<std::string> tokens;
    for (int s = 0; s < 4; ++s) {
        players.push_back(std::make_unique<Client>(ioc, server.port()));
        tokens.push_back(sign_in(ioc, *players.back(), "Player" + std::to_string(s)));
        ASSERT_FALSE(tokens.back().empty());
    }
    players[0]->send({{"type", "create"}, {"turn_seconds", 0}});
    ASSERT_TRUE(pump(ioc, [&] { return !players[0]->last("created").is_null(); }));
    const std::string table = players[0]->last("created")["table"];
    for (int s = 0; s < 4; ++s) players[s]->send({{"type", "join"}, {"table", table}, {"seat", s}});
    ASSERT_TRUE(pump(ioc, [&] {
        for (int s = 0; s < 4; ++s)
            if (!seated_at(*players[s], table, s, 0)) return false;
        const json t = players[0]->last("table");
        for (int s = 0; s < 4; ++s)
            if (t["seats"][s].is_null()) return false;
        return true;
    })) << players[0]->frames.back();
    players[0]->send({{"type", "start"}});
    const auto raw = [&] {
        std::vector<Client*> out;
        for (auto& c : players) out.push_back(c.get());
        return out;
    };
    // Into the play: trump named and a few cards down.
    ASSERT_TRUE(play(ioc, raw(), [&] {
        const json t = players[0]->last("table");
        return !t.is_null() && t["state"] == "playing" && t["round"]["phase"] == "play" && t["round"]["plays"].size() >= 3;
    }));

    for (int s = 0; s < 4; ++s) {
        SCOPED_TRACE("seat " + std::to_string(s));
        if (p.old_closed_first) players[s]->close();
        const std::uint64_t version = players[(s + 1) % 4]->last("table")["version"];
        auto back = std::make_unique<Client>(ioc, server.port());
        back->send({{"type", "hello"}, {"token", tokens[s]}, {"id", 1}});
        ASSERT_TRUE(pump(ioc, [&] { return !back->last("welcome").is_null() || !back->last("error").is_null(); }))
            << back->frames.size() << " frames";
        const json welcome = back->last("welcome");
        ASSERT_FALSE(welcome.is_null()) << back->frames.back();
        EXPECT_EQ(welcome["name"], "Player" + std::to_string(s));
        EXPECT_EQ(welcome["table"], table) << welcome.dump();
        EXPECT_EQ(welcome["seat"], s) << welcome.dump();
        // The table's state comes with it, for this seat (its hand: 13 cards less those played).
        ASSERT_TRUE(pump(ioc, [&] { return !back->last("table").is_null(); })) << back->frames.back();
        const json t = back->last("table");
        EXPECT_EQ(t["table"], table);
        EXPECT_EQ(t["you"], s);
        EXPECT_GE(t["version"].get<std::uint64_t>(), version);
        EXPECT_FALSE(t["seats"][s].contains("standin")) << t["seats"][s].dump();
        retired.push_back(std::move(players[s]));  // still open, or cut: its read ends with the io_context
        players[s] = std::move(back);
    }
    // And the match goes on with the four new connections: each plays its own turns.
    const std::uint64_t version = players[0]->last("table")["version"];
    EXPECT_TRUE(play(ioc, raw(), [&] {
        const json t = players[0]->last("table");
        return !t.is_null() && t["version"].get<std::uint64_t>() >= version + 8;
    })) << players[0]->frames.back();
    for (int s = 0; s < 4; ++s) {
        const json t = players[s]->last("table");
        EXPECT_EQ(t["you"], s);
        for (const auto& e : t["events"]) EXPECT_NE(e.value("event", ""), "bot_took_over") << e.dump();
    }
}

INSTANTIATE_TEST_SUITE_P(Threads, Reconnect,
                         ::testing::Values(ReconnectCase{1, true}, ReconnectCase{1, false}, ReconnectCase{2, true},
                                           ReconnectCase{2, false}, ReconnectCase{4, true}, ReconnectCase{4, false}),
                         [](const ::testing::TestParamInfo<ReconnectCase>& i) {
                             return std::to_string(i.param.threads) + "Threads" +
                                    (i.param.old_closed_first ? "OldClosedFirst" : "OldStillOpen");
                         });

}  // namespace
}  // namespace tarneeb::server
