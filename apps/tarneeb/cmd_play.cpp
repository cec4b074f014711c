// tarneeb play: a person plays one seat against three bots, line by line on the terminal.
//
// Seats are shown from the person's side of the table: the partner across, the opponent who
// plays next on the right and the one who played before on the left (rules.md: turn order runs
// counter-clockwise, the next player sits to the right). Input is one answer per line, so the
// game also runs with standard input from a pipe (tests play whole matches that way).
// The match record (tarneeb-record/1) is written at the end, on `quit` or end of input too.
// The game is the bots' loop (bots/loop.hpp): the person is a player that reads a line
// (Terminal), and the narration is the loop's observe hook.
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "commands.hpp"
#include "engine_flags.hpp"
#include "play_words.hpp"
#include "tarneeb/bots/bot.hpp"
#include "tarneeb/bots/engine_bot.hpp"
#include "tarneeb/bots/heuristic_bot.hpp"
#include "tarneeb/bots/loop.hpp"
#include "tarneeb/core/random.hpp"
#include "tarneeb/records/record.hpp"

namespace tarneeb::cli {

namespace {

struct PlayOptions {
    std::string rules = "levantine";
    int seat = 0;
    std::string bots = "heuristic";
    std::string hint = "heuristic";  ///< the bot that answers "hint"
    std::optional<std::uint64_t> seed;
    int target = 0;
    std::string record;
    std::string lang = "en";
    bots::EngineConfig engine;  ///< defaults of engine:CMD players
};

class Game {
public:
    Game(const PlayOptions& o, const Rules& rules, std::uint64_t seed, std::istream& in, std::ostream& out, bool colour)
        : o_(o), w_(o.lang == "ar" ? kArabic : kEnglish), me_(seat(o.seat)), seed_(seed), match_(rules, Seat::s0),
          in_(in), out_(out), colour_(colour), echo_(isatty(STDIN_FILENO) == 0),
          rtl_(o.lang == "ar") {
        for (Seat s : kSeats)
            if (s != me_)
                bots_[s] = bots::make_player(o.bots, derive_seed(seed, 100 + static_cast<std::uint64_t>(index(s))), o.engine);
        hint_ = bots::make_player(o.hint, 0, o.engine);
    }

    /// Plays until the match ends or the person quits. Returns true if the match finished.
    bool run();
    const Match& match() const { return match_; }
    /// Reads the person's action for round `r` (the match's current one). nullopt: quit or
    /// end of input.
    std::optional<Action> ask(const Round& r);

private:
    std::string who(Seat s) const {
        const int rel = (index(s) - index(me_) + 4) % 4;
        const char* names[4] = {w_.you, w_.right, w_.partner, w_.left};
        return std::string(names[rel]);
    }
    std::string team_name(Team t) const { return t == team_of(me_) ? w_.us : w_.them; }
    std::string suit(Suit s) const {
        static constexpr const char* kSymbols[4] = {"♣", "♦", "♥", "♠"};
        const bool red = s == Suit::hearts || s == Suit::diamonds;
        if (colour_ && red) return std::string("\x1b[31m") + kSymbols[index(s)] + "\x1b[0m";
        return kSymbols[index(s)];
    }
    static std::string rank(Rank r) { return r == Rank::ten ? "10" : std::string(1, rank_letter(r)); }
    /// In Arabic output, a left-to-right run (cards, numbers with signs, "8 ♥") between LRI
    /// (U+2066) and PDI (U+2069), so that a bidi-aware terminal keeps it in order instead of
    /// reordering it with the Arabic around it (UAX #9). English output is left as it is.
    std::string ltr(const std::string& s) const { return rtl_ ? "\u2066" + s + "\u2069" : s; }
    std::string ltr(int n) const { return ltr(num(n)); }
    /// A number as the interface writes it: Eastern Arabic digits (٠-٩) in Arabic, ASCII in English.
    std::string num(long n) const {
        std::string s = std::to_string(n);
        if (!rtl_) return s;
        static constexpr std::string_view kEastern[10] = {"٠", "١", "٢", "٣", "٤", "٥", "٦", "٧", "٨", "٩"};
        std::string out;
        for (char c : s) out += c >= '0' && c <= '9' ? std::string(kEastern[c - '0']) : std::string(1, c);
        return out;
    }
    std::string card_raw(Card c) const { return rank(c.rank()) + suit(c.suit()); }
    std::string card(Card c) const { return ltr(card_raw(c)); }
    std::string hand_text(CardSet h) const { return ltr(hand_raw(h)); }
    std::string hand_raw(CardSet h) const {
        std::string s;
        for (Suit su : {Suit::spades, Suit::hearts, Suit::diamonds, Suit::clubs}) {
            const CardSet cards = h.of(su);
            if (cards.empty()) continue;
            if (!s.empty()) s += "   ";
            s += suit(su);
            for (int r = 12; r >= 0; --r)
                if (cards.contains(Card(su, static_cast<Rank>(r)))) {
                    s += ' ';
                    s += rank(static_cast<Rank>(r));
                }
        }
        return s;
    }
    std::string bold(const std::string& s) const { return colour_ ? "\x1b[1m" + s + "\x1b[0m" : s; }
    std::string score_line() const {
        const Team us = team_of(me_);
        std::ostringstream ss;
        ss << w_.score << ": " << w_.us << " " << ltr(match_.total(us)) << w_.comma << w_.them << " "
           << ltr(match_.total(other(us))) << " (" << w_.target << " " << ltr(match_.rules().target) << ")";
        return ss.str();
    }
    /// A call as narrated after "Name: ": the verb agrees with the caller.
    std::string call_text(Seat caller, int c) const {
        return c == 0 ? w_.pass : std::string(caller == me_ ? w_.you_bid : w_.bids) + " " + ltr(c);
    }
    /// "You win the trick" / "Right wins the trick".
    std::string trick_won_text(Seat winner) const {
        return winner == me_ ? std::string(w_.you_win_trick) : who(winner) + " " + w_.wins_trick;
    }
    /// "we need 8" / "they need 8": what the declaring side needs, the verb agreeing with it.
    std::string need_text(const Contract& c) const {
        return std::string(c.team() == team_of(me_) ? w_.we_need : w_.they_need) + " " + num(c.bid);
    }
    /// "Tricks: us 3, them 2; we need 8".
    std::string tricks_text(const Round& r) const {
        const Team us = team_of(me_);
        return std::string(w_.tricks) + ": " + w_.us + " " + num(r.tricks(us)) + w_.comma + w_.them + " " +
               num(r.tricks(other(us))) + w_.semicolon + need_text(*r.contract());
    }

