// `serve()` (serve.hpp), the composition root of `tarneeb serve`: the home (the store, the hall,
// in cluster mode the cluster node) and the event loops (shard.hpp), the listener
// (listener.hpp), the hall's clock, the signals and the shutdown.
#include "tarneeb/net/serve.hpp"

#include <pthread.h>
#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <functional>
#include <iostream>
#include <string>
#include <thread>

#include <spdlog/spdlog.h>

#include "listener.hpp"
#include "shard.hpp"

namespace tarneeb::server {

unsigned default_loops() { return std::max(1u, std::thread::hardware_concurrency() / 2); }

int serve(const ServeConfig& config, BotFactory bots) {
    using namespace transport;
    // A peer that vanishes must cost an error code on write, not the process.
    std::signal(SIGPIPE, SIG_IGN);
    // One descriptor per connection: use all the open files the hard limit allows.
    if (rlimit lim{}; getrlimit(RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max;
        setrlimit(RLIMIT_NOFILE, &lim);
    }
    // Event loops for the sockets (docs/scaling.md "Every core"); the hall on loop 0.
    const unsigned n = config.threads ? config.threads : default_loops();
    // Declared before the io_contexts so that they outlive the sessions the io_contexts own.
    AddressBook addresses(config.hall.max_connections_per_address);
    std::unique_ptr<Home> home_ptr;
    std::vector<std::unique_ptr<Shared>> loops;
    std::vector<std::unique_ptr<net::io_context>> iocs;
    for (unsigned i = 0; i < n; ++i) iocs.push_back(std::make_unique<net::io_context>(1));
    // Logged without the URL (it may hold a password).
    const std::string store = config.postgres.empty() ? config.db : std::string("postgresql");
    try {
        if (!config.redis.empty() && config.postgres.empty())
            throw ClusterError("invalid_argument", "cluster mode (redis) needs a PostgreSQL store shared by every node");
        // A node whose Redis refuses its password (or cannot be reached) at start exits here,
        // before it listens, rather than run with /healthz alone saying so. (A Redis that goes
        // away later is waited for: the cluster's clients reconnect by themselves.)
        std::unique_ptr<ClusterLink> link;
        if (!config.redis.empty()) {
            check_redis(parse_redis_url(config.redis));
            ClusterConfig cc;
            cc.redis = parse_redis_url(config.redis);
            cc.node = config.node;
            link = redis_link(cc);
        }
        ServeConfig c = config;
        if (c.hall.bot_threads == 0) c.hall.bot_threads = std::max(1u, std::thread::hardware_concurrency());
        home_ptr = std::make_unique<Home>(*iocs.front(), c, std::move(bots), std::move(link));
        // Each loop's share of the connection limit.
        c.max_connections = std::max<std::size_t>(1, config.max_connections / n);
        for (unsigned i = 0; i < n; ++i) loops.push_back(std::make_unique<Shared>(*iocs[i], c, addresses, *home_ptr, i, n));
        for (auto& l : loops) home_ptr->loops.push_back(l.get());
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
    Home& home = *home_ptr;
    net::io_context& ioc = *iocs.front();
    int resumed = 0;
    try {
        // A cluster node resumes nothing itself: it takes over the tables no node runs (its scan).
        if (config.redis.empty()) resumed = home.hall.resume(unix_ms());
    } catch (const std::exception& e) {
        const auto* se = dynamic_cast<const StorageError*>(&e);
        spdlog::error("event=resume_failed code={} error=\"{}\"", se ? se->code() : std::string("storage_io"), e.what());
        return 1;
    }
    spdlog::info("event=resumed tables={} loops={}", resumed, n);

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
    std::make_shared<Listener>(std::move(acceptor), home)->run();

    // The hall's clock: turn timers, bot delays, grace periods.
    net::steady_timer ticker(ioc);
    std::function<void()> tick = [&] {
        ticker.expires_after(std::chrono::milliseconds(10));
        ticker.async_wait([&](beast::error_code e) {
            if (e) return;
            home.hall.tick(unix_ms());
            if (home.cluster) home.cluster->tick(unix_ms());
            tick();
        });
    };
    net::post(ioc, tick);

    net::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](beast::error_code, int sig) {
        spdlog::info("event=stopping signal={}", sig);
        for (auto& io : iocs) io->stop();
    });

    std::cout << "listening on " << bound.address().to_string() << ":" << bound.port() << std::endl;
    spdlog::info("event=listening address={} port={} db={} static={}", bound.address().to_string(), bound.port(),
                 store, config.static_dir.empty() ? "-" : config.static_dir);
    // Each loop runs until stopped, with or without sockets (a loop with no work would return).
    std::vector<net::executor_work_guard<net::io_context::executor_type>> guards;
    for (auto& io : iocs) guards.push_back(net::make_work_guard(*io));
    std::vector<std::thread> threads;
    // Each further loop's thread is named `loopN` (`top -H`); loop 0, the hall's, is the
    // process's main thread and keeps its name (`tarneeb`, what ps and pgrep show).
    for (unsigned i = 1; i < n; ++i)
        threads.emplace_back([&io = *iocs[i], name = "loop" + std::to_string(i)] {
            pthread_setname_np(pthread_self(), name.c_str());
            io.run();
        });
    ioc.run();
    for (auto& io : iocs) io->stop();  // one loop ending ends them all
    for (auto& t : threads) t.join();
    // The worker threads end before the io_contexts they post to (the writes queued are finished).
    home.hall.stop();
    if (home.cluster) home.cluster->stop();
    // The io_contexts destroy their sessions after this: none may reach the hall or a loop.
    home.stopped = true;
    return 0;
}

}  // namespace tarneeb::server
