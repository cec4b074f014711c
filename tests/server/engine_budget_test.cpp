// The outside-engine budget (issue 27: with `--engine` registered, each table of engine bots
// keeps three processes for its whole match): engine-bot seats at live tables are limited over
// the server (HallConfig::max_engine_processes) and over the tables created from one address
// (max_engine_processes_per_address); past either, add_bot of an engine is refused with
// `engine_budget`. Built-in bots are never limited by it; removing a bot or closing its table
// frees its seat.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "hall_harness.hpp"
#include "tarneeb/bots/engine_bot.hpp"

namespace tarneeb::server::testing {
namespace {

using nlohmann::json;

/// "outside": a real outside engine (`tarneeb engine --bot random`), started at its seat's first
/// turn; every other name the test bots.
BotFactory with_engine() {
    return [](std::string_view name, std::uint64_t seed) -> std::unique_ptr<bots::Bot> {
        if (name != "outside") return default_bots()(name, seed);
        bots::EngineConfig c;
        c.name = "outside";
        c.argv = {TARNEEB_BINARY, "engine", "--bot", "random"};
        c.limits.guard = TARNEEB_BINARY;  // this test program is not tarneeb
        c.quit_ms = 0;
        return std::make_unique<bots::EngineBot>(std::move(c), seed);
    };
}

struct BudgetHarness : HallHarness {
    BudgetHarness() : HallHarness(":memory:", config(), with_engine()) {}
    static HallConfig config() {
        HallConfig c = HallHarness::config();
        c.engine_bots = {"outside"};
        c.max_engine_processes = 5;
        c.max_engine_processes_per_address = 2;
        return c;
    }
    /// Guest `name` from `address` creates a table and sits at seat 0: its connection.
    ConnId table_of(const std::string& name, const std::string& address) {
        const ConnId c = connect(address);
        sign_in(c, name);
        send(c, {{"type", "create"}, {"turn_seconds", 0}});
        send(c, {{"type", "join"}, {"table", last(c, "created")["table"]}, {"seat", 0}});
        return c;
    }
    /// add_bot of `bot` at `seat`: "" when seated, else the refusal's code.
    std::string add(ConnId c, int seat, const std::string& bot) {
        const json answer = request(c, {{"type", "add_bot"}, {"seat", seat}, {"bot", bot}});
        return answer.value("type", "") == "ok" ? "" : answer.value("code", "?");
    }
};

TEST(EngineBudget, EngineSeatsAreLimitedPerAddressAndPerServerAndFreedByRemoveAndClose) {
    BudgetHarness h;
    const ConnId a = h.table_of("Layla", "10.7.0.1");
    EXPECT_EQ(h.add(a, 1, "outside"), "");
    EXPECT_EQ(h.add(a, 2, "outside"), "");
    EXPECT_EQ(h.add(a, 3, "outside"), "engine_budget") << "a third engine seat from 10.7.0.1";
    EXPECT_NE(h.last_reply(a)["message"].get<std::string>().find("this address"), std::string::npos);
    EXPECT_EQ(h.add(a, 3, "heuristic"), "") << "built-in bots are not counted";

    const ConnId b = h.table_of("Omar", "10.7.0.2");  // another address has its own share
    EXPECT_EQ(h.add(b, 1, "outside"), "");
    EXPECT_EQ(h.add(b, 2, "outside"), "");
    const ConnId c = h.table_of("Rania", "10.7.0.3");
    EXPECT_EQ(h.add(c, 1, "outside"), "");  // the server's fifth
    EXPECT_EQ(h.add(c, 2, "outside"), "engine_budget") << "over the server's budget";
    EXPECT_NE(h.last_reply(c)["message"].get<std::string>().find("this server"), std::string::npos);

    // Removing a bot frees its seat of the budget (and of its address's share).
    EXPECT_EQ(h.request(a, {{"type", "remove_bot"}, {"seat", 1}})["type"], "ok");
    EXPECT_EQ(h.add(a, 1, "outside"), "");
    EXPECT_EQ(h.add(c, 2, "outside"), "engine_budget");
    // Closing a table (its last person leaves) frees all its engine seats.
    EXPECT_EQ(h.request(a, {{"type", "leave"}})["type"], "ok");
    ASSERT_EQ(h.hall.host().summaries().size(), 2u) << "the table of bots closed";
    EXPECT_EQ(h.add(c, 2, "outside"), "");
    EXPECT_EQ(h.add(c, 3, "outside"), "engine_budget");  // 10.7.0.3's two
    const ConnId d = h.table_of("Sami", "10.7.0.1");  // 10.7.0.1's share is whole again
    EXPECT_EQ(h.add(d, 1, "outside"), "");
}

/// A bot that says on which thread it was let go (as an outside engine would end: slowly), when
/// it is the one `watched` names (add_bot also makes one to check the name, and lets it go).
class Ending final : public bots::Bot {
public:
    struct Watch {
        std::atomic<const Ending*> watched{nullptr};
        std::atomic<const Ending*> latest{nullptr};
        std::promise<std::thread::id> ended;
    };
    explicit Ending(std::shared_ptr<Watch> w) : watch_(std::move(w)) { watch_->latest = this; }
    ~Ending() override {
        if (watch_->watched.load() == this) watch_->ended.set_value(std::this_thread::get_id());
    }
    std::string_view name() const override { return "outside"; }
    Action decide_call(const SeatView& v) override { return v.default_action(); }
    Action decide_trump(const SeatView& v) override { return v.default_action(); }
    Action decide_card(const SeatView& v) override { return v.default_action(); }

private:
    std::shared_ptr<Watch> watch_;
};

// Issue 26: an engine ends in its own time (its quit grace, then its guard: a second or more).
// remove_bot of an engine seat lets it go on a worker thread, never on the event loop.
TEST(EngineBudget, RemovingAnEngineBotLetsItGoOffTheLoop) {
    auto watch = std::make_shared<Ending::Watch>();
    BotFactory bots = [watch](std::string_view name, std::uint64_t seed) -> std::unique_ptr<bots::Bot> {
        if (name == "outside") return std::make_unique<Ending>(watch);
        return default_bots()(name, seed);
    };
    HallHarness h(":memory:", BudgetHarness::config(), bots);
    const ConnId c = h.connect();
    h.sign_in(c, "Layla");
    h.send(c, {{"type", "create"}, {"turn_seconds", 0}});
    h.send(c, {{"type", "join"}, {"table", h.last(c, "created")["table"]}, {"seat", 0}});
    ASSERT_EQ(h.request(c, {{"type", "add_bot"}, {"seat", 1}, {"bot", "outside"}})["type"], "ok");
    watch->watched = watch->latest.load();  // the seated one: made last, when the seat was taken
    std::future<std::thread::id> gone = watch->ended.get_future();
    ASSERT_EQ(h.request(c, {{"type", "remove_bot"}, {"seat", 1}})["type"], "ok");
    ASSERT_EQ(gone.wait_for(std::chrono::seconds(60)), std::future_status::ready) << "the engine was never let go";  // liveness bound
    EXPECT_NE(gone.get(), std::this_thread::get_id()) << "let go on the hall's thread (the event loop)";
}

}  // namespace
}  // namespace tarneeb::server::testing
