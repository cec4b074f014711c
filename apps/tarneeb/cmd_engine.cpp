// tarneeb engine --bot NAME: one of our bots as an engine of the engine protocol on standard
// input and output (docs/engine-protocol.md), so that other programs can play against it or
// with it. The protocol loop is bots::run_engine (include/tarneeb/bots/engine_adapter.hpp).
#include <iostream>

#include "commands.hpp"
#include "tarneeb/bots/engine_adapter.hpp"
#include "tarneeb/bots/pimc_bot.hpp"

namespace tarneeb::cli {

namespace {

struct EngineOptions {
    std::string bot = "heuristic";
    std::uint64_t seed = 1;
    int samples = bots::PimcOptions{}.samples;
    int threads = 1;
};

bots::EngineAdapter adapter_for(const EngineOptions& o) {
    bots::EngineAdapter a;
    a.name = "tarneeb " + o.bot;
    a.author = "the tarneeb project";
    a.options.push_back({"seed", "int", std::to_string(o.seed), 0, std::nullopt});
    if (o.bot == "pimc") {
        a.options.push_back({"samples", "int", std::to_string(o.samples), 1, 10000});
        a.options.push_back({"threads", "int", std::to_string(o.threads), 1, 64});
        // pimc spends its budget: it samples for at most half of each go's budget_ms.
        a.remake_on_budget = true;
        a.make = [](const std::map<std::string, std::string>& v, int budget_ms) -> std::unique_ptr<bots::Bot> {
            bots::PimcOptions p;
            p.samples = std::stoi(v.at("samples"));
            p.threads = std::stoi(v.at("threads"));
            p.time_budget_ms = budget_ms > 0 ? budget_ms / 2.0 : 0.0;
            return std::make_unique<bots::PimcBot>(std::stoull(v.at("seed")), p);
        };
    } else {
        const std::string name = o.bot;
        a.make = [name](const std::map<std::string, std::string>& v, int) {
            return bots::make_bot(name, std::stoull(v.at("seed")));
        };
    }
    return a;
}

}  // namespace

void add_engine(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("engine", "Run one of our bots as an engine: the engine protocol on stdin/stdout");
    cmd->footer(
        "Speaks docs/engine-protocol.md (tarneeb-engine 1) on standard input and output: the host\n"
        "writes the match, the deal (this seat's hand only) and every action, and 'go ...' when\n"
        "the seat is to act; the engine answers 'action X'. Problems are reported on standard\n"
        "error. Options declared in the handshake: seed (every bot), samples and threads (pimc;\n"
        "pimc also samples for at most half of each go's budget_ms).\n"
        "Example: tarneeb simulate --team0 engine:\"tarneeb engine --bot pimc --samples 16\" --matches 2");
    auto o = std::make_shared<EngineOptions>();
    cmd->add_option("--bot", o->bot, "the bot that decides (" + bots::bot_names() + "; default heuristic)");
    cmd->add_option("--seed", o->seed, "default of the seed option (the host may set it)")->capture_default_str();
    cmd->add_option("--samples", o->samples, "pimc: layouts solved per card decision")->capture_default_str()
        ->check(CLI::Range(1, 10000));
    cmd->add_option("--threads", o->threads, "pimc: solver threads per decision")->capture_default_str()
        ->check(CLI::Range(1, 64));
    cmd->callback([o, &exit_code] {
        if (!bots::make_bot(o->bot, 0)) {
            std::cerr << "tarneeb engine: unknown bot '" << o->bot << "' (one of: " << bots::bot_names() << ")\n";
            exit_code = kExitUsage;
            return;
        }
        std::ios::sync_with_stdio(false);
        exit_code = bots::run_engine(adapter_for(*o), std::cin, std::cout, std::cerr) == 0 ? kExitOk : kExitRejected;
    });
}

}  // namespace tarneeb::cli
