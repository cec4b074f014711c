// The two links of a cluster node (include/tarneeb/cluster/cluster_link.hpp): Redis between
// machines, memory between the shards of one process.
#include "tarneeb/cluster/cluster_link.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

namespace tarneeb::server {

using nlohmann::json;

std::string encode_node_message(json msg) {
    auto t = msg.find("t");
    if (t == msg.end() || !t->is_string()) return msg.dump();
    std::string frame = std::move(t->get_ref<std::string&>());
    msg.erase(t);
    std::string text = msg.dump();
    text.reserve(text.size() + 1 + frame.size());
    text += '\n';
    text += frame;
    return text;
}

json decode_node_message(std::string_view text) {
    const auto nl = text.find('\n');
    json msg = json::parse(text.substr(0, nl), nullptr, false);
    if (nl != std::string_view::npos && msg.is_object()) msg["t"] = std::string(text.substr(nl + 1));
    return msg.is_object() ? msg : json(json::value_t::discarded);
}

namespace {

class RedisLink final : public ClusterLink {
public:
    explicit RedisLink(const ClusterConfig& config)
        : config_(config), me_(NodeId::fresh(config.node)), redis_(config.redis), pub_redis_(config.redis),
          leases_(redis_, config.prefix), directory_(redis_, config.prefix) {
        work_ = std::make_unique<WorkQueue>("lease", 1, 1024);
        publisher_ = std::thread([this] { run_publisher(); });
    }
    ~RedisLink() override { stop(); }

    const NodeId& self() const override { return me_; }
    bool uses_redis() const override { return true; }

    void start(Deliver deliver, Lost lost) override {
        keeper_ = std::make_unique<LeaseKeeper>(leases_, me_, config_.lease_ttl, [this, lost](const std::string& table, const std::string& code) {
            // On the keeper's thread: take the lease again when it is free (Redis restarted
            // empty, or this node paused past it and nobody took the table), else it goes.
            work_->submit([this, lost, table, code] {
                bool again = false;
                try {
                    again = keeper_->acquire(table);
                } catch (const ClusterError&) {
                }
                if (!again) lost(table, code);
            });
        });
        subscriber_ = std::make_unique<Subscriber>(config_.redis, [deliver, mine = me_.text()](const PubSubMessage& m) {
            // Parsed here, on the subscriber's thread; only messages for this instance go on.
            json msg = decode_node_message(m.payload);
            if (!msg.is_object() || !msg.contains("to") || msg["to"] != mine) return;
            deliver(std::move(msg));
        });
        subscriber_->subscribe(config_.prefix + ":to:" + me_.name);
    }

    void stop() override {
        if (stopped_) return;
        stopped_ = true;
        if (subscriber_) subscriber_->stop();
        if (keeper_) keeper_->stop();
        work_->stop();
        {
            std::lock_guard lock(publish_mutex_);
            publish_stopping_ = true;
        }
        publish_ready_.notify_one();
        publisher_.join();  // after publishing what was queued
        try {
            directory_.leave(me_);
        } catch (const ClusterError&) {
        }
    }

    bool publish(const NodeId& to, json msg) override {
        msg["to"] = to.text();
        msg["from"] = me_.text();
        std::string text = encode_node_message(std::move(msg));  // on the caller's thread (a loop)
        std::lock_guard lock(publish_mutex_);
        if (publish_stopping_ || to_publish_.size() >= config_.publish_queue) return false;
        to_publish_.emplace_back(config_.prefix + ":to:" + to.name, std::move(text));
        if (to_publish_.size() == 1) publish_ready_.notify_one();
        return true;
    }

    std::uint64_t sessions() const override { return subscriber_ ? subscriber_->sessions() : 0; }

    std::int64_t take(Storage& store, const std::string& table) override {
        bool taken = false;
        try {
            taken = keeper_->acquire(table);
        } catch (const ClusterError& e) {
            throw StorageError("storage_unavailable", std::string("redis: ") + e.what());
        }
        if (!taken) throw StorageError("storage_fenced", "another node took table " + table);
        return store.claim_table(table, me_.text());
    }

    void release(const std::string& table) override {
        work_->submit([this, table] {
            try {
                keeper_->release(table);
            } catch (const ClusterError&) {
            }  // it expires by itself
        });
    }

    std::optional<NodeId> owner(const std::string& table) override {
        try {
            return leases_.owner(table);
        } catch (const ClusterError&) {
            return std::nullopt;
        }
    }

