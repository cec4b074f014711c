// Table (table.hpp): the changes a request makes (prepare_*, then commit or replay of their
// journal entries), its seats and its finished matches. Its clock and its people's presence:
// table_time.cpp.
#include "tarneeb/room/table.hpp"

#include <algorithm>

#include "tarneeb/core/random.hpp"
#include "tarneeb/records/record.hpp"

namespace tarneeb::server {

using nlohmann::json;

Rules TableSettings::rules() const {
    Rules r = rules_for(preset);
    r.target = target;
    r.bracket_tiebreak = bracket_tiebreak;
    return r;
}

std::string bot_display_name(std::string_view kind, Seat seat) {
    return std::string(kind) + " " + std::to_string(index(seat) + 1);
}

std::string_view to_string(TableState s) {
    switch (s) {
        case TableState::waiting: return "waiting";
        case TableState::playing: return "playing";
        case TableState::finished: return "finished";
    }
    return "?";
}

Table::Table(std::string id, TableSettings settings, TableTiming timing, BotFactory bots)
    : id_(std::move(id)), settings_(std::move(settings)), timing_(std::move(timing)), make_bot_(std::move(bots)),
      match_(settings_.rules(), Seat::s0) {}

std::optional<Seat> Table::seat_of(const std::string& name) const {
    for (Seat s : kSeats) {
        const auto& h = seats_[s];
        if (h.kind == SeatHolder::Kind::human && h.name == name) return s;
    }
    return std::nullopt;
}

bool Table::no_humans() const {
    return std::none_of(seats_.begin(), seats_.end(), [](const SeatHolder& h) { return h.kind == SeatHolder::Kind::human; });
}

bool Table::rated() const {
    if (settings_.casual) return false;
    if (state_ != TableState::waiting) return four_humans_at_start_;
    return std::all_of(seats_.begin(), seats_.end(), [](const SeatHolder& h) { return h.kind == SeatHolder::Kind::human; });
}

bool Table::humans_connected() const {
    return std::any_of(seats_.begin(), seats_.end(),
                       [](const SeatHolder& h) { return h.kind == SeatHolder::Kind::human && h.connected; });
}

bool Table::bot_controlled(Seat s) const {
    const auto& h = seats_[s];
    return h.kind == SeatHolder::Kind::bot || (h.kind == SeatHolder::Kind::human && h.standin);
}

namespace {
Change one(JournalEntry entry) {
    Change c;
    c.entries.push_back(std::move(entry));
    return c;
}
}  // namespace

// ---- changes: prepare ---------------------------------------------------------------------

Change Table::prepare_sit(Seat seat, const std::string& name) const {
    if (state_ == TableState::playing) return Change::refused(ProtocolError::table_playing);
    if (seats_[seat].kind != SeatHolder::Kind::empty)
        return Change::refused(ProtocolError::seat_taken);
    return one(journal::Sit{seat, name});
}

Change Table::prepare_leave(const std::string& name) const {
    const auto seat = seat_of(name);
    if (!seat) return Change::refused(ProtocolError::not_seated);
    return one(journal::Leave{*seat});
}

Change Table::prepare_add_bot(Seat seat, const std::string& bot, std::uint64_t seed) const {
    if (state_ == TableState::playing) return Change::refused(ProtocolError::table_playing);
    if (seats_[seat].kind != SeatHolder::Kind::empty)
        return Change::refused(ProtocolError::seat_taken);
    if (!make_bot_ || !make_bot_(bot, seed)) return Change::refused(ProtocolError::unknown_bot);
    return one(journal::AddBot{seat, bot, seed});
}

Change Table::prepare_remove_bot(Seat seat) const {
    if (state_ == TableState::playing) return Change::refused(ProtocolError::table_playing);
    if (seats_[seat].kind != SeatHolder::Kind::bot)
        return Change::refused(ProtocolError::bad_seat);
    return one(journal::RemoveBot{seat});
}

Change Table::prepare_start(std::uint64_t seed, std::uint64_t deal_seed) const {
    if (state_ == TableState::playing) return Change::refused(ProtocolError::table_playing);
    for (const auto& h : seats_)
        if (h.kind == SeatHolder::Kind::empty) return Change::refused(ProtocolError::not_enough_players);
    // Compaction: the journal of a new match is its seats and its start. The start carries the
    // version, which the seats' entries alone would not reach again.
    Change c;
    c.rewrite = true;
    for (Seat s : kSeats) {
        const auto& h = seats_[s];
        if (h.kind == SeatHolder::Kind::human)
            c.entries.push_back(journal::Sit{s, h.name});
        else
            c.entries.push_back(journal::AddBot{s, h.name, h.bot_seed});
    }
    c.entries.push_back(journal::Start{seed, match_number_ + 1, version_ + 1, deal_seed});
    return c;
}

Change Table::prepare_fill(const std::function<std::uint64_t()>& seed) const {
    if (!settings_.quick) return Change::refused(ProtocolError::bad_settings);
    if (state_ == TableState::playing) return Change::refused(ProtocolError::table_playing);
    if (std::none_of(seats_.begin(), seats_.end(), [](const SeatHolder& h) { return h.kind == SeatHolder::Kind::human; }))
        return Change::refused(ProtocolError::not_seated);
    Change c;
    c.rewrite = true;
    std::vector<JournalEntry> bots;
    for (Seat s : kSeats) {
        const auto& h = seats_[s];
        if (h.kind == SeatHolder::Kind::human) {
            c.entries.push_back(journal::Sit{s, h.name});
        } else if (h.kind == SeatHolder::Kind::bot) {
            c.entries.push_back(journal::AddBot{s, h.name, h.bot_seed});
        } else {
            const journal::AddBot bot{s, timing_.quick_bot, seed()};
            if (!make_bot_ || !make_bot_(bot.bot, bot.seed)) return Change::refused(ProtocolError::unknown_bot);
            bots.push_back(bot);
        }
    }
    // The seats the people hold, then the bots (committed), then the start (committed).
    c.commits = bots.size() + 1;
    c.entries.insert(c.entries.end(), bots.begin(), bots.end());
    const std::uint64_t match_seed = seed();
    c.entries.push_back(journal::Start{match_seed, match_number_ + 1, version_ + bots.size() + 1, seed()});
    return c;
}

Change Table::prepare_act(Seat seat, Action action, std::uint64_t version, std::uint64_t deal_seed) const {
    return prepare_act(seat, action, version, [deal_seed] { return deal_seed; });
}

Change Table::prepare_act(Seat seat, Action action, std::uint64_t version,
                          const std::function<std::uint64_t()>& deal_seed) const {
    if (version != version_) return Change::refused(ProtocolError::stale);
    if (state_ != TableState::playing) return Change::refused(match_.over() ? ErrorCode::match_over : ErrorCode::no_deal);
    if (match_.awaiting_deal() || !match_.has_round()) return Change::refused(ErrorCode::no_deal);
    const Round& round = match_.round();
    if (round.over()) return Change::refused(ErrorCode::deal_over);
    if (round.to_act() != seat) return Change::refused(ErrorCode::out_of_turn);
    if (const ErrorCode e = round.check(action); e != ErrorCode::ok) return Change::refused(e);
    return act_change(seat, action, false, deal_seed);
}

Change Table::act_change(Seat seat, Action a, bool timeout, const std::function<std::uint64_t()>& deal_seed) const {
    journal::Act entry{seat, a, std::nullopt, timeout};
    // The next deal's seed goes with the action that ends a round (drawn per deal, never sent).
    Round after = match_.round();
    if (after.apply(seat, a) == ErrorCode::ok && after.over()) entry.deal = deal_seed();
    return one(std::move(entry));
}

std::optional<Change> Table::prepare_due(Millis now, const std::function<std::uint64_t()>& deal_seed) const {
    if (fill_at_ && (now >= *fill_at_ || std::all_of(seats_.begin(), seats_.end(), [](const SeatHolder& h) {
                         return h.kind == SeatHolder::Kind::human;
                     }))) {
        Change fill = prepare_fill(deal_seed);
        if (fill.ok()) return fill;
    }
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

void Table::commit(const JournalEntry& entry, Millis now) {
    apply_entry(entry, now);
    // A player who sits down is there.
    if (const auto* sit = std::get_if<journal::Sit>(&entry)) seats_[sit->seat].connected = true;
    schedule(now);
}

bool Table::replay(const JournalEntry& entry, Millis now) {
    const bool ok = apply_entry(entry, now);
    events_.clear();
    schedule(now);
    return ok;
}

bool Table::apply_entry(const JournalEntry& entry, Millis now) {
    try {
        if (const auto* e = std::get_if<journal::Sit>(&entry)) {
            do_sit(e->seat, e->name);
            return true;
        }
        if (const auto* e = std::get_if<journal::Leave>(&entry)) {
            if (seats_[e->seat].kind != SeatHolder::Kind::human) return false;
            do_leave(e->seat);
            return true;
        }
        if (const auto* e = std::get_if<journal::AddBot>(&entry)) return do_add_bot(e->seat, e->bot, e->seed);
        if (const auto* e = std::get_if<journal::RemoveBot>(&entry)) {
            auto& h = seats_[e->seat];
            const std::string name = h.kind == SeatHolder::Kind::bot ? bot_display_name(h.name, e->seat) : h.name;
            h = SeatHolder{};
            ++version_;
            events_.push_back(event::Left{e->seat, name});
            return true;
        }
        if (const auto* e = std::get_if<journal::Start>(&entry)) {
            match_number_ = e->match.value_or(match_number_ + 1) - 1;
            do_start(e->seed, e->deal, e->version);
            return true;
        }
        if (const auto* e = std::get_if<journal::Act>(&entry)) {
            if (state_ != TableState::playing || !match_.has_round() || match_.round().over() ||
                match_.round().to_act() != e->seat || match_.round().check(e->action) != ErrorCode::ok)
                return false;
            apply_action(e->seat, e->action, e->timeout, e->deal, now);
            return true;
        }
    } catch (const std::exception&) {
    }
    return false;
}

void Table::do_sit(Seat seat, const std::string& name) {
    if (auto old = seat_of(name)) {
        seats_[*old] = SeatHolder{};
        events_.push_back(event::Left{*old, name});
    }
    auto& h = seats_[seat];
    h = SeatHolder{};
    h.kind = SeatHolder::Kind::human;
    h.name = name;
    h.connected = false;
    ++version_;
    events_.push_back(event::Seated{seat, name, false, {}});
}

void Table::do_leave(Seat seat) {
    auto& h = seats_[seat];
    const std::string name = h.name;
    if (state_ == TableState::playing) {
        // The match goes on: a bot takes the seat for good, but the seat's result stays with
        // the player who left (no dodging the rating by leaving; docs/protocol.md "Ratings").
        std::string player = h.kind == SeatHolder::Kind::human ? name : h.left_mid_match;
        if (h.kind == SeatHolder::Kind::human && !first_leaver_) first_leaver_ = seat;
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
    events_.push_back(event::Left{seat, name});
    if (h.kind == SeatHolder::Kind::bot) events_.push_back(event::BotTookOver{seat});
}

bool Table::do_add_bot(Seat seat, const std::string& bot, std::uint64_t seed) {
    std::shared_ptr<bots::Bot> made = make_bot_ ? make_bot_(bot, seed) : nullptr;
    if (!made) return false;
    auto& h = seats_[seat];
    h = SeatHolder{};
    h.kind = SeatHolder::Kind::bot;
    h.name = bot;
    h.bot = std::move(made);
    h.bot_seed = seed;
    ++version_;
    events_.push_back(event::Seated{seat, bot_display_name(bot, seat), true, bot});
    return true;
}

void Table::do_start(std::uint64_t seed, std::optional<std::uint64_t> deal_seed, std::optional<std::uint64_t> version) {
    ++match_number_;
    first_leaver_.reset();
    four_humans_at_start_ =
        std::all_of(seats_.begin(), seats_.end(), [](const SeatHolder& h) { return h.kind == SeatHolder::Kind::human; });
    match_seed_ = seed;
    match_ = Match(settings_.rules(), seat(static_cast<int>(seed % 4)));
    state_ = TableState::playing;
    version_ = std::max(version_ + 1, version.value_or(0));
    events_.push_back(event::MatchStarted{match_number_});
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
    events_.push_back(event::Acted{seat, a, timeout});
    if (a.kind == ActionKind::play && round.tricks_played() > trick_before) {
        const Seat w = round.trick_winner(round.tricks_played() - 1);
        events_.push_back(event::TrickWon{w, round.tricks_played(), {round.tricks(Team::t0), round.tricks(Team::t1)}});
    }
    // Bots observe every action, with their view after it. No bot of this table is thinking:
    // the seat that acted was the one to act, and a bot thinks only on its own turn.
    for (Seat s : kSeats) {
        auto& h = seats_[s];
        if (h.bot) h.bot->observe(SeatView(round, s, match_.totals()), seat, a);
    }
    if (round.phase() == Phase::scored) {
        const Contract contract = *round.contract();
        events_.push_back(event::RoundScored{contract.declarer, contract.bid, round.made(),
                                             {round.tricks(Team::t0), round.tricks(Team::t1)},
                                             {round.points(Team::t0), round.points(Team::t1)},
                                             {match_.total(Team::t0), match_.total(Team::t1)}});
    } else if (round.phase() == Phase::passed_out) {
        events_.push_back(event::PassedOut{round_index + 1});
    }
    if (match_.over()) {
        finish_match();
    } else {
        const bool ended = round.over();
        deal_if_needed(deal_seed);
        // The players read the round summary before the next deal's clock starts.
        if (ended && match_.has_round() && !match_.round().over() && timing_.summary_ms > 0)
            summary_until_ = now + timing_.summary_ms;
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
    events_.push_back(event::Deal{static_cast<int>(match_.rounds().size()), match_.round().dealer()});
}

void Table::finish_match() {
    FinishedMatch f = match_record(std::string(to_string(match_.status())), match_.winner() ? index(*match_.winner()) : -1);
    events_.push_back(event::MatchOver{match_.status(), match_.winner(), ByTeam<int>{f.scores}, f.id});
    finished_ = std::move(f);
}

std::optional<FinishedMatch> Table::abandon() {
    if (state_ != TableState::playing) return std::nullopt;
    return match_record("abandoned", first_leaver_ ? 1 - index(*first_leaver_) % 2 : -1);
}

FinishedMatch Table::match_record(std::string status, int winner) {
    state_ = TableState::finished;
    turn_deadline_.reset();
    bot_due_.reset();
    FinishedMatch f;
    f.id = id_ + "-" + std::to_string(match_number_);
    for (std::size_t s = 0; s < 4; ++s) {
        // A seat's result belongs to whoever sat there when the match started.
        const bool left = !seats_[s].left_mid_match.empty();
        f.bots[s] = !left && seats_[s].kind != SeatHolder::Kind::human;
        // A bot is stored under its display name ("heuristic 2"), as the table showed it.
        f.names[s] = left ? seats_[s].left_mid_match
                          : f.bots[s] ? bot_display_name(seats_[s].name, seat(static_cast<int>(s))) : seats_[s].name;
        seats_[s].left_mid_match.clear();  // the next match's seat is the bot's
    }
    f.rated = rated();
    f.record = records::record_json(match_);
    f.record["players"] = f.names;
    f.record["id"] = f.id;
    f.record["rated"] = f.rated;
    f.status = std::move(status);
    f.winner = winner;
    f.scores = match_.totals();
    f.match = match_;
    return f;
}

// ---- seats and events ---------------------------------------------------------------------

SeatInfo Table::seat_info(Seat s) const {
    const auto& h = seats_[s];
    SeatInfo info;
    info.kind = h.kind == SeatHolder::Kind::empty ? SeatInfo::Kind::empty
                : h.kind == SeatHolder::Kind::human ? SeatInfo::Kind::human
                                                    : SeatInfo::Kind::bot;
    info.name = h.kind == SeatHolder::Kind::bot ? bot_display_name(h.name, s) : h.name;
    if (h.kind == SeatHolder::Kind::bot) info.bot_kind = h.name;
    info.connected = h.connected;
    info.standin = h.standin;
    return info;
}

std::vector<TableEvent> Table::take_events() { return std::exchange(events_, {}); }

std::optional<FinishedMatch> Table::take_finished() { return std::exchange(finished_, std::nullopt); }

}  // namespace tarneeb::server
