// deal_options.hpp: the command-line options the seeded-deal benchmarks share (bid_data,
// card_costs, heuristic_duel, par_gap, pimc_match), added to their CLI::App with each tool's
// own default: --deals N (at least 1), --seed S, --rules levantine|classic (pimc_match calls it
// --preset), --threads T (at least 1). Each add_* sets its variable to the default it is given,
// so `--help` shows the default the tool runs with. Deal k of seed S is, in all of them,
// deal_from_seed(derive_seed(S, k), dealer k mod 4): the deals of `tarneeb simulate --duplicate
// --seed S`.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include <CLI/CLI.hpp>

#include "tarneeb/core/rules.hpp"

namespace tarneeb::bench {

/// An int of at least 1 (deals, threads) / at least 0 (a first deal id): CLI::PositiveNumber
/// and CLI::NonNegativeNumber check doubles, and their messages print DBL_MAX in full.
inline CLI::Validator positive() { return CLI::Range(1, std::numeric_limits<int>::max()).description("POSITIVE"); }
inline CLI::Validator non_negative() { return CLI::Range(0, std::numeric_limits<int>::max()).description("NONNEGATIVE"); }

/// A repeated option's last value wins (as the hand-written parsers these tools had took
/// them; CLI11's default refuses a second value). Call before adding any option.
inline void last_value_wins(CLI::App& app) {
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
}

/// --deals N (N >= 1) into `deals`, which starts at `fallback`.
inline CLI::Option* add_deals(CLI::App& app, int& deals, int fallback, const std::string& help = "number of deals") {
    deals = fallback;
    return app.add_option("--deals", deals, help)->capture_default_str()->check(positive());
}

/// --seed S (64 bits) into `seed`, which starts at `fallback`.
inline CLI::Option* add_seed(CLI::App& app, std::uint64_t& seed, std::uint64_t fallback,
                             const std::string& help = "run seed: deal k is deal_from_seed(derive_seed(S, k), dealer k mod 4)") {
    seed = fallback;
    return app.add_option("--seed", seed, help)->capture_default_str();
}

/// `name` (--rules, or pimc_match's --preset) levantine|classic into `rules`, which starts at
/// the preset `fallback`.
inline CLI::Option* add_rules(CLI::App& app, Rules& rules, Preset fallback, const std::string& name = "--rules") {
    rules = rules_for(fallback);
    return app
        .add_option_function<std::string>(
            name, [&rules](const std::string& v) { rules = rules_for(*parse_preset(v)); }, "rules preset")
        ->check(CLI::IsMember({"levantine", "classic"}))
        ->default_str(std::string(to_string(fallback)));
}

/// --threads T (T >= 1) into `threads`, which starts at `fallback`.
inline CLI::Option* add_threads(CLI::App& app, int& threads, int fallback, const std::string& help = "threads") {
    threads = fallback;
    return app.add_option("--threads", threads, help)->capture_default_str()->check(positive());
}

}  // namespace tarneeb::bench
