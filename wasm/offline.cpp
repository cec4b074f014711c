// The offline game: the rules engine, the game room (server::Table) and the easy, medium and hard bots,
// compiled to WebAssembly (scripts/build-wasm.sh) for the browser's "Play offline" (issue 14).
// One engine: this file only drives the same Table the server runs and writes the same JSON
// (server::table_message_json, docs/protocol.md "table"); it re-derives no rule.
//
// The API is JSON text in, JSON text out (web/src/engine.ts wraps it with types):
//   OfflineMatch.start(settings)  {"preset":"levantine"|"classic","target":1..500,
//                                  "seed":"<1–16 hex digits>","name":"You","summary_ms":0..60000,
//                                  "level":"easy"|"medium"|"hard"} (the bots' level, default medium)
//                                 → the table message for seat 0, or {"type":"error",…}
//   OfflineMatch.table()          → the table message for seat 0 now (no events)
//   OfflineMatch.act(action)      {"card":"QS"} etc. → the table message after it (with its
//                                  events), or {"type":"error","code":…}: nothing changed
//   OfflineMatch.step()           one bot seat acts → the table message with its events, or
//                                  {"type":"error","code":"out_of_turn"} when no bot is to act.
//                                  The bot acts now even if its time has not come (the round
//                                  summary's pause, summary_ms in the message): the page decides
//                                  when to step, so a step never fails for being early
//   OfflineMatch.hint()           the heuristic bot's choice for seat 0 from seat 0's view, as the
//                                  server's `hint` answers: {"type":"hint","version","action"}
//                                  (errors: no_deal, out_of_turn)
//   replay(record)                tarneeb-record/1 text → tarneeb-result/1 (as `tarneeb replay`)
//   benchHeuristicDeals(n)        plays n deals with four heuristic bots exactly as the native
//                                 benchmark bots_bench BM_HeuristicDeal does (docs/performance.md
//                                 compares the two); returns the cards played (a checksum)
//
// The human is seat 0, the bots seats 1–3 at one level (docs/bots.md "Levels"): medium, the
// heuristic (seated as "heuristic", as before the levels, so a kept match replays the same),
// easy, the weakened heuristic (seated as "easy"), or hard, the learned card player (seated as
// "hard"). expert is pimc, which needs DDS and threads: not in this build, refused as
// bad_settings. Every seed comes from the match seed
// (derive_seed): the bots' seeds as the server's Table makes them, and deal k's seed from
// stream 1000 + k, so a match seed gives the same match whatever the timing. The caller passes
// the time (Unix ms) for the message's now_ms; there is no turn timer (turn_seconds 0) and no
// bot delay here (the page waits between steps so the cards can be seen). The round summary
// pauses the bots as on the server (TableTiming::summary_ms, default 4000 ms; "summary_ms" in the
// settings), and the table message says how long (summary_ms) as the server's does.
//
// Hidden information: every message is built for seat 0 from its SeatView (TableMessage::to),
// so the other hands never leave this module.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <emscripten/bind.h>
#include <nlohmann/json.hpp>

#include "tarneeb/bots/arena.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/learned_bot.hpp"
#include "tarneeb/bots/levels.hpp"
#include "tarneeb/bots/loop.hpp"
#include "tarneeb/bots/weakened_bot.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/records/record.hpp"
#include "tarneeb/room/protocol.hpp"
#include "tarneeb/room/table.hpp"

