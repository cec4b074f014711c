// Table ownership leases in Redis and the thread that keeps a node's leases alive
// (include/tarneeb/cluster/cluster.hpp; the model: docs/scaling.md).
#include <sys/random.h>

#include <algorithm>
#include <cstdio>

#include "cluster_util.hpp"
#include "tarneeb/cluster/cluster.hpp"

namespace tarneeb::server {

namespace {

constexpr std::size_t kMaxIdBytes = 256;
constexpr std::size_t kRenewBatch = 500;  // keys per renew script: bounds one script's run time in Redis

// Takes the lease when it is free, or extends it when it is already this node's (so a retried
// acquire whose first reply was lost still answers true).
constexpr std::string_view kAcquire = R"lua(
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0
)lua";

// Compare-and-PEXPIRE for each key: 1 where the lease was ARGV[1]'s and is extended, else 0.
constexpr std::string_view kRenew = R"lua(
local out = {}
for i, k in ipairs(KEYS) do
  if redis.call('GET', k) == ARGV[1] then
    redis.call('PEXPIRE', k, ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
)lua";

// Compare-and-DEL.
constexpr std::string_view kRelease = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
)lua";

bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
}

bool valid_node_name(std::string_view name) {
    return !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), name_char);
}

bool valid_instance(std::string_view s) {
    return s.size() == 16 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

std::int64_t integer_of(const RedisReply& r, std::string_view what) {
    if (r.kind != RedisReply::Kind::integer) throw ClusterError("redis_reply", "redis " + std::string(what) + ": not an integer");
    return r.integer;
}

}  // namespace

void check_cluster_id(std::string_view id, std::string_view what) {
    if (id.empty() || id.size() > kMaxIdBytes)
        throw ClusterError("invalid_argument", std::string(what) + " id empty or longer than 256 bytes");
}

void check_cluster_ttl(std::chrono::milliseconds ttl) {
    if (ttl.count() < 1) throw ClusterError("invalid_argument", "TTL below 1 ms");
}

void check_cluster_prefix(std::string_view prefix) {
    if (prefix.empty() || prefix.size() > 64 ||
        !std::all_of(prefix.begin(), prefix.end(), [](char c) { return name_char(c) || c == ':'; }))
        throw ClusterError("invalid_argument", "key prefix must be 1-64 characters of [A-Za-z0-9._:-]");
}

void check_node(const NodeId& node) {
    if (!valid_node_name(node.name) || !valid_instance(node.instance))
        throw ClusterError("invalid_argument", "not a node id: '" + node.name + "/" + node.instance + "'");
}

NodeId NodeId::fresh(std::string name) {
    if (!valid_node_name(name))
        throw ClusterError("invalid_argument", "node name must be 1-64 characters of [A-Za-z0-9._-]: '" + name + "'");
    std::uint64_t v = 0;
    auto* p = reinterpret_cast<unsigned char*>(&v);
    std::size_t got = 0;
    while (got < sizeof v) {
        const ssize_t n = getrandom(p + got, sizeof v - got, 0);
        if (n < 0) throw ClusterError("invalid_argument", "getrandom failed");
        got += static_cast<std::size_t>(n);
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(v));
    return NodeId{std::move(name), hex};
}

std::optional<NodeId> NodeId::parse(std::string_view text) {
    const auto slash = text.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    NodeId id{std::string(text.substr(0, slash)), std::string(text.substr(slash + 1))};
    if (!valid_node_name(id.name) || !valid_instance(id.instance)) return std::nullopt;
    return id;
}

// ---- TableLeases ----

TableLeases::TableLeases(RedisClient& redis, std::string prefix) : redis_(redis), prefix_(std::move(prefix)) {
    check_cluster_prefix(prefix_);
}

std::string TableLeases::key(std::string_view table) const { return lease_key_prefix(prefix_) + std::string(table); }

bool TableLeases::acquire(std::string_view table, const NodeId& node, std::chrono::milliseconds ttl) {
    check_cluster_id(table, "table");
    check_node(node);
    check_cluster_ttl(ttl);
    return integer_of(redis_.eval(kAcquire, {key(table)}, {node.text(), std::to_string(ttl.count())}), "lease acquire") == 1;
}

bool TableLeases::renew(std::string_view table, const NodeId& node, std::chrono::milliseconds ttl) {
    return renew_many({std::string(table)}, node, ttl).at(0);
}

std::vector<bool> TableLeases::renew_many(const std::vector<std::string>& tables, const NodeId& node,
                                          std::chrono::milliseconds ttl) {
    check_node(node);
    check_cluster_ttl(ttl);
    std::vector<bool> out;
    out.reserve(tables.size());
    for (std::size_t begin = 0; begin < tables.size(); begin += kRenewBatch) {
        const std::size_t end = std::min(tables.size(), begin + kRenewBatch);
        std::vector<std::string> keys;
        keys.reserve(end - begin);
        for (std::size_t i = begin; i < end; ++i) {
            check_cluster_id(tables[i], "table");
            keys.push_back(key(tables[i]));
        }
        const RedisReply r = redis_.eval(kRenew, keys, {node.text(), std::to_string(ttl.count())});
        if (r.kind != RedisReply::Kind::array || r.elements.size() != keys.size())
            throw ClusterError("redis_reply", "redis lease renew: not one answer per lease");
        for (const auto& e : r.elements) out.push_back(integer_of(e, "lease renew") == 1);
    }
    return out;
}