    void show_auction(const Round& r) const;
    void show_contract(const Round& r) const;
    void show_trick(const Round& r) const;
    void show_state(const Round& r) const;
    void narrate(Seat actor, Action a);
    void round_summary(const Round& r) const;
    void match_summary() const;
    std::string legal_text(const Round& r) const;
    std::string bid_range(const Round& r) const {
        // In Arabic the range reads right to left like the words around it (no isolate).
        const std::string range = num(r.rules().min_bid) + "-" + num(r.rules().max_bid);
        return rtl_ ? range : ltr(range);
    }

    PlayOptions o_;
    const Words& w_;
    Seat me_;
    std::uint64_t seed_;
    Match match_;
    std::istream& in_;
    std::ostream& out_;
    bool colour_;
    bool echo_;
    bool rtl_;  ///< Arabic output: LTR runs are isolated (ltr())
    BySeat<std::unique_ptr<bots::Bot>> bots_;
    std::unique_ptr<bots::Bot> hint_;
};

void Game::show_auction(const Round& r) const {
    out_ << w_.auction << ":";
    if (r.calls().empty()) out_ << " -";
    for (int i = 0; i < static_cast<int>(r.calls().size()); ++i) {
        const int c = r.calls()[static_cast<std::size_t>(i)];
        out_ << (i ? w_.comma : " ") << who(next(r.dealer(), 1 + i)) << " " << (c == 0 ? std::string(w_.pass) : num(c));
    }
    out_ << "\n";
}

void Game::show_contract(const Round& r) const {
    const Contract c = *r.contract();
    const Team decl = c.team();
    out_ << w_.contract << ": " << num(c.bid) << " (" << who(c.declarer) << w_.comma << team_name(decl) << ")";
    if (r.trump_named()) out_ << "  " << w_.trump << " " << ltr(suit(r.trump()));
    out_ << "   " << tricks_text(r) << "\n";
}

void Game::show_trick(const Round& r) const {
    const auto trick = r.current_trick();
    auto cell = [&](Seat s) {
        for (int i = 0; i < static_cast<int>(trick.size()); ++i)
            if (next(r.trick_leader(), i) == s) return card(trick[static_cast<std::size_t>(i)]);
        return std::string(s == me_ ? (rtl_ ? "؟" : "?") : "-");
    };
    const Seat mate = partner(me_), right = next(me_, 1), left = next(me_, 3);
    // The diagram is a picture of the table: Left on the left whatever the language. In Arabic
    // each line starts with a LEFT-TO-RIGHT MARK, so that a bidi terminal lays it out left to
    // right (its first strong character) instead of mirroring it.
    const char* lrm = rtl_ ? "\u200e" : "";
    out_ << lrm << "                " << w_.partner << ": " << cell(mate) << "\n";
    out_ << lrm << "  " << w_.left << ": " << cell(left) << "                  " << w_.right << ": " << cell(right) << "\n";
    out_ << lrm << "                " << w_.you << ": " << cell(me_) << "\n";
}

void Game::show_state(const Round& r) const {
    out_ << "\n" << score_line() << "\n";
    if (r.phase() == Phase::auction) {
        show_auction(r);
    } else {
        show_contract(r);
        if (r.phase() == Phase::play) show_trick(r);
    }
    out_ << w_.your_hand << ": " << hand_text(r.hand(me_)) << "\n";
}

std::string Game::legal_text(const Round& r) const {
    std::string s;
    if (r.phase() == Phase::play) {
        for (Card c : r.legal_cards()) {
            if (!s.empty()) s += ' ';
            s += card_raw(c);
        }
        return ltr(s);
    }
    std::string pass;  // in the person's language, outside the isolate of the bids
    for (Action a : r.legal_actions()) {
        if (a.kind == ActionKind::call && a.is_pass()) {
            pass = w_.pass;
            continue;
        }
        if (!s.empty()) s += " ";
        if (a.kind == ActionKind::trump) {
            s += static_cast<char>(suit_letter(a.suit()) - 'A' + 'a');
            s += '=';
            s += suit(a.suit());
        } else {
            s += num(a.bid_value());
        }
    }
    if (s.empty()) return pass;
    return pass.empty() ? ltr(s) : pass + " " + ltr(s);
}

std::optional<Action> Game::ask(const Round& r) {
    show_state(r);
    const char* prompt = r.phase() == Phase::auction ? w_.call_prompt : r.phase() == Phase::trump ? w_.trump_prompt : w_.card_prompt;
    std::string line;
    while (true) {
        out_ << prompt << "> " << std::flush;
        if (!std::getline(in_, line)) {
            out_ << "\n";
            return std::nullopt;
        }
        if (echo_) out_ << line << "\n";
        const std::string t = normalise_answer(line);
        if (t == "quit" || t == "exit" || t == "q") return std::nullopt;
        if (t == "?" || t == "help") {
            out_ << w_.legal << ": " << legal_text(r) << "   " << w_.more_help << "\n";
            continue;
        }
        if (t == "hint") {
            const Action a = bots::decide_or_default(*hint_, SeatView::of(match_, me_));
            std::string what = a.kind == ActionKind::play ? card(a.card())
                             : a.kind == ActionKind::trump ? ltr(suit(a.suit()))
                             : a.is_pass() ? std::string(w_.pass) : ltr(a.bid_value());
            out_ << w_.hint << ": " << what << "\n";
            continue;
        }
        if (t.empty()) {
            out_ << w_.e_empty << "\n";
            continue;
        }
        if (r.phase() == Phase::auction) {
            Action a{};
            if (t == "pass" || t == "p" || t == "0") {
                a = Action::pass();
            } else {
                const bool digits = t.size() <= 2 && t.find_first_not_of("0123456789") == std::string::npos;
                if (!digits) {
                    out_ << w_.e_not_call << " " << bid_range(r) << ".\n";
                    continue;
                }
                a = Action::bid(std::stoi(t));
            }
            const ErrorCode e = r.check(a);
            if (e == ErrorCode::bad_bid) {
                out_ << w_.e_bid_range << " " << bid_range(r) << ".\n";
                continue;
            }
            if (e == ErrorCode::bid_too_low) {
                out_ << w_.e_too_low << " " << r.high_bid() << " (" << legal_text(r) << ").\n";
                continue;
            }
            if (e != ErrorCode::ok) {
                out_ << w_.e_not_now << " " << ltr(std::string(to_string(e))) << ".\n";
                continue;
            }
            return a;
        }
        if (r.phase() == Phase::trump) {
            const auto s = parse_suit(t);
            if (!s) {
                out_ << w_.e_not_suit << "\n";
                continue;
            }
            return Action::name_trump(*s);
        }
        const auto c = parse_card(t);
        if (!c) {
            out_ << w_.e_not_card << "\n";
            continue;
        }
        const ErrorCode e = r.check(Action::play(*c));
        if (e == ErrorCode::card_not_held) {
            out_ << w_.e_not_held << " " << card(*c) << ".\n";
            continue;
        }
        if (e == ErrorCode::must_follow_suit) {
            out_ << w_.e_follow << " " << ltr(suit(r.current_trick()[0].suit())) << ".\n";
            continue;
        }
        if (e != ErrorCode::ok) {
            out_ << w_.e_not_now << " " << ltr(std::string(to_string(e))) << ".\n";
            continue;
        }
        return Action::play(*c);
    }
}

void Game::narrate(Seat actor, Action a) {
    const Round& r = match_.round();
    switch (a.kind) {
        case ActionKind::call:
            out_ << who(actor) << ": " << call_text(actor, a.bid_value()) << "\n";
            if (r.phase() == Phase::trump || r.phase() == Phase::play) {
                const Contract c = *r.contract();
                out_ << w_.contract << ": " << num(c.bid) << " (" << who(c.declarer) << w_.comma << team_name(c.team()) << ")\n";
            }
            break;
        case ActionKind::trump:
            out_ << who(actor) << ": " << w_.trump << " " << ltr(suit(a.suit())) << "\n";
            break;
        case ActionKind::play: {
            out_ << who(actor) << ": " << card(a.card()) << "\n";
            if (r.cards_played() % 4 == 0) {
                const int t = r.tricks_played() - 1;
                const Trick trick = r.trick(t);
                out_ << bold(std::string(w_.trick) + " " + num(t + 1) + ": ");
                for (int i = 0; i < 4; ++i) out_ << (i ? w_.comma : "") << who(trick.player(i)) << " " << card(trick[i]);
                out_ << "  -> " << trick_won_text(r.trick_winner(t)) << ".  " << tricks_text(r) << "\n";
            }
            break;
        }
    }
}

void Game::round_summary(const Round& r) const {
    out_ << "\n";
    if (r.phase() == Phase::passed_out) {
        out_ << bold(w_.passed_out) << "\n";
        return;
    }
    const Contract c = *r.contract();
    const Team decl = c.team();
    const Team us = team_of(me_);
    const auto signed_points = [&](Team t) { return ltr((r.points(t) >= 0 ? "+" : "") + num(r.points(t))); };
    out_ << bold(std::string(w_.round) + " " + num(match_.rounds().size()) + ": ") << w_.contract << " "
         << ltr(num(c.bid) + " " + suit(r.trump())) << " (" << who(c.declarer) << w_.comma << team_name(decl) << ") "
         << (r.made() ? w_.made : w_.set) << " " << ltr(num(r.tricks(decl)) + "/" + num(c.bid))
         << ".  " << w_.us << " " << signed_points(us) << w_.comma << w_.them << " " << signed_points(other(us)) << ".  "
         << score_line() << "\n";
}

void Game::match_summary() const {
    out_ << "\n" << bold(w_.match_over) << ": ";
    switch (match_.status()) {
        case MatchStatus::won:
            out_ << w_.winner << " " << team_name(*match_.winner()) << (*match_.winner() == team_of(me_) ? " :)" : "");
            break;
        case MatchStatus::drawn: out_ << w_.draw; break;
        case MatchStatus::closed: out_ << w_.closed; break;
        case MatchStatus::in_progress: break;
    }
    out_ << ".  " << score_line() << w_.comma << w_.rounds << " "
         << ltr(num(match_.scored_rounds()) + "/" + num(match_.rounds().size())) << "\n";
}

/// The person at the terminal as a player of the bots' loop: every decision is a line read
/// from the terminal (Game::ask). Quitting (or the end of input) sets quit(); the loop then
/// stops before applying anything.
class Terminal final : public bots::Bot {
public:
    explicit Terminal(Game& game) : game_(game) {}
    std::string_view name() const override { return "terminal"; }
    Action decide_call(const SeatView& view) override { return read(view); }
    Action decide_trump(const SeatView& view) override { return read(view); }
    Action decide_card(const SeatView& view) override { return read(view); }
    bool quit() const { return quit_; }

private:
    Action read(const SeatView& view) {
        const auto answer = game_.ask(game_.match().round());
        if (!answer) {
            quit_ = true;
            return view.default_action();  // not applied: the loop stops on quit()
        }
        return *answer;
    }
    Game& game_;
    bool quit_ = false;
};

bool Game::run() {
    if (rtl_)  // the options as the command line that replays this match, the only Latin text
        out_ << "طرنيب: أنت في المقعد " << ltr(o_.seat) << "؛ للعب المباراة نفسها: "
             << ltr("tarneeb play --rules " + o_.rules + " --seat " + std::to_string(o_.seat) + " --bots " + o_.bots +
                    " --seed " + std::to_string(seed_) + " --lang ar")
             << "\n";
    else
        out_ << "tarneeb play: " << o_.rules << ", " << w_.you << " = seat " << o_.seat << ", bots " << o_.bots << ", seed "
             << seed_ << "\n";
    Terminal person(*this);
    bots::Lineup lineup{};
    for (Seat s : kSeats) lineup[s] = s == me_ ? &person : bots_[s].get();
    bots::LoopHooks hooks;
    hooks.dealt = [this](const Match& m) {
        const Round& r = m.round();
        out_ << "\n" << bold(std::string(w_.round) + " " + num(m.rounds().size())) << " - " << w_.dealer << ": "
             << who(r.dealer()) << ".  " << score_line() << "\n";
        out_ << w_.your_hand << ": " << hand_text(r.hand(me_)) << "\n";
    };
    hooks.observe = [this](const Match& m, Seat actor, Action a) {
        narrate(actor, a);
        if (m.round().over()) round_summary(m.round());
    };
    hooks.stop = [&person] { return person.quit(); };
    if (!bots::play_on(match_, seed_, lineup, hooks)) {
        out_ << w_.goodbye << "\n";
        return false;
    }
    match_summary();
    return true;
}

int run_play(const PlayOptions& o) {
    const auto preset = parse_preset(o.rules);
    if (!preset) {
        std::cerr << "tarneeb play: unknown rules '" << o.rules << "' (levantine or classic)\n";
        return kExitUsage;
    }
    for (const std::string* name : {&o.bots, &o.hint})
        if (const auto why = bots::player_error(*name)) {
            std::cerr << "tarneeb play: " << *why << "\n";
            return kExitUsage;
        }
    if (o.lang != "en" && o.lang != "ar") {
        std::cerr << "tarneeb play: --lang is en or ar\n";
        return kExitUsage;
    }
    Rules rules = rules_for(*preset);
    if (o.target > 0) rules.target = o.target;
    const std::uint64_t seed = o.seed ? *o.seed : (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
    const char* no_colour = std::getenv("NO_COLOR");
    const bool colour = isatty(STDOUT_FILENO) && !(no_colour && *no_colour);
    Game game(o, rules, seed, std::cin, std::cout, colour);
    game.run();
    if (!o.record.empty()) {
        std::ofstream f(o.record);
        f << records::record_json(game.match()).dump(1) << "\n";
        if (!f) {
            std::cerr << "tarneeb play: cannot write '" << o.record << "'\n";
            return kExitUsage;
        }
    }
    return kExitOk;
}

}  // namespace

void add_play(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("play", "Play a match against three computer players in the terminal");
    cmd->footer(
        "Answer one line per prompt: a bid 7-13 or pass; a trump suit s, h, d, c (or the symbol);\n"
        "a card like QS, 10h or td. '?' or 'help' lists the legal moves, 'hint' asks the heuristic\n"
        "bot, 'quit' (or end of input) stops and still writes the record. Works with piped input.\n"
        "Arabic answers work in either language: باس (pass), تلميح (hint), ؟ (?), خروج (quit), and\n"
        "Eastern Arabic digits in bids and cards (٧ is 7, ١٠h is 10h).\n"
        "Colour only on a terminal and when NO_COLOR is not set.\n" + std::string(kEngineHelp) +
        "\nEach of the three seats gets its own engine process.");
    auto o = std::make_shared<PlayOptions>();
    auto seed = std::make_shared<std::uint64_t>(0);
    cmd->add_option("--rules", o->rules, "levantine (default) or classic");
    cmd->add_option("--seat", o->seat, "your seat 0-3 (default 0; seat 1 plays after seat 0)")->check(CLI::Range(0, 3));
    cmd->add_option("--bots", o->bots, "the three computer players (" + bots::bot_names() + ", or engine:CMD; default heuristic)");
    cmd->add_option("--hint", o->hint, "the bot that answers 'hint' (the same choices; default heuristic)");
    auto* seed_opt = cmd->add_option("--seed", *seed, "64-bit seed of the deals and bots (default: random, printed)");
    cmd->add_option("--target", o->target, "points to win the match (default: the preset's 31)")->check(CLI::Range(1, 10000));
    cmd->add_option("--record", o->record, "write the match as tarneeb-record/1 to this file");
    cmd->add_option("--lang", o->lang, "en (default) or ar");
    add_engine_flags(cmd, o->engine);
    cmd->callback([o, seed, seed_opt, &exit_code] {
        if (seed_opt->count() > 0) o->seed = *seed;
        exit_code = run_play(*o);
    });
}

}  // namespace tarneeb::cli
