// cluster_bench: the cluster's Redis round trips on loopback (issue 16; docs/scaling.md): a
// PING, one lease renew (a Lua compare-and-PEXPIRE), renewing 100 leases in one script (what a
// LeaseKeeper does each period), a PUBLISH alone, and a publish → receive round trip through a
// Subscriber (its own connection and thread). Rates only, no assertions; each is timed in real
// (wall-clock) time, since the client mostly waits for the network.
//
// Redis: TARNEEB_REDIS_URL when set (redis://host:port), else a throwaway redis-server started on
// a free port of 127.0.0.1 (tests/cluster/redis_fixture.hpp), stopped at the end. The client and
// redis-server share this machine's cores: say so next to any number taken from it.
#include <benchmark/benchmark.h>

#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>

#include "../tests/cluster/redis_fixture.hpp"
#include "tarneeb/cluster/cluster.hpp"

namespace {

using namespace tarneeb::server;

// The Redis every benchmark talks to, started once.
const RedisOptions& redis_options() {
    static std::unique_ptr<testing::RedisServer> server;
    static const RedisOptions options = [] {
        if (const char* url = std::getenv("TARNEEB_REDIS_URL"); url != nullptr && *url != '\0')
            return parse_redis_url(url);
        server = std::make_unique<testing::RedisServer>();
        if (const std::string err = server->start(); !err.empty()) {
            std::fprintf(stderr, "cluster_bench: %s\n", err.c_str());
            std::exit(1);
        }
        return server->options();
    }();
    return options;
}

void BM_Ping(benchmark::State& state) {
    RedisClient client(redis_options());
    for (auto _ : state) benchmark::DoNotOptimize(client.ping());
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Ping)->UseRealTime();

void BM_LeaseRenew(benchmark::State& state) {
    RedisClient client(redis_options());
    TableLeases leases(client, "bench");
    const NodeId node = NodeId::fresh("bench");
    leases.acquire("t1", node, std::chrono::seconds(60));
    for (auto _ : state) benchmark::DoNotOptimize(leases.renew("t1", node, std::chrono::seconds(60)));
    state.SetItemsProcessed(state.iterations());
    leases.release("t1", node);
}
BENCHMARK(BM_LeaseRenew)->UseRealTime();

// items/s: leases renewed per second.
void BM_LeaseRenewMany(benchmark::State& state) {
    RedisClient client(redis_options());
    TableLeases leases(client, "bench");
    const NodeId node = NodeId::fresh("bench");
    std::vector<std::string> tables;
    for (int i = 0; i < state.range(0); ++i) {
        tables.push_back("t" + std::to_string(i));
        leases.acquire(tables.back(), node, std::chrono::seconds(60));
    }
    for (auto _ : state) benchmark::DoNotOptimize(leases.renew_many(tables, node, std::chrono::seconds(60)));
    state.SetItemsProcessed(state.iterations() * state.range(0));
    for (const auto& t : tables) leases.release(t, node);
}
BENCHMARK(BM_LeaseRenewMany)->Arg(100)->Arg(1000)->UseRealTime();

// PUBLISH of a message of range(0) bytes to a channel nobody listens to.
void BM_Publish(benchmark::State& state) {
    RedisClient client(redis_options());
    const std::string payload(static_cast<std::size_t>(state.range(0)), 'x');
    for (auto _ : state) benchmark::DoNotOptimize(client.publish("bench:nobody", payload));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Publish)->Arg(200)->UseRealTime();

// PUBLISH of a range(0)-byte message, then wait until the Subscriber's handler has it: the
// latency of one message between two nodes, plus a thread wake-up on each side.
void BM_PublishReceive(benchmark::State& state) {
    std::mutex mutex;
    std::condition_variable arrived;
    std::uint64_t received = 0;
    Subscriber sub(redis_options(), [&](const PubSubMessage&) {
        {
            std::lock_guard lock(mutex);
            ++received;
        }
        arrived.notify_one();
    });
    sub.subscribe("bench:roundtrip");
    if (!sub.wait_ready(std::chrono::seconds(30))) {
        state.SkipWithError("subscriber not ready");
        return;
    }
    RedisClient client(redis_options());
    const std::string payload(static_cast<std::size_t>(state.range(0)), 'x');
    std::uint64_t sent = 0;
    for (auto _ : state) {
        client.publish("bench:roundtrip", payload);
        ++sent;
        std::unique_lock lock(mutex);
        if (!arrived.wait_for(lock, std::chrono::seconds(10), [&] { return received == sent; })) {
            state.SkipWithError("a message did not arrive within 10 s");  // pub/sub is at most once
            break;
        }
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_PublishReceive)->Arg(200)->Arg(4000)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