bool TableLeases::release(std::string_view table, const NodeId& node) {
    check_cluster_id(table, "table");
    check_node(node);
    return integer_of(redis_.eval(kRelease, {key(table)}, {node.text()}), "lease release") == 1;
}

std::optional<NodeId> TableLeases::owner(std::string_view table) {
    check_cluster_id(table, "table");
    const RedisReply r = redis_.command({"GET", key(table)});
    if (r.kind == RedisReply::Kind::nil) return std::nullopt;
    if (r.kind != RedisReply::Kind::string) throw ClusterError("redis_reply", "redis lease: not a string");
    auto id = NodeId::parse(r.str);
    if (!id) throw ClusterError("redis_reply", "redis lease: not a node id: " + r.str);
    return id;
}

// ---- LeaseKeeper ----

LeaseKeeper::LeaseKeeper(TableLeases& leases, NodeId node, std::chrono::milliseconds ttl, LostFn on_lost)
    : leases_(leases), node_(std::move(node)), ttl_(ttl), on_lost_(std::move(on_lost)) {
    check_node(node_);
    if (ttl_.count() < 3) throw ClusterError("invalid_argument", "lease keeper TTL below 3 ms");
    thread_ = std::thread([this] { run(); });
}

LeaseKeeper::~LeaseKeeper() { stop(); }

void LeaseKeeper::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

bool LeaseKeeper::acquire(const std::string& table) {
    const auto sent = std::chrono::steady_clock::now();
    if (!leases_.acquire(table, node_, ttl_)) return false;
    std::lock_guard lock(mutex_);
    Kept& k = kept_[table];
    k.confirmed = sent;
    k.generation = ++generation_;
    return true;
}

void LeaseKeeper::keep(const std::string& table) {
    check_cluster_id(table, "table");
    std::lock_guard lock(mutex_);
    Kept& k = kept_[table];
    k.confirmed = std::chrono::steady_clock::now();
    k.generation = ++generation_;
}

void LeaseKeeper::release(const std::string& table) {
    {
        std::lock_guard lock(mutex_);
        kept_.erase(table);
    }
    leases_.release(table, node_);
}

std::vector<std::string> LeaseKeeper::held() const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    out.reserve(kept_.size());
    for (const auto& [table, k] : kept_) out.push_back(table);
    return out;
}

bool LeaseKeeper::holds(const std::string& table) const {
    std::lock_guard lock(mutex_);
    return kept_.count(table) != 0;
}

std::uint64_t LeaseKeeper::rounds() const {
    std::lock_guard lock(mutex_);
    return rounds_;
}

void LeaseKeeper::run() {
    const auto period = std::max(ttl_ / 3, std::chrono::milliseconds(1));
    std::unique_lock lock(mutex_);
    auto next = std::chrono::steady_clock::now() + period;
    while (true) {
        wake_.wait_until(lock, next, [&] { return stopping_; });
        if (stopping_) return;
        next = std::chrono::steady_clock::now() + period;

        std::vector<std::string> tables;
        std::vector<std::uint64_t> generations;
        for (const auto& [table, k] : kept_) {
            tables.push_back(table);
            generations.push_back(k.generation);
        }
        lock.unlock();
        const auto sent = std::chrono::steady_clock::now();
        std::vector<bool> ok;
        bool failed = false;
        if (!tables.empty()) {
            try {
                ok = leases_.renew_many(tables, node_, ttl_);
            } catch (const ClusterError&) {
                failed = true;  // Redis away (or refusing): the leases run down until it is back
            }
        }
        const auto now = std::chrono::steady_clock::now();
        lock.lock();
        ++rounds_;
        std::vector<std::pair<std::string, std::string>> lost;
        for (std::size_t i = 0; i < tables.size(); ++i) {
            const auto it = kept_.find(tables[i]);
            if (it == kept_.end() || it->second.generation != generations[i]) continue;  // released or kept anew meanwhile
            if (!failed && ok[i]) {
                it->second.confirmed = std::max(it->second.confirmed, sent);
            } else if (!failed) {
                lost.emplace_back(tables[i], "lease_not_ours");
                kept_.erase(it);
            } else if (now - it->second.confirmed >= ttl_) {
                lost.emplace_back(tables[i], "lease_expired");
                kept_.erase(it);
            }
        }
        if (!lost.empty() && on_lost_) {
            lock.unlock();
            for (const auto& [table, code] : lost) on_lost_(table, code);
            lock.lock();
        }
    }
}

}  // namespace tarneeb::server
