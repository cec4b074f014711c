// tarneeb serve: the game server (docs/protocol.md).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "commands.hpp"
#include "tarneeb/net/http_auth.hpp"
#include "tarneeb/net/serve.hpp"

#include "engine_flags.hpp"
#include "tarneeb/bots/bot.hpp"
#include "tarneeb/bots/engine_bot.hpp"

namespace tarneeb::cli {

namespace {

using Engines = std::map<std::string, bots::EngineConfig, std::less<>>;

/// Bot seats are made by the bot registry (`--bot NAME`, add_bot with a name), or, for a name
/// registered with --engine NAME=CMD, as that outside engine (an EngineBot: its process starts
/// at the seat's first turn and is killed with the bot, i.e. with its table). A client only
/// ever names a bot: the commands are the operator's.
server::BotFactory bot_factory(std::shared_ptr<const Engines> engines) {
    return [engines](std::string_view name, std::uint64_t seed) -> std::unique_ptr<bots::Bot> {
        if (const auto it = engines->find(name); it != engines->end())
            return std::make_unique<bots::EngineBot>(it->second, seed);
        return bots::make_bot(name, seed);
    };
}

/// Reads the --engine NAME=CMD flags into `out`; an error message, or "" when all are fine.
std::string parse_engines(const std::vector<std::string>& flags, const bots::EngineConfig& defaults, Engines& out) {
    for (const std::string& flag : flags) {
        const auto eq = flag.find('=');
        const std::string name = flag.substr(0, eq);
        if (eq == std::string::npos || name.empty() || name.size() > 32 ||
            name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") != std::string::npos)
            return "--engine expects NAME=CMD, NAME of 1-32 characters a-z 0-9 _ - (got '" + flag + "')";
        if (bots::make_bot(name, 0) || bots::is_seeing_bot(name) || out.contains(name)) return "--engine: the name '" + name + "' is taken";
        auto config = bots::engine_config(std::string_view(flag).substr(eq + 1), defaults);
        if (!config) return "--engine " + name + ": no command, or a quote that does not close";
        config->name = name;
        out.emplace(name, std::move(*config));
    }
    return {};
}

void log_engine(bots::EngineLogLevel level, const std::string& line) {
    switch (level) {
        case bots::EngineLogLevel::debug: spdlog::debug("{}", line); break;
        case bots::EngineLogLevel::info: spdlog::info("{}", line); break;
        case bots::EngineLogLevel::warn: spdlog::warn("{}", line); break;
        case bots::EngineLogLevel::error: spdlog::error("{}", line); break;
    }
}

}  // namespace

void add_serve(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("serve", "Run the game server: lobby, tables, bots, HTTP + WebSocket on one port");
    cmd->footer(
        "Protocol: docs/protocol.md. Stops on SIGINT/SIGTERM; live tables resume after a restart.\n"
        "--engine NAME=CMD registers an outside engine (docs/engine-protocol.md) that add_bot seats by\n"
        "NAME (and --bot may name): one process per seat, started at its first turn, thinking on the bot\n"
        "threads, killed with its table. CMD is split into words without a shell (sh:CMD runs /bin/sh -c\n"
        "CMD). A fault (crash, hang past its budget, garbage, illegal action) plays the rules' default\n"
        "action, is logged with the engine's name and line, and restarts the engine; after\n"
        "--engine-max-faults faults the heuristic bot takes the seat.");
    struct Options {
        server::ServeConfig config;
        double grace_seconds = 20;
        double quick_fill_seconds = 20;
        std::string log_level = "info";
        bool no_static = false;
        double rate_burst = 0;  ///< 0: twice the rate
        double session_days = 30;  ///< --session-days
        std::vector<std::string> engines;  ///< --engine NAME=CMD
        std::string operator_token_file;   ///< --operator-token-file
        bots::EngineConfig engine;         ///< their settings
    };
    auto o = std::make_shared<Options>();
    cmd->add_option("--address", o->config.address, "address to listen on")->capture_default_str();
    cmd->add_option("--port", o->config.port, "TCP port (0: any free port, printed on stdout)")->capture_default_str();
    auto* db = cmd->add_option("--db", o->config.db, "SQLite database file")->capture_default_str();
    cmd->add_option("--postgres", o->config.postgres,
                    "store everything in PostgreSQL instead of --db: a URL postgresql://USER[:PASSWORD]@HOST:PORT/DBNAME"
                    " (or from the environment variable TARNEEB_POSTGRES, kept out of `ps`; a password may also come from"
                    " ~/.pgpass or PGPASSWORD: docs/operations.md \"PostgreSQL\")")
        ->envname("TARNEEB_POSTGRES")
        ->excludes(db)
        ->check([](const std::string& url) {
            return server::is_postgres_url(url) ? std::string() : std::string("--postgres expects a postgresql:// or postgres:// URL");
        });
    auto* redis = cmd->add_option("--redis", o->config.redis,
                                  "cluster mode: the cluster's Redis, redis://[[USER]:PASSWORD@]HOST[:PORT][/DB];"
                                  " needs --postgres and --node (or from the environment variable TARNEEB_REDIS, kept out of `ps`;"
                                  " docs/scaling.md, docs/operations.md \"Cluster\"). A Redis that refuses the password or cannot"
                                  " be reached at start: exit status 1")
                      ->envname("TARNEEB_REDIS");
    auto* node = cmd->add_option("--node", o->config.node, "cluster mode: this node's name, unique in the cluster ([A-Za-z0-9._-], 1-64)")
        ->check([](const std::string& n) {
            const bool ok = !n.empty() && n.size() <= 64 && std::all_of(n.begin(), n.end(), [](unsigned char c) {
                return std::isalnum(c) || c == '.' || c == '_' || c == '-';
            });
            return ok ? std::string() : std::string("--node: 1-64 characters of A-Z a-z 0-9 . _ -");
        });
    redis->needs(node);
    node->needs(redis);
    cmd->add_option("--threads", o->config.threads,
                    "event loops for the sockets; loop 0 also runs every table (0: one per two cores, at least one; docs/scaling.md)")
        ->capture_default_str()->check(CLI::Range(0, 256));
    cmd->add_flag("--full-sync", o->config.full_sync, "fsync every journal entry (survives power loss; slower)");
    cmd->add_option("--static", o->config.static_dir, "directory of the browser client's files (default: web/dist if it exists)");
    cmd->add_flag("--no-static", o->no_static, "serve no files");
    cmd->add_option("--origin", o->config.origins, "extra allowed browser Origin (repeatable)");
    cmd->add_option("--bot-delay-ms", o->config.hall.timing.bot_delay_ms, "bot thinking delay in ms")->capture_default_str()
        ->check(CLI::Range(0, 60000));
    cmd->add_option("--summary-ms", o->config.hall.timing.summary_ms,
                    "after a deal, ms the round summary is shown before the next deal's turn clock and bots start")
        ->capture_default_str()->check(CLI::Range(0, 60000));
    cmd->add_option("--grace", o->grace_seconds, "seconds a disconnected player's seat is held before a bot plays it")
        ->capture_default_str()->check(CLI::Range(0.0, 3600.0));
    cmd->add_option("--bot", o->config.hall.default_bot, "bot for add_bot without a name and for stand-ins")->capture_default_str();
    cmd->add_option("--quick-fill-seconds", o->quick_fill_seconds,
                    "quick play: seconds a quick-play table waits for people after its first sits, then bots fill it")
        ->capture_default_str()->check(CLI::Range(0.0, 600.0));
    cmd->add_option("--quick-bot", o->config.hall.timing.quick_bot, "quick play: the computer players that fill a table")
        ->capture_default_str()->check([](const std::string& name) {
            for (const bots::BotInfo& info : bots::registry())
                if (info.name == name) return std::string();
            return "--quick-bot: no built-in bot '" + name + "' (tarneeb simulate --help lists them)";
        });
    cmd->add_option("--idle-seconds", o->config.idle_seconds, "close a WebSocket silent this long")->capture_default_str()
        ->check(CLI::Range(1, 86400));
    cmd->add_option("--max-tables", o->config.hall.max_tables, "live tables at once")->capture_default_str();
    cmd->add_option("--max-connections", o->config.max_connections, "WebSocket connections at once")->capture_default_str();
    cmd->add_option("--max-waiting-tables-per-guest", o->config.hall.max_waiting_tables_per_guest,
                    "tables one guest created that have not started yet")->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--max-waiting-tables-per-address", o->config.hall.max_waiting_tables_per_address,
                    "tables not started yet created from one IP address")->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--max-playing-tables-per-address", o->config.hall.max_playing_tables_per_address,
                    "tables created from one IP address playing at once (then start is refused)")
        ->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--max-new-guests-per-address", o->config.hall.new_guests_per_address,
                    "new guest names from one IP address in 15 minutes (then too_many_attempts); 0: no limit")
        ->capture_default_str()->check(CLI::Range(0, 1000000));
    cmd->add_option("--max-engine-processes", o->config.hall.max_engine_processes,
                    "outside-engine bots (--engine) seated at live tables over the server, one process each (then add_bot of an"
                    " engine is refused: engine_budget)")
        ->capture_default_str()->check(CLI::Range(0, 1000000))->group("Engines");
    cmd->add_option("--max-engine-processes-per-address", o->config.hall.max_engine_processes_per_address,
                    "outside-engine bots seated at the tables created from one IP address (then engine_budget)")
        ->capture_default_str()->check(CLI::Range(0, 1000000))->group("Engines");
    cmd->add_option("--max-connections-per-guest", o->config.hall.max_connections_per_guest,
                    "WebSocket connections signed in with one token at once")->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--max-connections-per-address", o->config.hall.max_connections_per_address,
                    "WebSocket connections from one IP address at once")->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--list-page", o->config.hall.list_page_max, "tables in one `tables` page at most")
        ->capture_default_str()->check(CLI::Range(std::size_t{1}, std::size_t{1000}));
    cmd->add_option("--max-queue-bytes", o->config.max_queue_bytes,
                    "bytes queued for one slow WebSocket before it is closed")->capture_default_str()
        ->check(CLI::Range(std::size_t{1024}, std::size_t{1} << 30));
    cmd->add_option("--rate", o->config.hall.rate.per_second, "messages per second per connection")->capture_default_str()
        ->check(CLI::PositiveNumber);
    cmd->add_option("--rate-burst", o->rate_burst, "messages a connection may send at once (default: 2 x --rate)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--seed", o->config.hall.seed,
                    "TEST ONLY: deterministic deals and bots from this seed (0, the default: every deal from the OS CSPRNG)")
        ->capture_default_str();
    cmd->add_option("--bot-threads", o->config.hall.bot_threads, "threads bots think on (0: one per core)")->capture_default_str();
    cmd->add_option("--write-queue", o->config.hall.write_queue,
                    "database writes waiting at most; beyond, requests are refused with storage_unavailable")
        ->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--journal-batch", o->config.hall.journal_batch,
                    "group commit: table changes written in one database transaction at most (1: each alone)")
        ->capture_default_str()->check(CLI::Range(1, 4096));
    cmd->add_option("--analysis-threads", o->config.hall.analysis_threads,
                    "threads that analyse finished deals for GET /api/matches/{id}/analysis")
        ->capture_default_str()->check(CLI::Range(1, 16));
    cmd->add_option("--analysis-queue", o->config.hall.analysis_queue,
                    "analyses queued or running at most; beyond, 503 analysis_busy")
        ->capture_default_str()->check(CLI::Range(1, 100000));
    cmd->add_option("--analysis-per-address", o->config.hall.analysis_per_address,
                    "analyses one IP address may have queued or running; beyond, 503 analysis_busy")
        ->capture_default_str()->check(CLI::Range(1, 100000));
    cmd->add_option("--analysis-budget-ms", o->config.hall.analysis_budget_ms,
                    "CPU time one deal's analysis may take (checked between positions); beyond, it fails as too_slow")
        ->capture_default_str()->check(CLI::Range(1, 3600000));
    // Accounts (docs/protocol.md "Accounts").
    cmd->add_option("--session-days", o->session_days, "days a registered player's session token lasts")
        ->capture_default_str()->check(CLI::Range(0.001, 3650.0));
    cmd->add_option("--password-threads", o->config.hall.password_threads,
                    "threads that hash and check passwords (Argon2id, 64 MiB each while they do)")
        ->capture_default_str()->check(CLI::Range(1, 16));
    cmd->add_option("--password-queue", o->config.hall.password_queue,
                    "password jobs waiting at most; beyond, sign-ins get `busy`")
        ->capture_default_str()->check(CLI::Range(1, 100000));
    cmd->add_option("--sign-in-failures-per-name", o->config.hall.name_failures,
                    "failed sign-ins per name in 15 minutes, then too_many_attempts")
        ->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--sign-in-failures-per-address", o->config.hall.address_failures,
                    "failed sign-ins per address in 15 minutes, then too_many_attempts")
        ->capture_default_str()->check(CLI::Range(1, 1000000));
    cmd->add_option("--operator-token-file", o->operator_token_file,
                    "a file holding the operator's bearer token (32 to 128 letters, digits or -._~+/, e.g. from"
                    " `openssl rand -hex 32`): GET /api/fairplay is served to it (docs/operations.md \"Fair-play report\");"
                    " without it that path is not served")
        ->check(CLI::ExistingFile);
    cmd->add_option("--log-level", o->log_level, "trace, debug, info, warn, error, off")->capture_default_str();
    cmd->add_option("--engine", o->engines, "NAME=CMD: an outside engine that add_bot seats by NAME (repeatable)")
        ->group("Engines");
    o->engine.quit_ms = 0;  // killed at once with its table: the event loop does not wait
    add_engine_flags(cmd, o->engine);
    cmd->callback([o, &exit_code] {
        // Logs go to stderr; stdout carries only the "listening on ADDRESS:PORT" line.
        spdlog::set_default_logger(spdlog::stderr_color_mt("serve"));
        spdlog::set_level(spdlog::level::from_str(o->log_level));
        spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %l %v");
        o->config.hall.timing.grace_ms = static_cast<server::Millis>(o->grace_seconds * 1000);
        o->config.hall.timing.quick_fill_ms = static_cast<server::Millis>(o->quick_fill_seconds * 1000);
        o->config.hall.session_ttl_ms = static_cast<server::Millis>(o->session_days * 24 * 3600 * 1000);
        o->config.hall.timing.standin_bot = o->config.hall.default_bot;
        if (o->config.hall.seed != 0)
            spdlog::warn("event=deterministic_seeds seed_option=set: deals follow from --seed (tests only; never on a public server)");
        o->config.hall.rate.burst = o->rate_burst > 0 ? o->rate_burst : 2 * o->config.hall.rate.per_second;
        o->engine.log = log_engine;
        if (!o->config.redis.empty() && o->config.postgres.empty()) {
            // Every node of a cluster reads and writes the same tables: one shared database.
            std::cerr << "tarneeb serve: --redis needs --postgres (a cluster shares one PostgreSQL database)\n";
            exit_code = kExitUsage;
            return;
        }
        if (!o->operator_token_file.empty()) {
            std::ifstream in(o->operator_token_file);
            std::string token;
            std::getline(in, token);
            while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) token.pop_back();
            if (token.size() < server::kMinOperatorToken || server::bearer_token("Bearer " + token) != token) {
                std::cerr << "tarneeb serve: --operator-token-file: its first line must be a token of "
                          << server::kMinOperatorToken << " to " << server::kMaxBearerToken
                          << " letters, digits or -._~+/ (e.g. `openssl rand -hex 32`)\n";
                exit_code = kExitUsage;
                return;
            }
            o->config.hall.operator_token = token;
        }
        auto engines = std::make_shared<Engines>();
        if (const std::string error = parse_engines(o->engines, o->engine, *engines); !error.empty()) {
            std::cerr << "tarneeb serve: " << error << "\n";
            exit_code = kExitUsage;
            return;
        }
        // A guest cannot sign in as a bot, nor as a look-alike of one.
        for (const bots::BotInfo& info : bots::registry()) o->config.hall.reserved_names.emplace_back(info.name);
        for (const auto& [name, config] : *engines) {
            o->config.hall.reserved_names.emplace_back(name);
            o->config.hall.engine_bots.emplace_back(name);  // counted in the engine budget
        }
        if (o->no_static) o->config.static_dir.clear();
        else if (o->config.static_dir.empty() && std::filesystem::is_directory("web/dist")) o->config.static_dir = "web/dist";
        exit_code = server::serve(o->config, bot_factory(engines)) == 0 ? kExitOk : kExitRejected;
    });
}

}  // namespace tarneeb::cli
