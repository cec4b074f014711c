// libFuzzer target: arbitrary byte-chosen actions applied to a match, checking the engine's
// invariants after each: no crash, a rejected action changes nothing, every state that is not
// over has a legal action, every listed legal action is accepted, and the timer's default is
// legal.
//
// Input: byte 0 picks the preset and first dealer, bytes 1..8 the deal seed, then two bytes
// per action (kind, value); values are taken as they come, so most actions are illegal.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "tarneeb/core/match.hpp"
#include "tarneeb/core/random.hpp"

namespace {

void require(bool ok) {
    if (!ok) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace tarneeb;
    if (size < 9) return 0;
    const Rules rules = (data[0] & 1) ? kClassic : kLevantine;
    std::uint64_t seed = 0;
    std::memcpy(&seed, data + 1, 8);
    Match match(rules, seat(data[0] >> 1));
    for (std::size_t i = 9; i + 1 < size && !match.over(); i += 2) {
        if (match.awaiting_deal()) require(deal_next_from_seed(match, seed) == ErrorCode::ok);
        const Round& round = match.round();
        require(!round.over());
        const ActionList legal = round.legal_actions();
        require(!legal.empty());
        for (Action a : legal) require(round.check(a) == ErrorCode::ok);
        require(round.check(round.default_action()) == ErrorCode::ok);

        Action action{static_cast<ActionKind>(data[i] % 3), data[i + 1]};
        if (data[i] >= 0xC0) action = legal[data[i + 1] % legal.size()];  // steer towards progress
        const Round before = round;
        const auto totals = match.totals();
        const ErrorCode e = match.apply(action);
        require(e == round.check(action) || e == ErrorCode::ok);
        if (e != ErrorCode::ok) {
            require(match.round() == before);
            require(match.totals() == totals);
        }
        require(match.round().tricks(Team::t0) + match.round().tricks(Team::t1) == match.round().tricks_played());
    }
    return 0;
}
