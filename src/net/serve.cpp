// `serve()` (serve.hpp), the composition root of `tarneeb serve`: the shards (one event loop,
// hall and, with several shards or in cluster mode, cluster node each: shard.hpp), the
// listener (listener.hpp), each shard's clock, the signals and the shutdown.
#include "tarneeb/net/serve.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <iostream>
#include <thread>

#include <spdlog/spdlog.h>

#include "listener.hpp"
#include "shard.hpp"

namespace tarneeb::server {

namespace {

/// Shard `i` of `n`'s settings: the process's limits shared out, its own seed.
ServeConfig shard_config(const ServeConfig& config, unsigned i, unsigned n) {
    ServeConfig c = config;
    if (n == 1) return c;
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    c.max_connections = std::max<std::size_t>(1, config.max_connections / n);
    c.hall.max_tables = std::max(1, (config.hall.max_tables + static_cast<int>(n) - 1) / static_cast<int>(n));
    if (c.hall.bot_threads == 0) c.hall.bot_threads = std::max(1u, cores / n);
    if (c.hall.seed != 0) c.hall.seed += i;  // test-only deterministic deals, not the same on every shard
    if (!c.redis.empty()) c.node = config.node + "." + std::to_string(i);
    return c;
}

}  // namespace

int serve(const ServeConfig& config, BotFactory bots) {
    using namespace transport;
    // A peer that vanishes must cost an error code on write, not the process.
    std::signal(SIGPIPE, SIG_IGN);
    // One descriptor per connection: use all the open files the hard limit allows.
    if (rlimit lim{}; getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
    }
    // Shards: one event loop each (docs/scaling.md "Every core"). An in-memory database is one
    // connection's, so it has one.
    unsigned n = config.threads ? config.threads : std::max(1u, std::thread::hardware_concurrency());
    if (config.postgres.empty() && config.db == ":memory:") n = 1;
    // Declared before the io_contexts so that they outlive the sessions the io_contexts own;
    // the shards' LocalCluster before the shards.
    AddressBook addresses(config.hall.max_connections_per_address);
    std::unique_ptr<LocalCluster> local;
    std::vector<std::unique_ptr<Shared>> shards;
    std::vector<std::unique_ptr<net::io_context>> iocs;
    // Logged without the URL (it may hold a password).
    const std::string store = config.postgres.empty() ? config.db : std::string("postgresql");
    try {
        if (!config.redis.empty() && config.postgres.empty())
            throw ClusterError("invalid_argument", "cluster mode (redis) needs a PostgreSQL store shared by every node");
        // A node whose Redis refuses its password (or cannot be reached) at start exits here,
        // before it listens, rather than run with /healthz alone saying so. (A Redis that goes
        // away later is waited for: the cluster's clients reconnect by themselves.)
        if (!config.redis.empty()) check_redis(parse_redis_url(config.redis));
        if (config.redis.empty() && n > 1) local = std::make_unique<LocalCluster>(n);
        // One count of the waiting-table limits for every shard: a limit holds for the process.
        const auto waiting_tables = std::make_shared<WaitingTables>();
        for (unsigned i = 0; i < n; ++i) {
            ServeConfig c = shard_config(config, i, n);
            c.hall.waiting_tables = waiting_tables;
            std::unique_ptr<ClusterLink> link;
            if (local) link = local->link(i);
            else if (!c.redis.empty()) {
                ClusterConfig cc;
                cc.redis = parse_redis_url(c.redis);
                cc.node = c.node;
                link = redis_link(cc);
            }
            iocs.push_back(std::make_unique<net::io_context>(1));
            shards.push_back(std::make_unique<Shared>(*iocs.back(), c, addresses, bots, std::move(link)));
        }
    } catch (const ClusterError& e) {
        spdlog::error("event=cluster_failed code={} error=\"{}\"", e.code(), e.what());
        return 1;
    } catch (const StorageError& e) {
        spdlog::error("event=db_open_failed code={} db={} error=\"{}\"", e.code(), store, e.what());
        return 1;
    } catch (const std::exception& e) {
        spdlog::error("event=db_open_failed code=storage_io db={} error=\"{}\"", store, e.what());
        return 1;
    }
    Shared& home = *shards.front();
    net::io_context& ioc = *iocs.front();
    int resumed = 0;
    try {
        // A cluster node resumes nothing itself: it takes over the tables no node runs (its
        // scan). Shards: the home shard resumes every table (the shards share one store).
        if (config.redis.empty()) resumed = home.hall.resume(unix_ms());
    } catch (const std::exception& e) {
        const auto* se = dynamic_cast<const StorageError*>(&e);
        spdlog::error("event=resume_failed code={} error=\"{}\"", se ? se->code() : std::string("storage_io"), e.what());
        return 1;
    }
    spdlog::info("event=resumed tables={} shards={}", resumed, n);

    beast::error_code ec;
    tcp::acceptor acceptor(ioc);
    const auto address = net::ip::make_address(config.address, ec);
    if (ec) {
        spdlog::error("event=bad_address address={}", config.address);
        return 1;
    }
    const tcp::endpoint ep{address, config.port};
    acceptor.open(ep.protocol(), ec);
    if (!ec) acceptor.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec) acceptor.bind(ep, ec);
    if (!ec) acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec) {
        spdlog::error("event=listen_failed port={} error=\"{}\"", config.port, ec.message());
        return 1;
    }
    const auto bound = acceptor.local_endpoint();
    std::vector<Shared*> all;
    for (auto& sh : shards) all.push_back(sh.get());
    for (auto& sh : shards) sh->shards = all;
    std::make_shared<Listener>(std::move(acceptor), *shards.front())->run();

    // Each shard's clock: turn timers, bot delays, grace periods.
    std::vector<std::unique_ptr<net::steady_timer>> tickers;
    std::vector<std::function<void()>> ticks(n);
    for (unsigned i = 0; i < n; ++i) {
        tickers.push_back(std::make_unique<net::steady_timer>(*iocs[i]));
        ticks[i] = [&, i] {
            tickers[i]->expires_after(std::chrono::milliseconds(10));
            tickers[i]->async_wait([&, i](beast::error_code e) {
                if (e) return;
                shards[i]->hall.tick(unix_ms());
                if (shards[i]->cluster) shards[i]->cluster->tick(unix_ms());
                ticks[i]();
            });
        };
        net::post(*iocs[i], ticks[i]);
    }

    net::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](beast::error_code, int sig) {
        spdlog::info("event=stopping signal={}", sig);
        for (auto& io : iocs) io->stop();
    });

    std::cout << "listening on " << bound.address().to_string() << ":" << bound.port() << std::endl;
    spdlog::info("event=listening address={} port={} db={} static={}", bound.address().to_string(), bound.port(),
                 store, config.static_dir.empty() ? "-" : config.static_dir);
    std::vector<std::thread> loops;
    for (unsigned i = 1; i < n; ++i) loops.emplace_back([&io = *iocs[i]] { io.run(); });
    ioc.run();
    for (auto& io : iocs) io->stop();  // one shard's loop ending ends them all
    for (auto& t : loops) t.join();
    // The worker threads end before the io_contexts they post to (the writes queued are finished).
    for (auto& sh : shards) sh->hall.stop();
    for (auto& sh : shards) if (sh->cluster) sh->cluster->stop();
    return 0;
}

}  // namespace tarneeb::server
