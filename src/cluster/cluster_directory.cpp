// Node heartbeats, seats and the lobby in Redis (include/tarneeb/cluster/cluster.hpp).
#include <algorithm>

#include "cluster_util.hpp"
#include "tarneeb/cluster/cluster.hpp"

namespace tarneeb::server {

namespace {

// Compare-and-DEL of KEYS[1]; KEYS[2..] are deleted too when KEYS[1] was ARGV[1].
constexpr std::string_view kDeleteIfOurs = R"lua(
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', unpack(KEYS)) end
return 0
)lua";

// Replaces the hash KEYS[1] with the pairs ARGV[2], ARGV[3], ... and gives it the TTL ARGV[1] ms.
constexpr std::string_view kReplaceHash = R"lua(
redis.call('DEL', KEYS[1])
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
if #ARGV > 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return 1
)lua";

// Sets one field of the hash KEYS[1] (ARGV[2] = ARGV[3]) and resets its TTL to ARGV[1] ms.
constexpr std::string_view kSetField = R"lua(
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
)lua";

// SET KEYS[1] ARGV[1] PX ARGV[2] unless it holds another table whose lease (ARGV[3] .. table)
// exists. (It reads a key it is not given: one Redis, not Redis Cluster.)
constexpr std::string_view kSetSeat = R"lua(
local cur = redis.call('GET', KEYS[1])
if cur and cur ~= ARGV[1] and redis.call('EXISTS', ARGV[3] .. cur) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
)lua";

std::string ms(std::chrono::milliseconds ttl) { return std::to_string(ttl.count()); }

}  // namespace

ClusterDirectory::ClusterDirectory(RedisClient& redis, std::string prefix) : redis_(redis), prefix_(std::move(prefix)) {
    check_cluster_prefix(prefix_);
}

namespace {
std::string node_key(const std::string& prefix, const std::string& name) { return prefix + ":node:" + name; }
// A lobby belongs to one instance: a restarted node never shows its old instance's tables.
std::string lobby_key(const std::string& prefix, const NodeId& node) { return prefix + ":lobby:" + node.text(); }
std::string seat_key(const std::string& prefix, std::string_view guest) { return prefix + ":seat:" + std::string(guest); }
}  // namespace

void ClusterDirectory::heartbeat(const NodeId& node, std::chrono::milliseconds ttl) {
    check_node(node);
    check_cluster_ttl(ttl);
    redis_.command({"SET", node_key(prefix_, node.name), node.text(), "PX", ms(ttl)});
}

std::vector<NodeId> ClusterDirectory::live_nodes() {
    std::vector<std::string> keys;
    std::string cursor = "0";
    do {
        const RedisReply r = redis_.command({"SCAN", cursor, "MATCH", prefix_ + ":node:*", "COUNT", "200"});
        if (r.kind != RedisReply::Kind::array || r.elements.size() != 2 || r.elements[1].kind != RedisReply::Kind::array)
            throw ClusterError("redis_reply", "redis SCAN: unexpected reply");
        cursor = r.elements[0].str;
        for (const auto& k : r.elements[1].elements) keys.push_back(k.str);
    } while (cursor != "0");
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());  // SCAN may return a key twice
    std::vector<NodeId> out;
    if (keys.empty()) return out;
    std::vector<std::string> args{"MGET"};
    args.insert(args.end(), keys.begin(), keys.end());
    const RedisReply r = redis_.command(args);
    if (r.kind != RedisReply::Kind::array) throw ClusterError("redis_reply", "redis MGET: not an array");
    for (const auto& v : r.elements) {
        if (v.kind != RedisReply::Kind::string) continue;  // expired between SCAN and MGET
        if (auto id = NodeId::parse(v.str)) out.push_back(std::move(*id));
    }
    std::sort(out.begin(), out.end(), [](const NodeId& a, const NodeId& b) { return a.name < b.name; });
    return out;
}

void ClusterDirectory::leave(const NodeId& node) {
    check_node(node);
    redis_.eval(kDeleteIfOurs, {node_key(prefix_, node.name), lobby_key(prefix_, node)}, {node.text()});
}