namespace tarneeb::offline {

namespace {

constexpr Seat kHuman = Seat::s0;
constexpr std::uint64_t kDealStream = 1000;

std::string error_text(std::string_view code, std::string message = {}) {
    return server::error_json(code, std::move(message)).dump();
}

/// "1a2b…" (1–16 hex digits) → the seed; nullopt otherwise.
std::optional<std::uint64_t> parse_seed(const std::string& s) {
    if (s.empty() || s.size() > 16) return std::nullopt;
    std::uint64_t v = 0;
    for (char c : s) {
        int d = -1;
        if (c >= '0' && c <= '9') d = c - '0';
        else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
        if (d < 0) return std::nullopt;
        v = v << 4 | static_cast<std::uint64_t>(d);
    }
    return v;
}

server::Millis to_millis(double now_ms) { return static_cast<server::Millis>(now_ms); }

/// The bots this build has, by the kind the table seats them as: the levels offline play offers.
std::unique_ptr<bots::Bot> make_bot(std::string_view kind, std::uint64_t seed) {
    if (kind == "heuristic") return std::make_unique<bots::HeuristicBot>(seed);
    if (kind == "easy") return std::make_unique<bots::WeakenedBot>(seed, bots::kEasyRandomShare, "easy");
    if (kind == "hard") return std::make_unique<bots::LearnedBot>(seed, bots::kLearnedMargin, bots::fitted_card_policy(), "hard");
    return nullptr;
}

/// The kind a level's bots are seated as ("medium": "heuristic"); nullopt for a level not built in.
std::optional<std::string> kind_of_level(const std::string& level) {
    if (level == "medium") return "heuristic";
    if (level == "easy" || level == "hard") return level;
    return std::nullopt;
}

}  // namespace

/// One offline match: a server::Table with the human at seat 0 and three bots of one level.
class OfflineMatch {
public:
    /// Sets the table up and starts the match (see the file comment for `settings_text`).
    std::string start(const std::string& settings_text, double now_ms) {
        const auto j = nlohmann::json::parse(settings_text, nullptr, false);
        if (!j.is_object()) return error_text("bad_message", "settings are not a JSON object");
        const auto seed_it = j.find("seed");
        if (seed_it == j.end() || !seed_it->is_string()) return error_text("bad_settings", "seed: 1-16 hex digits");
        const auto seed = parse_seed(seed_it->get<std::string>());
        if (!seed) return error_text("bad_settings", "seed: 1-16 hex digits");
        // preset and target are read and checked as the server's `create` reads them.
        nlohmann::json create{{"preset", j.value("preset", nlohmann::json(nullptr))},
                              {"target", j.value("target", nlohmann::json(nullptr))}, {"turn_seconds", 0}};
        auto settings = server::parse_settings(create);
        if (!settings) return error_text("bad_settings", "preset levantine|classic, target 1..500");
        server::TableTiming timing;
        timing.bot_delay_ms = 0;  // the page waits between steps instead
        if (auto it = j.find("summary_ms"); it != j.end() && !it->is_null()) {
            if (!it->is_number_integer() || it->get<std::int64_t>() < 0 || it->get<std::int64_t>() > 60000)
                return error_text("bad_settings", "summary_ms: 0..60000");
            timing.summary_ms = it->get<server::Millis>();
        }
        std::string name = "You";
        if (auto it = j.find("name"); it != j.end() && !it->is_null()) {
            if (!it->is_string()) return error_text("bad_settings", "name: a string");
            name = it->get<std::string>();
            if (name.empty() || name.size() > 64) name = "You";
        }

        std::string kind = "heuristic";
        if (auto it = j.find("level"); it != j.end() && !it->is_null()) {
            const auto k = it->is_string() ? kind_of_level(it->get<std::string>()) : std::nullopt;
            if (!k) return error_text("bad_settings", "level: easy|medium|hard");
            kind = *k;
        }

        seed_ = *seed;
        history_ = {};  // of the table this replaces
        table_ = std::make_unique<server::Table>(
            "offline", *settings, timing, make_bot);
        const auto now = to_millis(now_ms);
        if (auto e = make(table_->prepare_sit(kHuman, name), now)) return *e;
        table_->connected(name, now);
        for (Seat s : {Seat::s1, Seat::s2, Seat::s3})
            if (auto e = make(table_->prepare_add_bot(s, kind, derive_seed(seed_, 100 + index(s))), now)) return *e;
        if (auto e = make(table_->prepare_start(derive_seed(seed_, 1), next_deal_seed()), now)) return *e;
        return message(now);
    }

    /// The table message for seat 0 as it is now, with the events not yet reported.
    std::string table(double now_ms) {
        if (!table_) return error_text("no_deal", "no match started");
        return message(to_millis(now_ms));
    }

    /// The human's action (docs/protocol.md "Cards, seats and actions").
    std::string act(const std::string& action_text, double now_ms) {
        if (!table_) return error_text("no_deal", "no match started");
        const auto j = nlohmann::json::parse(action_text, nullptr, false);
        const auto action = server::parse_action(j);
        if (!action) return error_text("bad_action");
        const auto now = to_millis(now_ms);
        if (auto e = make(table_->prepare_act(kHuman, *action, table_->version(), next_deal_seed()), now)) return *e;
        return message(now);
    }