    View exchange(const std::vector<LobbyEntry>& mine) override {
        directory_.heartbeat(me_, config_.heartbeat_ttl);
        directory_.set_lobby(me_, mine, config_.heartbeat_ttl);
        return View{directory_.live_nodes(), directory_.lobby()};
    }

    std::vector<Adopted> take_orphans(Storage& scan, const View& view, std::size_t max) override {
        // Live tables that no live node lists and that have no lease, on two scans in a row (a
        // table just created is leased by its creator within milliseconds): take them.
        std::vector<Adopted> adopt;
        std::set<std::string> listed;
        for (const auto& e : view.lobby) listed.insert(e.table);
        for (const auto& t : keeper_->held()) listed.insert(t);
        std::set<std::string> suspects;
        for (const auto& id : scan.live_table_ids()) {
            if (listed.count(id) || leases_.owner(id)) continue;
            suspects.insert(id);
            if (!suspects_.count(id) || adopt.size() >= max) continue;
            if (!keeper_->acquire(id)) continue;
            const std::int64_t fence = scan.claim_table(id, me_.text());
            if (auto live = scan.live_table(id)) adopt.emplace_back(std::move(*live), fence);
            else keeper_->release(id);  // closed meanwhile
        }
        suspects_ = std::move(suspects);
        return adopt;
    }

    json metrics() const override {
        return json{{"leases", keeper_ ? keeper_->held().size() : 0}, {"publish_failures", publish_failures_.load()}};
    }

private:
    ClusterConfig config_;
    NodeId me_;
    RedisClient redis_;      ///< the worker's, the LeaseKeeper's and the hall writer's (take)
    RedisClient pub_redis_;  ///< the publisher's
    TableLeases leases_;
    ClusterDirectory directory_;
    std::unique_ptr<LeaseKeeper> keeper_;
    std::unique_ptr<WorkQueue> work_;       ///< lease re-takes and releases, in order
    // Messages to other nodes, in order, on one thread: each wake-up publishes every message
    // queued meanwhile in one pipelined write (RedisClient::publish_all), so a busy node pays
    // one round trip per burst, not one per message.
    void run_publisher() {
        std::vector<std::pair<std::string, std::string>> batch;
        for (;;) {
            {
                std::unique_lock lock(publish_mutex_);
                publish_ready_.wait(lock, [&] { return publish_stopping_ || !to_publish_.empty(); });
                if (to_publish_.empty()) return;
                batch.clear();
                batch.swap(to_publish_);
            }
            try {
                pub_redis_.publish_all(batch);
            } catch (const ClusterError&) {
                publish_failures_ += batch.size();  // at most once: the receivers recover (docs/scaling.md)
            }
        }
    }
    std::mutex publish_mutex_;
    std::condition_variable publish_ready_;
    std::vector<std::pair<std::string, std::string>> to_publish_;  ///< (channel, text), under publish_mutex_
    bool publish_stopping_ = false;
    std::thread publisher_;  ///< run_publisher
    std::unique_ptr<Subscriber> subscriber_;
    std::set<std::string> suspects_;  ///< (worker) live tables no node ran at the last scan
    std::atomic<std::uint64_t> publish_failures_{0};
    bool stopped_ = false;
};

}  // namespace

std::unique_ptr<ClusterLink> redis_link(const ClusterConfig& config) { return std::make_unique<RedisLink>(config); }

// ---- the shards of one process ----------------------------------------------------------------

class LocalLink final : public ClusterLink {
public:
    LocalLink(LocalCluster& cluster, unsigned index) : cluster_(cluster), index_(index), me_(cluster.nodes_.at(index)) {}
    ~LocalLink() override { stop(); }

    const NodeId& self() const override { return me_; }
    std::optional<NodeId> home() const override { return cluster_.nodes_.front(); }
    std::vector<NodeId> known_nodes() const override { return cluster_.nodes_; }

    void note_presence(const std::string& name, const NodeId& node) override {
        std::lock_guard lock(cluster_.mutex_);
        if (node == cluster_.nodes_.front()) cluster_.presence_.erase(name);
        else cluster_.presence_.insert_or_assign(name, node);
    }

    std::optional<NodeId> presence(const std::string& name) const override {
        std::lock_guard lock(cluster_.mutex_);
        auto it = cluster_.presence_.find(name);
        if (it == cluster_.presence_.end()) return std::nullopt;
        return it->second;
    }
    bool runs_tournaments() const override { return me_ == cluster_.nodes_.front(); }