bool ClusterDirectory::set_seat(std::string_view guest, std::string_view table, std::chrono::milliseconds ttl) {
    check_cluster_id(guest, "guest");
    check_cluster_id(table, "table");
    check_cluster_ttl(ttl);
    const RedisReply r = redis_.eval(kSetSeat, {seat_key(prefix_, guest)}, {std::string(table), ms(ttl), lease_key_prefix(prefix_)});
    return r.kind == RedisReply::Kind::integer && r.integer == 1;
}

std::vector<std::optional<std::string>> ClusterDirectory::seats(const std::vector<std::string>& guests) {
    std::vector<std::optional<std::string>> out;
    if (guests.empty()) return out;
    std::vector<std::string> args{"MGET"};
    args.reserve(1 + guests.size());
    for (const auto& g : guests) {
        check_cluster_id(g, "guest");
        args.push_back(seat_key(prefix_, g));
    }
    RedisReply r = redis_.command(args);
    if (r.kind != RedisReply::Kind::array || r.elements.size() != guests.size())
        throw ClusterError("redis_reply", "redis MGET: not one value per key");
    out.reserve(guests.size());
    for (auto& v : r.elements) {
        if (v.kind == RedisReply::Kind::string) out.emplace_back(std::move(v.str));
        else out.emplace_back(std::nullopt);
    }
    return out;
}

std::optional<std::string> ClusterDirectory::seat(std::string_view guest) {
    check_cluster_id(guest, "guest");
    RedisReply r = redis_.command({"GET", seat_key(prefix_, guest)});
    if (r.kind == RedisReply::Kind::nil) return std::nullopt;
    if (r.kind != RedisReply::Kind::string) throw ClusterError("redis_reply", "redis seat: not a string");
    return std::move(r.str);
}

bool ClusterDirectory::clear_seat(std::string_view guest, std::string_view table) {
    check_cluster_id(guest, "guest");
    check_cluster_id(table, "table");
    const RedisReply r = redis_.eval(kDeleteIfOurs, {seat_key(prefix_, guest)}, {std::string(table)});
    return r.kind == RedisReply::Kind::integer && r.integer == 1;
}

void ClusterDirectory::set_lobby(const NodeId& node, const std::vector<LobbyEntry>& entries,
                                 std::chrono::milliseconds ttl) {
    check_node(node);
    check_cluster_ttl(ttl);
    std::vector<std::string> args{ms(ttl)};
    args.reserve(1 + 2 * entries.size());
    for (const auto& e : entries) {
        check_cluster_id(e.table, "table");
        args.push_back(e.table);
        args.push_back(e.summary);
    }
    redis_.eval(kReplaceHash, {lobby_key(prefix_, node)}, args);
}

void ClusterDirectory::set_lobby_entry(const NodeId& node, std::string_view table, std::string_view summary,
                                       std::chrono::milliseconds ttl) {
    check_node(node);
    check_cluster_id(table, "table");
    check_cluster_ttl(ttl);
    redis_.eval(kSetField, {lobby_key(prefix_, node)}, {ms(ttl), std::string(table), std::string(summary)});
}

void ClusterDirectory::remove_lobby_entry(const NodeId& node, std::string_view table) {
    check_node(node);
    check_cluster_id(table, "table");
    redis_.command({"HDEL", lobby_key(prefix_, node), std::string(table)});
}

std::vector<LobbyEntry> ClusterDirectory::lobby() {
    std::vector<LobbyEntry> out;
    for (const NodeId& node : live_nodes()) {
        const RedisReply r = redis_.command({"HGETALL", lobby_key(prefix_, node)});
        if (r.kind != RedisReply::Kind::array || r.elements.size() % 2 != 0)
            throw ClusterError("redis_reply", "redis HGETALL: not field/value pairs");
        std::vector<LobbyEntry> mine;
        for (std::size_t i = 0; i + 1 < r.elements.size(); i += 2)
            mine.push_back(LobbyEntry{node.name, r.elements[i].str, r.elements[i + 1].str});
        std::sort(mine.begin(), mine.end(), [](const LobbyEntry& a, const LobbyEntry& b) { return a.table < b.table; });
        out.insert(out.end(), mine.begin(), mine.end());
    }
    return out;
}

}  // namespace tarneeb::server
