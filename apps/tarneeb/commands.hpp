// The `tarneeb` subcommands. Each add_* registers one subcommand on the CLI11 app; when that
// subcommand runs, its callback stores the process exit status in `exit_code`.
//
// Exit statuses shared by every subcommand: 0 success, 1 the input was read but rejected
// (an illegal record, a failed check), 2 usage error (bad flags, missing file).
#pragma once

#include <CLI/CLI.hpp>

namespace tarneeb::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitRejected = 1;
inline constexpr int kExitUsage = 2;

void add_replay(CLI::App& app, int& exit_code);
void add_deal(CLI::App& app, int& exit_code);
void add_bench(CLI::App& app, int& exit_code);
void add_play(CLI::App& app, int& exit_code);
void add_simulate(CLI::App& app, int& exit_code);
void add_serve(CLI::App& app, int& exit_code);
void add_analyze(CLI::App& app, int& exit_code);
void add_engine(CLI::App& app, int& exit_code);
void add_rating_report(CLI::App& app, int& exit_code);
void add_fairplay(CLI::App& app, int& exit_code);

}  // namespace tarneeb::cli
