// libFuzzer target: the engine protocol's text (include/tarneeb/bots/engine_protocol.hpp).
//
// Byte 0 chooses the mode:
//   even: the input is lines a host might write (or anything): each goes through every reader
//         (parse_engine_line, parse_go, split_command, parse_action_token) and into an
//         EngineGame; a line it refuses changes nothing (the same view before and after), and
//         a game with a deal always has a view whose hand was dealt to it;
//   odd:  a round trip: bytes 1..8 seed the deals, byte 9 picks the seat, then one byte per
//         action picks a legal action (or, at 0xF0 and above, restarts the engine); the host's
//         lines (EngineFeed) read back by an EngineGame must give the host's exact view.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <string_view>

#include "tarneeb/bots/engine_protocol.hpp"
#include "tarneeb/core/random.hpp"

namespace {

using namespace tarneeb;

void require(bool ok) {
    if (!ok) std::abort();
}

void feed_lines(bots::EngineGame& game, const std::string& text) {
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) require(!game.apply(line));
}

void text_mode(std::string_view input) {
    bots::EngineGame game;
    std::size_t at = 0;
    while (at < input.size()) {
        std::size_t end = input.find('\n', at);
        if (end == std::string_view::npos) end = input.size();
        const std::string_view line = input.substr(at, end - at);
        at = end + 1;
        (void)bots::parse_engine_line(line);
        (void)bots::parse_go(line);
        (void)bots::split_command(line);
        for (Phase p : {Phase::auction, Phase::trump, Phase::play}) (void)bots::parse_action_token(line, p);
        const bool had_deal = game.has_deal();
        const SeatView before = had_deal ? game.view() : SeatView();
        if (game.apply(line)) {
            if (had_deal) require(game.has_deal() && game.view() == before);  // refused: unchanged
        }
        if (game.has_deal()) {
            const SeatView v = game.view();
            require((v.hand() - v.dealt()).empty());
            if (v.my_turn()) require(!v.legal_actions().empty());
        }
    }
}

void round_trip_mode(const std::uint8_t* data, std::size_t size) {
    if (size < 11) return;
    std::uint64_t seed = 0;
    std::memcpy(&seed, data + 1, 8);
    const Seat me = seat(data[9]);
    Rules rules = (data[9] & 4) ? kClassic : kLevantine;
    rules.target = 1 + data[10] % 40;
    Match match(rules, seat(data[9] >> 3));
    bots::EngineFeed feed;
    bots::EngineGame game;
    for (std::size_t i = 11; i < size && !match.over(); ++i) {
        if (match.awaiting_deal()) require(deal_next_from_seed(match, seed) == ErrorCode::ok);
        if (data[i] >= 0xF0) {  // the engine restarts: told everything again
            feed.reset();
            game = bots::EngineGame();
        }
        feed_lines(game, feed.sync(SeatView::of(match, me)));
        require(game.view() == SeatView::of(match, me));
        const ActionList legal = match.round().legal_actions();
        require(match.apply(legal[data[i] % legal.size()]) == ErrorCode::ok);
        feed_lines(game, feed.sync(SeatView::of(match, me)));
        if (!match.round().over()) require(game.view() == SeatView::of(match, me));
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    if (data[0] & 1) round_trip_mode(data, size);
    else text_mode(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
    return 0;
}