    /// One bot seat acts, if a bot is to act (the human's turn or a finished match: out_of_turn).
    std::string step(double now_ms) {
        if (!table_) return error_text("no_deal", "no match started");
        auto turn = table_->bot_turn();
        if (!turn) return error_text("out_of_turn", "no bot is to act");
        const Action decision = turn->bot->decide(turn->view);
        turn->bot.reset();
        table_->decided(turn->request, decision);
        // The bot acts now, or when its turn starts if that is later (after the round summary).
        const auto wakeup = table_->next_wakeup();
        const auto now = std::max(to_millis(now_ms), wakeup.value_or(0));
        auto change = table_->prepare_due(now, [this] { return next_deal_seed(); });
        if (!change) return error_text("out_of_turn", "no action due");
        if (auto e = make(std::move(*change), now)) return *e;
        return message(now);
    }

    /// What the heuristic bot would do in seat 0's place (the server's `hint`, docs/protocol.md):
    /// from seat 0's view only, the bot's answer checked as the loop checks it.
    std::string hint() {
        if (!table_) return error_text("no_deal", "no match started");
        const Match& match = table_->match();
        if (table_->state() != server::TableState::playing || !match.has_round() || match.round().over())
            return error_text("no_deal");
        if (match.round().to_act() != kHuman) return error_text("out_of_turn");
        bots::HeuristicBot bot(derive_seed(seed_, 300));
        return server::hint_json(bots::decide_or_default(bot, SeatView::of(match, kHuman)), table_->version()).dump();
    }

private:
    /// Commits a prepared change (there is no journal to write offline); its error text if refused.
    std::optional<std::string> make(server::Change change, server::Millis now) {
        if (!change.ok()) return error_text(server::to_string(*change.error));
        table_->commit(change.entry(), now);
        return std::nullopt;
    }

    /// The seed of the match's next deal: deal k (0-based, passed-out deals included) is dealt
    /// from derive_seed(match seed, 1000 + k), whenever it is asked for.
    std::uint64_t next_deal_seed() const {
        const std::uint64_t dealt = table_ && table_->match_number() != 0 ? table_->match().rounds().size() : 0;
        return derive_seed(seed_, kDealStream + dealt);
    }

    /// Seat 0's table message (TableMessage::to, equal to table_message_json), its "history" of
    /// finished rounds written from history_, rebuilt only when a round ends (as the server does).
    std::string message(server::Millis now) {
        return server::TableMessage(*table_, 0, table_->take_events(), now, &history_).to(kHuman);
    }

    std::unique_ptr<server::Table> table_;
    server::HistoryCache history_;
    std::uint64_t seed_ = 0;
};

/// `tarneeb replay`: a tarneeb-record/1 text → its tarneeb-result/1 (docs/record-format.md).
std::string replay(const std::string& record_text) {
    return records::result_json(records::replay(record_text)).dump();
}

/// BM_HeuristicDeal's loop (bench/bots_bench.cpp): deal k from seed k, dealer k mod 4, four
/// heuristic bots on the one loop (bots::play_deal). Returns a checksum (the cards played).
int bench_heuristic_deals(int deals) {
    std::vector<std::unique_ptr<bots::Bot>> b;
    for (int s = 0; s < 4; ++s) b.push_back(std::make_unique<bots::HeuristicBot>(0));
    const bots::Lineup lineup{b[0].get(), b[1].get(), b[2].get(), b[3].get()};
    int sum = 0;
    for (int k = 0; k < deals; ++k) {
        const Seat dealer = seat(k % 4);
        const Match m = bots::play_deal(kLevantine, dealer, deal_from_seed(static_cast<std::uint64_t>(k), dealer), lineup);
        sum += m.rounds().empty() ? 0 : m.rounds().back().cards_played();
    }
    return sum;
}

}  // namespace tarneeb::offline

EMSCRIPTEN_BINDINGS(tarneeb_offline) {
    using tarneeb::offline::OfflineMatch;
    emscripten::class_<OfflineMatch>("OfflineMatch")
        .constructor<>()
        .function("start", &OfflineMatch::start)
        .function("table", &OfflineMatch::table)
        .function("act", &OfflineMatch::act)
        .function("step", &OfflineMatch::step)
        .function("hint", &OfflineMatch::hint);
    emscripten::function("replay", &tarneeb::offline::replay);
    emscripten::function("benchHeuristicDeals", &tarneeb::offline::bench_heuristic_deals);
}
