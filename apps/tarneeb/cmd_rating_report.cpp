// tarneeb rating-report --db SPEC : the operator's rating-pattern report (sandbagging and
// boosting; include/tarneeb/store/rating_patterns.hpp) over a server's database.
#include <filesystem>
#include <iomanip>
#include <iostream>

#include "commands.hpp"
#include "tarneeb/store/rating_patterns.hpp"
#include "tarneeb/store/storage.hpp"

namespace tarneeb::cli {

void add_rating_report(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("rating-report", "Report players whose rated matches look farmed or dumped (operators)");
    cmd->footer(
        "Reads the newest rated matches of a server's database (SQLite file or PostgreSQL URL; safe\n"
        "while the server runs) and lists, per player, short losses and the same opponent again\n"
        "and again at private rated tables, flagging those past the thresholds (docs/operations.md\n"
        "\"Fair play\").\n"
        "Exit status: 0 nobody flagged, 1 someone flagged, 2 usage error or unreadable database.");
    struct Options {
        std::string db;
        int matches = 5000;
        bool json = false, all = false;
        server::PatternLimits limits;
    };
    auto o = std::make_shared<Options>();
    cmd->add_option("--db", o->db, "the server's database: a SQLite file or a postgresql:// URL")->required();
    cmd->add_option("--matches", o->matches, "newest rated matches to read")->capture_default_str()->check(CLI::Range(1, 10000000));
    cmd->add_option("--short-deals", o->limits.short_deals, "a loss within this many deals is short")->capture_default_str()->check(CLI::Range(1, 1000));
    cmd->add_option("--min-short-losses", o->limits.min_short_losses, "short losses that flag a player (also half its losses)")
        ->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--min-meetings", o->limits.min_meetings, "private rated matches against one player that flag it (also half of them, 80% one-sided)")
        ->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_flag("--all", o->all, "list every player, not only the flagged ones");
    cmd->add_flag("--json", o->json, "print JSON");
    cmd->callback([o, &exit_code] {
        if (!server::is_postgres_url(o->db) && !std::filesystem::exists(o->db)) {
            std::cerr << "tarneeb rating-report: no database file '" << o->db << "'\n";
            exit_code = kExitUsage;
            return;
        }
        std::vector<server::RatedMatch> matches;
        try {
            matches = server::open_storage(o->db)->rated_matches(o->matches);
        } catch (const std::exception& e) {
            std::cerr << "tarneeb rating-report: " << e.what() << "\n";
            exit_code = kExitUsage;
            return;
        }
        auto players = server::rating_patterns(matches, o->limits);
        const bool flagged = !players.empty() && !players.front().flags.empty();
        if (!o->all) std::erase_if(players, [](const server::PlayerPatterns& p) { return p.flags.empty(); });
        if (o->json) {
            std::cout << server::rating_patterns_json(players, matches.size()).dump(2) << "\n";
        } else {
            std::cout << matches.size() << " rated matches read\n";
            for (const auto& p : players) {
                std::cout << p.name << ": " << p.matches << " rated, " << p.losses << " lost (" << p.short_losses << " within "
                          << o->limits.short_deals << " deals), " << p.private_matches << " private";
                if (p.meetings) std::cout << "; met " << p.opponent << " " << p.meetings << " times (won " << p.wins_against << ", lost " << p.losses_against << ")";
                for (const auto& f : p.flags) std::cout << " [" << f << "]";
                std::cout << "\n";
            }
            if (!flagged) std::cout << "nobody flagged\n";
        }
        exit_code = flagged ? kExitRejected : kExitOk;
    });
}

}  // namespace tarneeb::cli
