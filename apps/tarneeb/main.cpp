// tarneeb: one executable, one subcommand per job (see `tarneeb --help`).
#include <iostream>
#include <string_view>

#include "commands.hpp"
#include "tarneeb/bots/engine_guard.hpp"

int main(int argc, char** argv) {
    // The engine guard (hidden: not in --help; docs/engine-protocol.md "Processes and limits"),
    // before anything else is set up.
    if (argc > 1 && argv[1] == tarneeb::bots::kEngineGuardCommand) return tarneeb::bots::engine_guard_main(argc, argv);
    CLI::App app{"tarneeb: the Tarneeb rules engine, computer players and tools"};
    app.set_version_flag("--version", std::string("tarneeb ") + TARNEEB_VERSION);
    app.require_subcommand(1);
    int exit_code = tarneeb::cli::kExitOk;
    tarneeb::cli::add_replay(app, exit_code);
    tarneeb::cli::add_deal(app, exit_code);
    tarneeb::cli::add_bench(app, exit_code);
    tarneeb::cli::add_play(app, exit_code);
    tarneeb::cli::add_simulate(app, exit_code);
    tarneeb::cli::add_serve(app, exit_code);
    tarneeb::cli::add_analyze(app, exit_code);
    tarneeb::cli::add_engine(app, exit_code);
    tarneeb::cli::add_rating_report(app, exit_code);
    tarneeb::cli::add_fairplay(app, exit_code);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp&) {
        std::cout << app.help();
        return tarneeb::cli::kExitOk;
    } catch (const CLI::CallForAllHelp&) {
        std::cout << app.help("", CLI::AppFormatMode::All);
        return tarneeb::cli::kExitOk;
    } catch (const CLI::CallForVersion&) {
        std::cout << app.version() << "\n";
        return tarneeb::cli::kExitOk;
    } catch (const CLI::ParseError& e) {
        // A subcommand's --help raises CallForHelp from the subcommand: print its own help.
        if (e.get_name() == "CallForHelp") return app.exit(e);
        std::cerr << "tarneeb: " << e.what() << "\n(run 'tarneeb --help' for usage)\n";
        return tarneeb::cli::kExitUsage;
    }
    return exit_code;
}
