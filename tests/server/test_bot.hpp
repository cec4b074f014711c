// A test-only bot that plays the turn timer's default action (until the bots library lands,
// the hall tests use it so that they need nothing but the server library).
#pragma once

#include <memory>
#include <string>

#include "tarneeb/bots/bot.hpp"
#include "tarneeb/room/table.hpp"

namespace tarneeb::server::testing {

class DefaultBot final : public bots::Bot {
public:
    explicit DefaultBot(std::string name) : name_(std::move(name)) {}
    std::string_view name() const override { return name_; }
    Action decide_call(const SeatView& v) override { return v.default_action(); }
    Action decide_trump(const SeatView& v) override { return v.default_action(); }
    Action decide_card(const SeatView& v) override { return v.default_action(); }

private:
    std::string name_;
};

inline BotFactory default_bots() {
    return [](std::string_view name, std::uint64_t) -> std::unique_ptr<bots::Bot> {
        if (name == "heuristic" || name == "random") return std::make_unique<DefaultBot>(std::string(name));
        return nullptr;
    };
}

}  // namespace tarneeb::server::testing
