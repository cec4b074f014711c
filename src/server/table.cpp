#include "tarneeb/server/table.hpp"

#include <algorithm>

#include "tarneeb/core/random.hpp"
#include "tarneeb/records/record.hpp"

namespace tarneeb::server {

using nlohmann::json;

Rules TableSettings::rules() const {
    Rules r = rules_for(preset);
    r.target = target;
    return r;
}

json TableSettings::to_json() const {
    return {{"preset", std::string(to_string(preset))}, {"target", target}, {"turn_seconds", turn_seconds},
            {"private", is_private}, {"code_hash", code_hash}};
}

std::optional<TableSettings> TableSettings::from_json(const json& j) {
    if (!j.is_object()) return std::nullopt;
    TableSettings s;
    if (auto it = j.find("preset"); it != j.end() && !it->is_null()) {
        if (!it->is_string()) return std::nullopt;
        const auto p = parse_preset(it->get_ref<const std::string&>());
        if (!p) return std::nullopt;
        s.preset = *p;
    }
    auto get_int = [&](const char* key, int& out, int lo, int hi) {
        auto it = j.find(key);
        if (it == j.end() || it->is_null()) return true;
        if (!it->is_number_integer()) return false;
        const auto v = it->get<std::int64_t>();
        if (v < lo || v > hi) return false;
        out = static_cast<int>(v);
        return true;
    };
    if (!get_int("target", s.target, 1, 500) || !get_int("turn_seconds", s.turn_seconds, 0, 600)) return std::nullopt;
    if (auto it = j.find("private"); it != j.end() && !it->is_null()) {
        if (!it->is_boolean()) return std::nullopt;
        s.is_private = it->get<bool>();
    }
    if (auto it = j.find("code_hash"); it != j.end() && it->is_string()) s.code_hash = it->get<std::string>();
    if (auto it = j.find("code"); it != j.end() && it->is_string()) s.code = it->get<std::string>();  // older databases
    return s;
}

std::string_view to_string(TableState s) {
    switch (s) {
        case TableState::waiting: return "waiting";
        case TableState::playing: return "playing";
        case TableState::finished: return "finished";
    }
    return "?";
}

namespace {
std::string err(ProtocolError e) { return std::string(to_string(e)); }
std::string err(ErrorCode e) { return std::string(to_string(e)); }
}  // namespace

Table::Table(std::string id, TableSettings settings, TableTiming timing, BotFactory bots)
    : id_(std::move(id)), settings_(std::move(settings)), timing_(std::move(timing)), make_bot_(std::move(bots)),
      match_(settings_.rules(), Seat::s0) {}

std::optional<Seat> Table::seat_of(const std::string& name) const {
    for (Seat s : kSeats) {
        const auto& h = seats_[static_cast<std::size_t>(index(s))];
        if (h.kind == SeatHolder::Kind::human && h.name == name) return s;
    }
    return std::nullopt;
}

bool Table::no_humans() const {
    return std::none_of(seats_.begin(), seats_.end(), [](const SeatHolder& h) { return h.kind == SeatHolder::Kind::human; });
}

bool Table::humans_connected() const {
    return std::any_of(seats_.begin(), seats_.end(),
                       [](const SeatHolder& h) { return h.kind == SeatHolder::Kind::human && h.connected; });
}

bool Table::bot_controlled(Seat s) const {
    const auto& h = seats_[static_cast<std::size_t>(index(s))];
    return h.kind == SeatHolder::Kind::bot || (h.kind == SeatHolder::Kind::human && h.standin);
}

namespace {
Change one(json entry) {
    Change c;
    c.entries.push_back(std::move(entry));
    return c;
}
}  // namespace

// ---- changes: prepare ---------------------------------------------------------------------

Change Table::prepare_sit(Seat seat, const std::string& name) const {
    if (state_ == TableState::playing) return Change::refused(err(ProtocolError::table_playing));
    if (seats_[static_cast<std::size_t>(index(seat))].kind != SeatHolder::Kind::empty)
        return Change::refused(err(ProtocolError::seat_taken));
    return one({{"op", "sit"}, {"seat", index(seat)}, {"name", name}});
}

Change Table::prepare_leave(const std::string& name) const {
    const auto seat = seat_of(name);
    if (!seat) return Change::refused(err(ProtocolError::not_seated));
    return one({{"op", "leave"}, {"seat", index(*seat)}});
}

Change Table::prepare_add_bot(Seat seat, const std::string& bot, std::uint64_t seed) const {
    if (state_ == TableState::playing) return Change::refused(err(ProtocolError::table_playing));
    if (seats_[static_cast<std::size_t>(index(seat))].kind != SeatHolder::Kind::empty)
        return Change::refused(err(ProtocolError::seat_taken));
    if (!make_bot_ || !make_bot_(bot, seed)) return Change::refused(err(ProtocolError::unknown_bot));
    return one({{"op", "bot"}, {"seat", index(seat)}, {"bot", bot}, {"seed", seed}});
}

Change Table::prepare_remove_bot(Seat seat) const {
    if (state_ == TableState::playing) return Change::refused(err(ProtocolError::table_playing));
    if (seats_[static_cast<std::size_t>(index(seat))].kind != SeatHolder::Kind::bot)
        return Change::refused(err(ProtocolError::bad_seat));
    return one({{"op", "unbot"}, {"seat", index(seat)}});
}

Change Table::prepare_start(std::uint64_t seed, std::uint64_t deal_seed) const {
    if (state_ == TableState::playing) return Change::refused(err(ProtocolError::table_playing));
    for (const auto& h : seats_)
        if (h.kind == SeatHolder::Kind::empty) return Change::refused(err(ProtocolError::not_enough_players));
    // Compaction: the journal of a new match is its seats and its start. The start carries the
    // version, which the seats' entries alone would not reach again.
    Change c;
    c.rewrite = true;
    for (Seat s : kSeats) {
        const auto& h = seats_[static_cast<std::size_t>(index(s))];
        if (h.kind == SeatHolder::Kind::human)
            c.entries.push_back({{"op", "sit"}, {"seat", index(s)}, {"name", h.name}});
        else
            c.entries.push_back({{"op", "bot"}, {"seat", index(s)}, {"bot", h.name}, {"seed", h.bot_seed}});
    }
    c.entries.push_back({{"op", "start"}, {"seed", seed}, {"match", match_number_ + 1}, {"version", version_ + 1},
                         {"deal", deal_seed}});
    return c;
}

Change Table::prepare_act(Seat seat, Action action, std::uint64_t version, std::uint64_t deal_seed) const {
    if (version != version_) return Change::refused(err(ProtocolError::stale));
    if (state_ != TableState::playing) return Change::refused(err(match_.over() ? ErrorCode::match_over : ErrorCode::no_deal));
    if (match_.awaiting_deal() || !match_.has_round()) return Change::refused(err(ErrorCode::no_deal));
    const Round& round = match_.round();
    if (round.over()) return Change::refused(err(ErrorCode::deal_over));
    if (round.to_act() != seat) return Change::refused(err(ErrorCode::out_of_turn));
    if (const ErrorCode e = round.check(action); e != ErrorCode::ok) return Change::refused(err(e));
    return act_change(seat, action, false, [deal_seed] { return deal_seed; });
}

Change Table::act_change(Seat seat, Action a, bool timeout, const std::function<std::uint64_t()>& deal_seed) const {
    json entry{{"op", "act"}, {"seat", index(seat)}, {"a", action_text(a)}};
    // The next deal's seed goes with the action that ends a round (drawn per deal, never sent).
    Round after = match_.round();
    if (after.apply(seat, a) == ErrorCode::ok && after.over()) entry["deal"] = deal_seed();
    if (timeout) entry["timeout"] = true;
    return one(std::move(entry));
}

std::optional<Change> Table::prepare_due(Millis now, const std::function<std::uint64_t()>& deal_seed) const {
    if (state_ != TableState::playing || !match_.has_round() || match_.round().over()) return std::nullopt;
    const Seat s = match_.round().to_act();
    if (bot_due_ && now >= *bot_due_ && bot_controlled(s) && bot_decision_) {
        Action a = *bot_decision_;
        if (match_.round().check(a) != ErrorCode::ok) a = match_.round().default_action();
        return act_change(s, a, false, deal_seed);
    }
    if (turn_deadline_ && now >= *turn_deadline_ && !bot_controlled(s))
        return act_change(s, match_.round().default_action(), true, deal_seed);
    return std::nullopt;
}

// ---- changes: commit ----------------------------------------------------------------------

void Table::commit(const json& entry, Millis now) {
    apply_entry(entry, now);
    // A player who sits down is there.
    if (entry.value("op", "") == "sit") seats_[static_cast<std::size_t>(entry.value("seat", 0) & 3)].connected = true;
    schedule(now);
}

bool Table::replay(const json& entry, Millis now) {
    const bool ok = apply_entry(entry, now);
    events_.clear();
    schedule(now);
    return ok;
}

bool Table::apply_entry(const json& e, Millis now) {
    try {
        const std::string op = e.at("op").get<std::string>();
        const auto seat_at = [&] { return tarneeb::seat(e.at("seat").get<int>() & 3); };
        const auto deal = [&]() -> std::optional<std::uint64_t> {
            if (auto it = e.find("deal"); it != e.end() && it->is_number_unsigned()) return it->get<std::uint64_t>();
            return std::nullopt;
        };
        if (op == "sit") {
            do_sit(seat_at(), e.at("name").get<std::string>());
            return true;
        }
        if (op == "leave") {
            const Seat s = seat_at();
            if (seats_[static_cast<std::size_t>(index(s))].kind != SeatHolder::Kind::human) return false;
            do_leave(s);
            return true;
        }
        if (op == "bot") return do_add_bot(seat_at(), e.at("bot").get<std::string>(), e.at("seed").get<std::uint64_t>());
        if (op == "unbot") {
            auto& h = seats_[static_cast<std::size_t>(index(seat_at()))];
            const std::string name = h.name;
            h = SeatHolder{};
            ++version_;
            events_.push_back({{"event", "left"}, {"seat", index(seat_at())}, {"name", name}});
            return true;
        }
        if (op == "start") {
            match_number_ = e.value("match", match_number_ + 1) - 1;
            std::optional<std::uint64_t> version;
            if (auto it = e.find("version"); it != e.end() && it->is_number_unsigned()) version = it->get<std::uint64_t>();
            do_start(e.at("seed").get<std::uint64_t>(), deal(), version);
            return true;
        }
        if (op == "act") {
            const auto a = parse_action_text(e.at("a").get<std::string>());
            const Seat s = seat_at();
            if (!a || state_ != TableState::playing || !match_.has_round() || match_.round().over() ||
                match_.round().to_act() != s || match_.round().check(*a) != ErrorCode::ok)
                return false;
            apply_action(s, *a, e.value("timeout", false), deal(), now);
            return true;
        }
    } catch (const std::exception&) {
    }
    return false;
}

void Table::do_sit(Seat seat, const std::string& name) {
    if (auto old = seat_of(name)) {
        seats_[static_cast<std::size_t>(index(*old))] = SeatHolder{};
        events_.push_back({{"event", "left"}, {"seat", index(*old)}, {"name", name}});
    }
    auto& h = seats_[static_cast<std::size_t>(index(seat))];
    h = SeatHolder{};
    h.kind = SeatHolder::Kind::human;
    h.name = name;
    h.connected = false;
    ++version_;
    events_.push_back({{"event", "seated"}, {"seat", index(seat)}, {"name", name}, {"bot", false}});
}

void Table::do_leave(Seat seat) {
    auto& h = seats_[static_cast<std::size_t>(index(seat))];
    const std::string name = h.name;
    if (state_ == TableState::playing) {
        // The match goes on: a bot takes the seat for good, but the seat's result stays with
        // the player who left (no dodging the rating by leaving; docs/protocol.md "Ratings").
        std::string player = h.kind == SeatHolder::Kind::human ? name : h.left_mid_match;
        auto seed = derive_seed(match_seed_, 100 + static_cast<std::uint64_t>(index(seat)));
        std::shared_ptr<bots::Bot> bot = h.bot ? std::move(h.bot) : std::shared_ptr<bots::Bot>(make_bot_(timing_.standin_bot, seed));
        h = SeatHolder{};
        h.kind = SeatHolder::Kind::bot;
        h.name = timing_.standin_bot;
        h.bot = std::move(bot);
        h.bot_seed = seed;
        h.left_mid_match = std::move(player);
    } else {
        h = SeatHolder{};
    }
    ++version_;
    events_.push_back({{"event", "left"}, {"seat", index(seat)}, {"name", name}});
    if (h.kind == SeatHolder::Kind::bot)
        events_.push_back({{"event", "bot_took_over"}, {"seat", index(seat)}});
}

bool Table::do_add_bot(Seat seat, const std::string& bot, std::uint64_t seed) {
    std::shared_ptr<bots::Bot> made = make_bot_ ? make_bot_(bot, seed) : nullptr;
    if (!made) return false;
    auto& h = seats_[static_cast<std::size_t>(index(seat))];
    h = SeatHolder{};
    h.kind = SeatHolder::Kind::bot;
    h.name = bot;
    h.bot = std::move(made);
    h.bot_seed = seed;
    ++version_;
    events_.push_back({{"event", "seated"}, {"seat", index(seat)}, {"name", bot}, {"bot", true}});
    return true;
}

void Table::do_start(std::uint64_t seed, std::optional<std::uint64_t> deal_seed, std::optional<std::uint64_t> version) {
    ++match_number_;
    match_seed_ = seed;
    match_ = Match(settings_.rules(), seat(static_cast<int>(seed % 4)));
    state_ = TableState::playing;
    version_ = std::max(version_ + 1, version.value_or(0));
    events_.push_back({{"event", "match_started"}, {"match", match_number_}});
    deal_if_needed(deal_seed);
}

void Table::apply_action(Seat seat, Action a, bool timeout, std::optional<std::uint64_t> deal_seed, Millis now) {
    const int trick_before = match_.round().tricks_played();
    const int round_index = static_cast<int>(match_.rounds().size()) - 1;
    const ErrorCode e = match_.apply(seat, a);
    if (e != ErrorCode::ok) return;  // checked by every caller; unreachable
    ++version_;
    ++actions_applied_;
    const Round& round = match_.rounds()[static_cast<std::size_t>(round_index)];
    switch (a.kind) {
        case ActionKind::call:
            events_.push_back({{"event", "call"}, {"seat", index(seat)},
                               {"call", a.is_pass() ? json("pass") : json(a.bid_value())}, {"timeout", timeout}});
            break;
        case ActionKind::trump:
            events_.push_back({{"event", "trump"}, {"seat", index(seat)}, {"trump", suit_text(a.suit())}, {"timeout", timeout}});
            break;
        case ActionKind::play:
            events_.push_back({{"event", "card"}, {"seat", index(seat)}, {"card", to_string(a.card())}, {"timeout", timeout}});
            if (round.tricks_played() > trick_before) {
                // The trick's winner leads the next one (the engine records the 13th too).
                const Seat w = round.leader_of_trick(round.tricks_played());
                events_.push_back({{"event", "trick_won"}, {"seat", index(w)}, {"trick", round.tricks_played()},
                                   {"tricks", {round.tricks(Team::t0), round.tricks(Team::t1)}}});
            }
            break;
    }
    // Bots observe every action, with their view after it. No bot of this table is thinking:
    // the seat that acted was the one to act, and a bot thinks only on its own turn.
    for (Seat s : kSeats) {
        auto& h = seats_[static_cast<std::size_t>(index(s))];
        if (h.bot) h.bot->observe(SeatView(round, s, match_.totals()), seat, a);
    }
    if (round.phase() == Phase::scored) {
        events_.push_back({{"event", "round_scored"}, {"contract", {{"seat", index(round.contract()->declarer)}, {"bid", round.contract()->bid}}},
                           {"made", round.made()}, {"tricks", {round.tricks(Team::t0), round.tricks(Team::t1)}},
                           {"points", {round.points(Team::t0), round.points(Team::t1)}},
                           {"scores", {match_.total(Team::t0), match_.total(Team::t1)}}});
    } else if (round.phase() == Phase::passed_out) {
        events_.push_back({{"event", "passed_out"}, {"number", round_index + 1}});
    }
    if (match_.over()) {
        finish_match();
    } else {
        deal_if_needed(deal_seed);
    }
    schedule(now);
}

void Table::deal_if_needed(std::optional<std::uint64_t> deal_seed) {
    if (state_ != TableState::playing || !match_.awaiting_deal()) return;
    // Online each deal has its own seed from the OS CSPRNG (in the entry); journals written
    // before that deal every round from the match seed.
    const ErrorCode e = deal_seed ? match_.start_round(deal_from_seed(*deal_seed, match_.next_dealer()))
                                  : deal_next_from_seed(match_, match_seed_);
    if (e != ErrorCode::ok) return;
    events_.push_back({{"event", "deal"}, {"number", static_cast<int>(match_.rounds().size())},
                       {"dealer", index(match_.round().dealer())}});
}

void Table::finish_match() {
    state_ = TableState::finished;
    turn_deadline_.reset();
    bot_due_.reset();
    FinishedMatch f;
    f.id = id_ + "-" + std::to_string(match_number_);
    for (std::size_t s = 0; s < 4; ++s) {
        // A seat's result belongs to whoever sat there when the match started.
        const bool left = !seats_[s].left_mid_match.empty();
        f.names[s] = left ? seats_[s].left_mid_match : seats_[s].name;
        f.bots[s] = !left && seats_[s].kind != SeatHolder::Kind::human;
        seats_[s].left_mid_match.clear();  // the next match's seat is the bot's
    }
    f.record = records::record_json(match_);
    f.record["players"] = f.names;
    f.record["id"] = f.id;
    f.status = std::string(to_string(match_.status()));
    f.winner = match_.winner() ? index(*match_.winner()) : -1;
    f.scores = match_.totals();
    events_.push_back({{"event", "match_over"}, {"status", f.status},
                       {"winner", f.winner < 0 ? json(nullptr) : json(f.winner)},
                       {"scores", {f.scores[0], f.scores[1]}}, {"record", f.id}});
    finished_ = std::move(f);
}

// ---- bots and time ------------------------------------------------------------------------

Table::TurnKey Table::turn_key() const {
    return {match_number_, match_.rounds().size(), actions_applied_};
}

void Table::schedule(Millis now) {
    turn_deadline_.reset();
    bot_due_.reset();
    if (turn_key() != offered_key_) drop_decision();  // a new turn: an earlier decision is void
    if (state_ != TableState::playing || !match_.has_round() || match_.round().over()) return;
    const Seat s = match_.round().to_act();
    if (bot_controlled(s)) {
        bot_due_ = now + timing_.bot_delay_ms;
    } else if (settings_.turn_seconds > 0) {
        turn_deadline_ = now + Millis{settings_.turn_seconds} * 1000;
    }
}

void Table::drop_decision() {
    offered_ = 0;
    bot_decision_.reset();
}

std::optional<BotTurn> Table::bot_turn() {
    // One bot of a table thinks at a time (a bot is never used by two threads), once per turn.
    if (!bot_due_ || offered_ != 0 || thinking_ != 0 || state_ != TableState::playing || !match_.has_round() ||
        match_.round().over())
        return std::nullopt;
    const Seat s = match_.round().to_act();
    auto& h = seats_[static_cast<std::size_t>(index(s))];
    if (!bot_controlled(s)) return std::nullopt;
    offered_ = ++requests_made_;
    offered_key_ = turn_key();
    if (!h.bot) {
        // No bot could be made (unknown stand-in name): the rules' default action.
        bot_decision_ = match_.round().default_action();
        return std::nullopt;
    }
    thinking_ = offered_;
    return BotTurn{offered_, s, SeatView::of(match_, s), h.bot};
}

void Table::decided(std::uint64_t request, Action action) {
    if (request == 0) return;
    if (request == thinking_) thinking_ = 0;
    if (request == offered_ && offered_key_ == turn_key()) bot_decision_ = action;
}

void Table::connected(const std::string& name, Millis now) {
    const auto seat = seat_of(name);
    if (!seat) return;
    auto& h = seats_[static_cast<std::size_t>(index(*seat))];
    const bool was_away = !h.connected;
    h.connected = true;
    h.disconnected_since.reset();
    if (h.standin) {
        // Reclaim: the player makes the seat's next decision.
        h.standin = false;
        h.bot.reset();
        if (state_ == TableState::playing && match_.has_round() && !match_.round().over() && match_.round().to_act() == *seat)
            drop_decision();  // the stand-in's decision, if it comes, is the player's no more
        events_.push_back({{"event", "reclaimed"}, {"seat", index(*seat)}});
        if (state_ == TableState::playing && match_.has_round() && !match_.round().over() && match_.round().to_act() == *seat)
            schedule(now);
    } else if (was_away && state_ == TableState::playing) {
        events_.push_back({{"event", "reclaimed"}, {"seat", index(*seat)}});
    }
}

void Table::disconnected(const std::string& name, Millis now) {
    const auto seat = seat_of(name);
    if (!seat) return;
    auto& h = seats_[static_cast<std::size_t>(index(*seat))];
    h.connected = false;
    if (state_ == TableState::playing && !h.standin) {
        h.disconnected_since = now;
        events_.push_back({{"event", "disconnected"}, {"seat", index(*seat)}});
    }
}

std::optional<Millis> Table::next_wakeup() const {
    std::optional<Millis> t = turn_deadline_;
    if (bot_due_ && (!t || *bot_due_ < *t)) t = bot_due_;
    if (state_ == TableState::playing)
        for (const auto& h : seats_)
            if (h.kind == SeatHolder::Kind::human && !h.standin && h.disconnected_since) {
                const Millis g = *h.disconnected_since + timing_.grace_ms;
                if (!t || g < *t) t = g;
            }
    return t;
}

void Table::tick(Millis now) {
    if (state_ != TableState::playing) return;
    for (Seat s : kSeats) {
        auto& h = seats_[static_cast<std::size_t>(index(s))];
        if (h.kind == SeatHolder::Kind::human && !h.standin && h.disconnected_since &&
            now >= *h.disconnected_since + timing_.grace_ms) {
            h.standin = true;
            h.disconnected_since.reset();
            h.bot = make_bot_ ? std::shared_ptr<bots::Bot>(make_bot_(timing_.standin_bot, derive_seed(match_seed_, 200 + static_cast<std::uint64_t>(index(s)))))
                              : nullptr;
            events_.push_back({{"event", "bot_took_over"}, {"seat", index(s)}});
            if (match_.has_round() && !match_.round().over() && match_.round().to_act() == s) schedule(now);
        }
    }
}

// ---- messages ---------------------------------------------------------------------------

json Table::seat_json(Seat s) const {
    const auto& h = seats_[static_cast<std::size_t>(index(s))];
    if (h.kind == SeatHolder::Kind::empty) return nullptr;
    json j{{"name", h.name}, {"bot", h.kind == SeatHolder::Kind::bot}, {"connected", h.kind == SeatHolder::Kind::bot || h.connected}};
    if (h.standin) j["standin"] = true;
    return j;
}

json Table::summary_json(int spectators) const {
    json seats = json::array();
    for (Seat s : kSeats) seats.push_back(seat_json(s));
    return {{"table", id_}, {"preset", std::string(to_string(settings_.preset))}, {"target", settings_.target},
            {"turn_seconds", settings_.turn_seconds}, {"private", settings_.is_private},
            {"state", std::string(to_string(state_))}, {"seats", std::move(seats)}, {"spectators", spectators},
            {"match", match_number_}};
}

json Table::view_json(std::optional<Seat> seat, int spectators) const {
    json j = summary_json(spectators);
    j["version"] = version_;
    j["you"] = seat ? json(index(*seat)) : json(nullptr);
    const auto totals = match_.totals();
    j["scores"] = {totals[0], totals[1]};
    j["legal"] = json::array();
    j["deadline_ms"] = turn_deadline_ ? json(*turn_deadline_) : json(nullptr);
    j["timeout_action"] = nullptr;
    if (match_number_ == 0 || !match_.has_round()) {
        j["round"] = nullptr;
        return j;
    }
    const int number = static_cast<int>(match_.rounds().size());
    // Every seat's message comes from that seat's SeatView; a spectator's from a view whose
    // hand is never written.
    const SeatView view = SeatView::of(match_, seat.value_or(Seat::s0));
    j["round"] = round_json(view, number, seat.has_value());
    if (seat && state_ == TableState::playing && view.my_turn()) {
        for (Action a : view.legal_actions()) j["legal"].push_back(action_json(a));
        if (turn_deadline_) j["timeout_action"] = action_json(view.default_action());
    }
    return j;
}

std::string Table::seat_prefix(std::optional<Seat> seat) const {
    json legal = json::array();
    json timeout_action = nullptr;
    if (seat && state_ == TableState::playing && match_.has_round()) {
        const SeatView view = SeatView::of(match_, *seat);
        if (view.my_turn()) {
            for (Action a : view.legal_actions()) legal.push_back(action_json(a));
            if (turn_deadline_) timeout_action = action_json(view.default_action());
        }
    }
    return "\"legal\":" + legal.dump() + ",\"timeout_action\":" + timeout_action.dump() +
           ",\"you\":" + (seat ? std::to_string(index(*seat)) : std::string("null")) + ",";
}

std::string Table::hand_text(Seat seat) const {
    if (match_number_ == 0 || !match_.has_round()) return "";
    json hand = json::array();
    for (Card c : SeatView::of(match_, seat).hand()) hand.push_back(to_string(c));
    return "\"hand\":" + hand.dump() + ",";
}

std::vector<json> Table::take_events() { return std::exchange(events_, {}); }

std::optional<FinishedMatch> Table::take_finished() { return std::exchange(finished_, std::nullopt); }

}  // namespace tarneeb::server
