// tarneeb bench: the engine's signature and rates.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "tarneeb/core/bench.hpp"

namespace tarneeb::cli {

void add_bench(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("bench", "Run the engine benchmark: print the signature and the rates");
    cmd->footer(
        "The signature is a count over a fixed seeded workload: it changes only when the engine's\n"
        "behaviour changes. Rates are single-threaded and vary with the machine.\n"
        "Output: one line 'signature N' then the rates.");
    auto rounds = std::make_shared<std::uint64_t>(300000);
    auto signature_only = std::make_shared<bool>(false);
    cmd->add_option("--rounds", *rounds, "random rounds to time")->check(CLI::Range(1ULL, 1000000000ULL));
    cmd->add_flag("--signature", *signature_only, "print only the signature");
    cmd->callback([rounds, signature_only, &exit_code] {
        if (*signature_only) {
            std::cout << "signature " << engine_signature() << "\n";
            exit_code = kExitOk;
            return;
        }
        const EngineBenchReport r = run_engine_bench(*rounds);
        std::printf("signature %llu\n", static_cast<unsigned long long>(r.signature));
        std::printf("rounds/s %.0f  shuffles/s %.0f  round/shuffle %.2fx\n", r.rounds_per_second,
                    r.shuffles_per_second, r.round_to_shuffle);
        exit_code = kExitOk;
    });
}

}  // namespace tarneeb::cli
