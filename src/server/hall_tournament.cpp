// The hall, tournaments (issue 15; docs/protocol.md "Tournaments"): the organiser's and the
// players' messages, a real table for each match with the tournament's settings and its seats
// reserved for the two teams, the seat time (forfeit or bots), and each finished match fed back
// to the tournament, which moves the winner on by itself.
//
// Journal: a tournament's whole state (Tournament::to_json, a few kB) is written after each
// change, on the writer thread, before the change is made in memory (change_tournament). Its
// tables are ordinary journaled tables. A result is taken from the table's finished match each
// tick until the tournament's state with it is written, so a kill -9 anywhere loses no result:
// the table (kept while its match is held, even with bots only) resumes finished or mid-match,
// and the tournament counts the result once (Tournament::finished ignores a match already done).
// Team seats: side 0 of a match sits at seats 0 and 2 (its players in order), side 1 at 1 and 3.
#include <algorithm>
#include <array>
#include <span>
#include <utility>

#include "tarneeb/server/hall.hpp"
#include "tarneeb/store/rating.hpp"
#include "tarneeb/support/names.hpp"

namespace tarneeb::server {

using nlohmann::json;

namespace {
/// The player reserved for `seat` of match `m` of `t` ("bot:KIND" for a bot), "" for none.
std::string reserved_player(const Tournament& t, const TournamentMatch& m, Seat seat) {
    const auto side = m.teams[static_cast<std::size_t>(index(seat) % 2)];
    if (!side) return "";
    return t.teams()[static_cast<std::size_t>(*side)].players[static_cast<std::size_t>(index(seat) / 2)];
}

/// The table settings of a tournament's match (docs/protocol.md "Tournaments").
TableSettings match_settings(const Tournament& t) {
    TableSettings s;
    s.preset = t.settings().preset;
    s.target = t.settings().target;
    s.turn_seconds = t.settings().turn_seconds;
    s.is_private = false;  // spectators can watch any tournament table
    s.bracket_tiebreak = t.rules().bracket_tiebreak;
    return s;
}

json summary(const Tournament& t) {
    const auto champ = t.champion();
    json champion = nullptr;
    if (champ) champion = t.teams()[static_cast<std::size_t>(*champ)].players;
    return {{"id", t.id()},
            {"name", t.settings().name},
            {"format", to_string(t.settings().format)},
            {"state", to_string(t.state())},
            {"organiser", t.organiser()},
            {"teams", t.teams().size() + t.singles().size() / 2},
            {"size", t.settings().size},
            {"start", t.settings().start_ms},
            {"champion", std::move(champion)}};
}

std::string_view bot_kind(const std::string& player) { return std::string_view(player).substr(4); }
bool is_bot_player(const std::string& player) { return player.rfind("bot:", 0) == 0; }
}  // namespace

void Hall::change_tournament(const std::string& tid, TournamentOp op, TournamentDone done) {
    auto it = tournaments_.find(tid);
    it->second.busy = true;
    auto copy = std::make_shared<Tournament>(it->second.t);
    auto refused = std::make_shared<std::optional<std::string>>();
    on_writer(
        "tournament",
        [copy, refused, op = std::move(op), tid](Storage& s) {
            *refused = op(s, *copy);
            if (!*refused) s.save_tournament(tid, copy->to_json());
        },
        [this, tid, copy, refused, done = std::move(done)](const std::optional<StorageError>& e) {
            auto at = tournaments_.find(tid);
            if (!e && !*refused) {
                at->second.t = std::move(*copy);
                index_tournament(at->second.t);
            }
            at->second.busy = false;
            if (done) done(*refused, e);
            // Requests that waited for the tournament, in order.
            while (!at->second.busy && !at->second.parked.empty()) {
                auto [conn, request] = std::move(at->second.parked.front());
                at->second.parked.pop_front();
                release(conn);
                handle(conn, std::move(request));
            }
        });
}

void Hall::on_tournament_create(ConnId conn, Conn& c, const TournamentCreateRequest& tc, const json& id) {
    const std::string name = c.name;
    // A tournament lives in one hall's memory; a cluster's nodes would each run it.
    if (clustered_ && !cluster_.tournaments)
        return error(conn, id, "tournament_unavailable", "tournaments are not available on a server cluster yet");
    const auto& settings = tc.settings;
    if (!settings) return error(conn, id, "bad_settings", "see docs/protocol.md \"tournament_create\"");
    int live = 0, mine = 0, from_address = 0;
    for (const auto& [tid, e] : tournaments_)
        if (e.t.state() != TournamentState::finished && e.t.state() != TournamentState::cancelled) {
            ++live;
            mine += e.t.organiser() == name;
            from_address += !e.organiser_address.empty() && e.organiser_address == c.address;
        }
    if (live >= kMaxLiveTournaments || mine >= kMaxToursPerOrganiser || from_address >= kMaxToursPerAddress)
        return error(conn, id, "too_many_tournaments", std::string(tournament_error_text("too_many_tournaments")));
    auto made = std::make_shared<std::optional<Tournament>>();
    hold(conn);
    on_writer(
        "tournament_create",
        [made, name, settings = *settings](Storage& s) {
            s.create_tournament([&](const std::string& tid) {
                made->emplace(tid, name, settings);
                return (*made)->to_json();
            });
        },
        [this, conn, id, made, address = c.address](const std::optional<StorageError>& e) {
            release(conn);
            if (e) return storage_error(conn, id, *e);
            const std::string tid = (*made)->id();
            tournaments_.emplace(tid, TournamentEntry{std::move(**made), false, {}, address});
            reply(conn, id, {{"type", "tournament_created"}, {"tournament", tid}});
        });
}

void Hall::on_tournament(ConnId conn, Conn& c, const TournamentRequest& tr, const ClientRequest& r) {
    using Kind = TournamentRequest::Kind;
    const json& id = r.id;
    const std::string name = c.name;
    const std::string& tid = tr.tournament;
    auto it = tournaments_.find(tid);
    if (it == tournaments_.end()) return error(conn, id, "no_such_tournament", std::string(tournament_error_text("no_such_tournament")));
    TournamentEntry& entry = it->second;
    if (entry.busy) {
        hold(conn);
        entry.parked.emplace_back(conn, r);
        return;
    }
    const bool organiser = entry.t.organiser() == name;
    TournamentOp op;
    if (tr.kind == Kind::enter || tr.kind == Kind::accept) {
        std::array<std::string, 2> players;
        if (tr.kind == Kind::accept) {
            players[0] = name;
        } else if (tr.bad_team) {
            return error(conn, id, "bad_team", "players must be two names");
        } else if (tr.players) {
            players = *tr.players;
        } else {
            players[0] = name;
            players[1] = tr.other.value_or("");
        }
        // Each name as a guest name is checked (names.hpp); a bot is "bot:KIND" of a known kind.
        std::array<bool, 2> accepted{};
        std::vector<std::string> keys;  // the people's name keys: sign-in's identity
        for (std::size_t i = 0; i < 2; ++i) {
            auto& p = players[i];
            if (p.empty()) continue;
            if (is_bot_player(p)) {
                if (p.size() > 40 || !bots_(bot_kind(p), 1)) return error(conn, id, "unknown_bot");
                continue;
            }
            const NameResult checked = normalize_name(p, {});
            if (!checked.name) return error(conn, id, "bad_name", std::string(describe(checked.problem)));
            p = checked.name->text;
            accepted[i] = checked.name->key == name_key(name);
            if (accepted[i]) p = name;
            keys.push_back(checked.name->key);
        }
        if (tr.kind == Kind::enter && !organiser && !accepted[0] && !accepted[1])
            return error(conn, id, "not_organiser", "only the organiser enters other players");
        // A person is in one tournament at a time until it is over for them (issue 27: two
        // first-round tables at once forfeited one of them).
        if (const auto busy = in_other_tournament(tid, keys))
            return error(conn, id, "in_another_tournament", std::string(tournament_error_text("in_another_tournament")) + ": " + *busy);
        for (const auto& k : keys) entering_.emplace(k, tid);
        const bool accepting = tr.kind == Kind::accept;
        op = [players, accepted, accepting](Storage& s, Tournament& t) mutable -> std::optional<std::string> {
            // Every person named is a player the server knows, under the name it signs in with
            // (`omar` and `Lay1a` are `Omar` and `Layla`, as sign-in has them).
            for (std::size_t i = 0; i < 2; ++i) {
                if (players[i].empty() || is_bot_player(players[i]) || accepted[i]) continue;
                const auto known = s.credentials(players[i]);
                if (!known) return "no_such_player";
                players[i] = known->name;
            }
            const std::string me = players[0];
            if (accepting) {
                const auto invite = t.invitation_for(me);
                if (!invite) return "not_invited";
                players = *invite;
            }
            // The team's rating: its players' mean, a bot counting kBotRating (rating.hpp).
            std::array<double, 2> ratings{};
            std::size_t n = 0;
            for (const auto& p : players)
                if (!p.empty()) ratings[n++] = is_bot_player(p) ? kBotRating : s.rating(p);
            const double rating = mean_rating(std::span<const double>(ratings.data(), n));
            return accepting ? t.accept(me, rating) : t.enter(players, accepted, rating);
        };
    } else if (tr.kind == Kind::withdraw) {
        std::string player = name;
        if (tr.other) {
            if (!organiser && *tr.other != name)
                return error(conn, id, "not_organiser", std::string(tournament_error_text("not_organiser")));
            player = *tr.other;
        }
        op = [player](Storage&, Tournament& t) { return t.withdraw(player); };
    } else {
        if (!organiser) return error(conn, id, "not_organiser", std::string(tournament_error_text("not_organiser")));
        if (tr.kind == Kind::open) op = [](Storage&, Tournament& t) { return t.set_registration(true); };
        else if (tr.kind == Kind::close) op = [](Storage&, Tournament& t) { return t.set_registration(false); };
        else if (tr.kind == Kind::start) op = [](Storage&, Tournament& t) { return t.start(); };
        else op = [](Storage&, Tournament& t) { return t.cancel(); };  // tournament_cancel
    }
    hold(conn);
    change_tournament(tid, std::move(op), [this, conn, id, tid](const std::optional<std::string>& refused, const std::optional<StorageError>& e) {
        release(conn);
        std::erase_if(entering_, [&](const auto& k) { return k.second == tid; });
        if (e) return storage_error(conn, id, *e);
        if (refused) return error(conn, id, *refused, std::string(tournament_error_text(*refused)));
        reply(conn, id, ok_json());
    });
}

std::optional<std::string> Hall::in_other_tournament(const std::string& tid, const std::vector<std::string>& keys) {
    if (keys.empty()) return std::nullopt;
    if (name_keys_.size() > 16'384) name_keys_.clear();  // a memo, bounded
    const auto key_of = [this](const std::string& player) -> const std::string& {
        auto [it, fresh] = name_keys_.try_emplace(player);
        if (fresh) it->second = name_key(player);
        return it->second;
    };
    const auto wanted = [&](const std::string& key) { return std::find(keys.begin(), keys.end(), key) != keys.end(); };
    for (const auto& [key, other] : entering_)
        if (other != tid && wanted(key)) return other;
    for (const auto& [other, e] : tournaments_) {
        if (other == tid || e.t.state() == TournamentState::finished || e.t.state() == TournamentState::cancelled) continue;
        std::vector<std::string> people;
        for (const auto& team : e.t.teams()) people.insert(people.end(), team.players.begin(), team.players.end());
        for (const auto& single : e.t.singles()) people.push_back(single.first);
        for (const auto& inv : e.t.invites()) people.insert(people.end(), inv.players.begin(), inv.players.end());
        for (const auto& p : people)
            if (!is_bot_player(p) && wanted(key_of(p)) && e.t.plays_on(p)) return other;
    }
    return std::nullopt;
}

void Hall::index_tournament(const Tournament& t) {
    // A match keeps its table once opened (a reopened match gets a new one; the old one stays
    // marked as a tournament's, so nobody starts a match there).
    const auto& ms = t.matches();
    for (std::size_t m = 0; m < ms.size(); ++m)
        if (!ms[m].table.empty()) tournament_tables_[ms[m].table] = {t.id(), static_cast<int>(m)};
}

std::optional<std::pair<std::string, int>> Hall::tournament_match(const std::string& table) const {
    auto it = tournament_tables_.find(table);
    if (it == tournament_tables_.end()) return std::nullopt;
    return it->second;
}

bool Hall::tournament_holds(const std::string& table) const {
    const auto at = tournament_match(table);
    if (!at) return false;
    const Tournament& t = tournaments_.at(at->first).t;
    const TournamentMatch& m = t.matches()[static_cast<std::size_t>(at->second)];
    return t.state() == TournamentState::running && m.state == TournamentMatch::State::playing && m.table == table;
}

std::optional<std::string> Hall::tournament_refuses(const std::string& table, std::string_view type, std::optional<int> seat,
                                                    const std::string& name) const {
    const auto at = tournament_match(table);
    if (!at) return std::nullopt;
    // The tournament seats its bots and starts the match itself.
    if (type != "join") return std::string("tournament_table");
    if (!seat || !tournament_holds(table)) return std::nullopt;  // anyone may watch
    const Tournament& t = tournaments_.at(at->first).t;
    if (reserved_player(t, t.matches()[static_cast<std::size_t>(at->second)], tarneeb::seat(*seat)) != name)
        return std::string("seat_reserved");
    return std::nullopt;
}

void Hall::run_tournaments(Millis now) {
    for (auto& [tid, entry] : tournaments_) {
        if (entry.busy || entry.t.state() != TournamentState::running) continue;
        Tournament& t = entry.t;
        bool changing = false;
        // Matches at their tables.
        // One change of the tournament's state a tick (the others wait for the next); every table
        // moves on meanwhile.
        for (std::size_t mi = 0; mi < t.matches().size(); ++mi) {
            const TournamentMatch& m = t.matches()[mi];
            if (m.state != TournamentMatch::State::playing) continue;
            const int match = static_cast<int>(mi);
            const Table* at = host_->table(m.table);
            if (!at) {
                // Its table could not be resumed (unreadable settings): the match is played again.
                if (std::exchange(changing, true)) continue;
                change_tournament(tid, [=](Storage&, Tournament& x) -> std::optional<std::string> { x.reopen(match); return std::nullopt; }, nullptr);
                continue;
            }
            if (host_->busy(m.table)) continue;
            const Table& table = *at;
            if (table.state() == TableState::finished) {
                // The result, until the tournament's state with it is written.
                if (std::exchange(changing, true)) continue;
                const Match& played = table.match();
                const int winner = played.winner() ? index(*played.winner()) : -1;
                const std::string record = table.id() + "-" + std::to_string(table.match_number());
                change_tournament(
                    tid, [=, scores = played.totals(), tiebreak = played.tiebreak()](Storage&, Tournament& x) -> std::optional<std::string> {
                        if (!x.finished(match, winner, scores, tiebreak, record)) return "already_counted";
                        return std::nullopt;
                    },
                    nullptr);
                continue;
            }
            if (table.state() == TableState::playing) {
                t.started(match);  // in memory: a playing table is never forfeited
                continue;
            }
            // Waiting for its players: the teams' bots sit at once, one a tick.
            std::optional<Seat> empty;
            bool bot_seated = false;
            for (Seat s : kSeats) {
                if (table.seat_info(s).kind != SeatInfo::Kind::empty) continue;
                const std::string who = reserved_player(t, m, s);
                if (is_bot_player(who)) {
                    auto change = table.prepare_add_bot(s, std::string(bot_kind(who)), next_seed());
                    host_->apply(m.table, std::move(change));
                    bot_seated = true;
                    break;
                }
                if (!empty) empty = s;
            }
            if (bot_seated) continue;
            if (!empty) {
                auto change = table.prepare_start(next_seed(), next_seed());
                host_->apply(m.table, std::move(change));
                continue;
            }
            if (now < m.seats_by_ms) continue;
            if (t.settings().no_show == NoShow::bots) {
                // The organiser's choice: bots take the seats nobody took.
                auto change = table.prepare_add_bot(*empty, config_.default_bot, next_seed());
                host_->apply(m.table, std::move(change));
                continue;
            }
            if (std::exchange(changing, true)) continue;
            std::array<bool, 2> absent{};
            for (Seat s : kSeats)
                if (table.seat_info(s).kind == SeatInfo::Kind::empty) absent[static_cast<std::size_t>(index(s) % 2)] = true;
            change_tournament(
                tid, [=](Storage&, Tournament& x) -> std::optional<std::string> {
                    if (!x.forfeit(match, absent)) return "already_counted";
                    return std::nullopt;
                },
                nullptr);
        }
        if (changing) continue;
        // Ready matches: a table each (its settings stored, then the tournament's state).
        const auto ready = t.ready();
        if (ready.empty()) continue;
        if (static_cast<int>(host_->tables().size()) + static_cast<int>(ready.size()) > config_.max_tables) continue;
        const TableSettings settings = match_settings(t);
        auto opened = std::make_shared<std::vector<std::string>>();
        change_tournament(
            tid,
            [ready, settings, opened, now](Storage& s, Tournament& x) -> std::optional<std::string> {
                for (int m : ready) {
                    opened->push_back(s.create_table(settings_json(settings)));
                    x.opened(m, opened->back(), now);
                }
                return std::nullopt;
            },
            [this, settings, opened](const std::optional<std::string>&, const std::optional<StorageError>& e) {
                if (e) return;  // tried again at the next tick (a stored table without a match is closed at the next start)
                for (const auto& id : *opened) host_->open(id, settings);
            });
    }
}

void Hall::resume_tournaments() {
    for (const auto& j : storage_.tournaments())
        if (auto t = Tournament::from_json(j)) {
            const std::string id = t->id();
            index_tournament(*t);
            tournaments_.emplace(id, TournamentEntry{std::move(*t), false, {}, {}});
        }
}

HttpReply Hall::tournament_http(std::string_view path) const {
    constexpr std::string_view kList = "/api/tournaments";
    if (path == kList || path == "/api/tournaments/") {
        // Newest first ("T12" after "T9": by number), at most 100.
        std::vector<const Tournament*> all;
        for (const auto& [tid, e] : tournaments_) all.push_back(&e.t);
        const auto number = [](const Tournament* t) { return std::stoll(t->id().substr(1)); };
        std::sort(all.begin(), all.end(), [&](const Tournament* a, const Tournament* b) { return number(a) > number(b); });
        json list = json::array();
        for (std::size_t i = 0; i < all.size() && i < 100; ++i) list.push_back(summary(*all[i]));
        return HttpReply{200, "application/json", json{{"tournaments", std::move(list)}}.dump()};
    }
    const auto id = path.substr(kList.size() + 1);
    auto it = tournaments_.find(std::string(id));
    if (it == tournaments_.end()) return HttpReply{404, "application/json", R"({"error":"no_such_tournament"})"};
    json body = it->second.t.to_json();
    // A match being played shows its score so far ("live": [side 0, side 1]).
    const auto& ms = it->second.t.matches();
    for (std::size_t m = 0; m < ms.size(); ++m) {
        if (ms[m].state != TournamentMatch::State::playing) continue;
        const Table* table = host_->table(ms[m].table);
        if (table && table->state() == TableState::playing) body["matches"][m]["live"] = table->match().totals();
    }
    return HttpReply{200, "application/json", body.dump()};
}

}  // namespace tarneeb::server