    std::optional<NodeId> place_table() override {
        // The shard running the fewest tables, the next in turn among equals; the home shard
        // counts one more (it also signs every client in and serves the lobby).
        std::lock_guard lock(cluster_.mutex_);
        const auto n = cluster_.nodes_.size();
        auto load = [&](std::size_t i) { return cluster_.tables_[cluster_.nodes_[i].name] + (i == 0 ? 1 : 0); };
        std::size_t best = cluster_.next_ % n;
        for (std::size_t k = 0; k < n; ++k) {
            const std::size_t i = (cluster_.next_ + k) % n;
            if (load(i) < load(best)) best = i;
        }
        cluster_.next_ = static_cast<unsigned>((best + 1) % n);
        return cluster_.nodes_[best];
    }

    // start() and stop() run while no shard's loop does (LocalCluster's rule), publish() on the
    // loops: the handler is read without a lock.
    void start(Deliver deliver, Lost) override {
        cluster_.handlers_[index_] = std::move(deliver);
        cluster_.open_[index_].store(true, std::memory_order_release);
    }

    void stop() override { cluster_.open_[index_].store(false, std::memory_order_release); }

    bool publish(const NodeId& to, json msg) override {
        const auto& nodes = cluster_.nodes_;
        const auto it = std::find(nodes.begin(), nodes.end(), to);
        if (it == nodes.end()) return false;
        const auto i = static_cast<std::size_t>(it - nodes.begin());
        if (!cluster_.open_[i].load(std::memory_order_acquire)) return false;
        msg["to"] = to.text();
        msg["from"] = me_.text();
        cluster_.handlers_[i](std::move(msg));  // it posts to the shard's loop
        return true;
    }

    std::uint64_t sessions() const override { return 1; }  // nothing between shards is ever lost

    std::int64_t take(Storage&, const std::string& table) override {
        std::lock_guard lock(cluster_.mutex_);
        cluster_.owners_[table] = me_.name;
        ++cluster_.tables_[me_.name];
        return 0;  // one process: nobody else can write the table
    }

    void release(const std::string& table) override {
        std::lock_guard lock(cluster_.mutex_);
        auto it = cluster_.owners_.find(table);
        if (it == cluster_.owners_.end() || it->second != me_.name) return;
        cluster_.owners_.erase(it);
        --cluster_.tables_[me_.name];
    }

    std::optional<NodeId> owner(const std::string& table) override {
        std::lock_guard lock(cluster_.mutex_);
        std::string name;
        if (auto it = cluster_.owners_.find(table); it != cluster_.owners_.end()) name = it->second;
        for (const auto& [node, entries] : cluster_.lobby_)  // tables resumed at start are not taken
            if (name.empty() && std::any_of(entries.begin(), entries.end(), [&](const LobbyEntry& e) { return e.table == table; }))
                name = node;
        for (const auto& n : cluster_.nodes_)
            if (n.name == name) return n;
        return std::nullopt;
    }

    View exchange(const std::vector<LobbyEntry>& mine) override {
        std::lock_guard lock(cluster_.mutex_);
        cluster_.lobby_[me_.name] = mine;
        View v{cluster_.nodes_, {}};
        for (const auto& [node, entries] : cluster_.lobby_) v.lobby.insert(v.lobby.end(), entries.begin(), entries.end());
        return v;
    }

    std::vector<Adopted> take_orphans(Storage&, const View&, std::size_t) override { return {}; }

    json metrics() const override {
        std::lock_guard lock(cluster_.mutex_);
        auto it = cluster_.tables_.find(me_.name);
        return json{{"shards", cluster_.nodes_.size()}, {"tables_placed", it == cluster_.tables_.end() ? 0 : it->second}};
    }

private:
    LocalCluster& cluster_;
    unsigned index_;
    NodeId me_;
};

LocalCluster::LocalCluster(unsigned shards)
    : handlers_(std::max(1u, shards)), open_(std::make_unique<std::atomic<bool>[]>(std::max(1u, shards))) {
    for (unsigned i = 0; i < std::max(1u, shards); ++i) nodes_.push_back(NodeId::fresh("shard" + std::to_string(i)));
}

std::unique_ptr<ClusterLink> LocalCluster::link(unsigned i) { return std::make_unique<LocalLink>(*this, i); }

}  // namespace tarneeb::server
