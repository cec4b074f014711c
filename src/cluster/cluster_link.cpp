// The Redis link of a cluster node (include/tarneeb/cluster/cluster_link.hpp).
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

    // A new subscriber session (this node's incoming messages may be lost), or the publisher
    // working again after it dropped messages (its outgoing ones were): either way the node opens
    // its routes and its guests' fronts again (ClusterNode::tick, RoutedTables::resync).
    std::uint64_t sessions() const override { return (subscriber_ ? subscriber_->sessions() : 0) + publisher_recoveries_.load(); }

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

    SeatWrite seat(const std::string& table, const std::vector<std::string>& guests) override {
        SeatWrite w;
        for (const auto& guest : guests) {
            try {
                if (!directory_.set_seat(guest, table, config_.seat_ttl)) w.elsewhere.push_back(guest);
            } catch (const ClusterError&) {
                ++seat_failures_;
                w.failed.push_back(guest);
            }
        }
        return w;
    }

    std::vector<std::string> unseat(const std::string& table, const std::vector<std::string>& guests) override {
        std::vector<std::string> failed;
        for (const auto& guest : guests) {
            try {
                directory_.clear_seat(guest, table);
            } catch (const ClusterError&) {
                ++seat_failures_;
                failed.push_back(guest);
            }
        }
        return failed;
    }

    std::optional<std::vector<std::optional<std::string>>> seats_of(const std::vector<std::string>& guests) override {
        try {
            return directory_.seats(guests);
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
        return json{{"leases", keeper_ ? keeper_->held().size() : 0}, {"publish_failures", publish_failures_.load()},
                    {"seat_failures", seat_failures_.load()}};
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
    // After a batch was dropped (Redis away: at most once), the publisher pings until Redis
    // answers again and then counts a recovery, which makes the node resync (sessions()): the
    // receivers of the lost messages get their tables again.
    void run_publisher() {
        std::vector<std::pair<std::string, std::string>> batch;
        bool dropped = false;
        for (;;) {
            {
                std::unique_lock lock(publish_mutex_);
                const auto ready = [&] { return publish_stopping_ || !to_publish_.empty(); };
                if (!dropped) publish_ready_.wait(lock, ready);
                else publish_ready_.wait_for(lock, std::chrono::milliseconds(100), ready);
                if (publish_stopping_ && to_publish_.empty()) return;
                batch.clear();
                batch.swap(to_publish_);
            }
            try {
                if (batch.empty()) pub_redis_.ping();  // dropped before: is Redis back?
                else pub_redis_.publish_all(batch);
                if (dropped) ++publisher_recoveries_;
                dropped = false;
            } catch (const ClusterError&) {
                publish_failures_ += batch.size();
                dropped = true;
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
    std::atomic<std::uint64_t> publisher_recoveries_{0};  ///< the publisher working again after dropping messages
    std::atomic<std::uint64_t> seat_failures_{0};
    bool stopped_ = false;
};

}  // namespace

std::unique_ptr<ClusterLink> redis_link(const ClusterConfig& config) { return std::make_unique<RedisLink>(config); }

}  // namespace tarneeb::server
