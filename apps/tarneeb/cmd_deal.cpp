// tarneeb deal --seed S [--count N] [--dealer D]: reproducible deals as JSON lines.
#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "tarneeb/core/random.hpp"

namespace tarneeb::cli {

void add_deal(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("deal", "Print reproducible deals from a seed as JSON lines");
    cmd->footer(
        "Line k is the deal of seed S+k: {\"seed\": S+k, \"dealer\": D, \"hands\": [4 hands]},\n"
        "hands by seat in the record notation. The same seed and dealer give the same hands on\n"
        "every platform (generator and shuffle: include/tarneeb/core/random.hpp).");
    struct Options { std::uint64_t seed = 0; int count = 1; int dealer = 0; };
    auto o = std::make_shared<Options>();
    cmd->add_option("--seed", o->seed, "64-bit seed")->required();
    cmd->add_option("--count", o->count, "number of deals")->check(CLI::Range(1, 100000000));
    cmd->add_option("--dealer", o->dealer, "dealer seat 0-3 (the first card goes to the next seat)")->check(CLI::Range(0, 3));
    cmd->callback([o, &exit_code] {
        for (int k = 0; k < o->count; ++k) {
            const std::uint64_t seed = o->seed + static_cast<std::uint64_t>(k);
            const Hands hands = deal_from_seed(seed, tarneeb::seat(o->dealer));
            nlohmann::json line = {{"seed", seed}, {"dealer", o->dealer}, {"hands", nlohmann::json::array()}};
            for (CardSet h : hands) line["hands"].push_back(to_string(h));
            std::cout << line.dump() << "\n";
        }
        exit_code = kExitOk;
    });
}

}  // namespace tarneeb::cli
