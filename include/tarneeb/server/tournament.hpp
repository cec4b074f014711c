// A tournament for teams of two (issue 15): a knockout bracket of 4–64 teams or a round-robin
// of 3–8 teams, as a plain value with no sockets, no clock and no database: the hall opens a
// table for each match that is ready, tells the tournament who won (or who did not come), and
// journals the tournament's JSON (to_json / from_json) after every change.
//
// Knockout (docs/protocol.md "Tournaments"): teams are seeded by rating (the higher rating is
// seed 1; equal ratings keep the order of entry). The bracket has P slots, P the smallest power
// of two ≥ the number of teams n, in the standard order (seed 1 meets seed P in the first
// round, and seeds 1 and 2 can only meet in the final); the P − n slots past the last seed are
// byes, so byes go to the top seeds and a bye is never paired with another bye. A team with a
// bye goes to round 2 at once. Match m of round r sends its winner to match m/2 of round r+1
// (side m mod 2). A bracket match is played with the `bracket` tie-break (docs/rules.md "Round
// cap"): a draw at the round cap goes to the team that won the last round. A match the table
// closes with no result (8 passed-out deals in a row) goes to the higher score, then the
// higher seed [decision].
//
// Round-robin: every team meets every other once, by the circle method (a bye each round when
// the count is odd), round by round (a round's matches open once the previous round is over).
// Standings: 2 points a win, 1 a draw, 0 a loss; ties by points difference (own match points
// minus the opponents', over every match), then by the matches between the tied teams (points
// in those matches only; for two teams, the match between them), then by seed.
//
// Forfeits: a match's table waits `seat_seconds` for the teams' players. When a team has not
// taken its seats by then, it forfeits the match (a walkover: the present team wins target–0;
// both absent: knockout gives the match to the higher seed, round-robin counts a loss for both,
// 0–0), or the organiser chose `no_show = bots`: bots take the empty seats and the match is
// played.
//
// Results are idempotent: a match that is finished already ignores a second result (a result
// reported again after a restart is not counted twice).
//
// Hidden information: a tournament knows names, ratings, scores and record ids, never a card.
//
// The code: src/server/tournament.cpp (the state changes), tournament_bracket.cpp (pairing,
// seeding, the schedule and the standings), tournament_json.cpp (the JSON).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tarneeb/core/rules.hpp"
#include "tarneeb/store/rating.hpp"

namespace tarneeb::server {

enum class TournamentFormat : std::uint8_t { knockout, round_robin };
/// What happens to a team that has not taken its seats when its match's seat time runs out.
enum class NoShow : std::uint8_t { forfeit, bots };
/// How teams are made: partners enter together, or single players are paired by rating
/// (1st with 2nd, 3rd with 4th... of the entrants sorted by rating) when the tournament starts.
enum class Pairing : std::uint8_t { partners, by_rating };
enum class TournamentState : std::uint8_t { draft, registration, running, finished, cancelled };

std::string_view to_string(TournamentFormat f);
std::string_view to_string(NoShow n);
std::string_view to_string(Pairing p);
std::string_view to_string(TournamentState s);

/// Limits (docs/protocol.md "Tournaments"): teams per format and the name's length.
inline constexpr int kKnockoutMinTeams = 4, kKnockoutMaxTeams = 64;
inline constexpr int kRoundRobinMinTeams = 3, kRoundRobinMaxTeams = 8;
inline constexpr std::size_t kTournamentNameMax = 64;  ///< bytes of UTF-8
/// Tournaments not finished nor cancelled at once, over the server, per organiser, and per
/// organiser's address (the peer's IP address: many guest names from one address cannot take
/// every server slot; a tournament resumed after a restart counts for no address).
inline constexpr int kMaxLiveTournaments = 100, kMaxToursPerOrganiser = 2, kMaxToursPerAddress = 4;

/// What the organiser chooses when creating a tournament.
struct TournamentSettings {
    std::string name;                 ///< 1..kTournamentNameMax bytes
    TournamentFormat format = TournamentFormat::knockout;
    Preset preset = Preset::levantine;
    int target = 31;                  ///< points to win a match, 1..500
    int turn_seconds = 30;            ///< 0 = no turn timer, else 1..600
    int seat_seconds = 120;           ///< time to take the seats of a match, 10..3600
    NoShow no_show = NoShow::forfeit;
    Pairing pairing = Pairing::partners;
    int size = 8;                     ///< teams at most (the format's range)
    std::int64_t start_ms = 0;        ///< announced start time (Unix ms; 0 = when the organiser starts)
};

/// One team: two players (a bot is "bot:KIND", e.g. "bot:heuristic") and its rating (the
/// mean of its players' ratings when entered: store/rating.hpp's mean_rating).
struct TournamentTeam {
    std::array<std::string, 2> players;
    double rating = kStartRating;
    int seed = 0;                     ///< 1-based once the tournament starts, 0 before
};

/// A team entered with a person who has not accepted yet (docs/protocol.md "Tournaments"):
/// it counts (becomes a TournamentTeam) once both players accepted. A bot accepts at once,
/// and so does the player who entered it; the organiser entering two people accepts for
/// neither. An invitation never keeps its invitee from entering otherwise: entering with
/// another partner drops it.
struct TournamentInvite {
    std::array<std::string, 2> players;
    std::array<bool, 2> accepted{};
};
/// Pending invitations a tournament keeps at most (over it, `tournament_full`).
inline constexpr int kMaxTournamentInvites = 128;

/// One match of the schedule. Sides are team indices (into teams()), nullopt while unknown
/// (knockout: the previous round is not over) or for a bye.
struct TournamentMatch {
    enum class State : std::uint8_t { waiting, ready, playing, done };
    int round = 0;                    ///< 0-based
    int slot = 0;                     ///< position in its round
    std::array<std::optional<int>, 2> teams;
    State state = State::waiting;
    std::string table;                ///< the live table while playing (and after)
    std::int64_t seats_by_ms = 0;     ///< playing: the teams must be seated by then (Unix ms)
    int winner = -1;                  ///< done: side 0 or 1, -1 for a draw (round-robin) or none
    std::array<int, 2> scores{};
    std::string record;               ///< done: the stored match's id ("" for a bye or forfeit)
    bool bye = false;                 ///< done without a match: one side had a bye
    std::array<bool, 2> forfeited{};  ///< done: the side did not take its seats
    bool tiebreak = false;            ///< done: a draw at the cap went to the last round's winner
};

/// One row of a round-robin's table of results, in standing order.
struct Standing {
    int team = 0;
    int played = 0, won = 0, drawn = 0, lost = 0;
    int points = 0;                   ///< 2 a win, 1 a draw
    int difference = 0;               ///< match points for minus against
};

class Tournament {
public:
    /// A tournament in registration (state registration). Settings are checked by check().
    Tournament(std::string id, std::string organiser, TournamentSettings settings);

    /// Why `s` is not a valid tournament (a short reason), or nullopt when it is.
    static std::optional<std::string> check(const TournamentSettings& s);

    const std::string& id() const { return id_; }
    const std::string& organiser() const { return organiser_; }
    const TournamentSettings& settings() const { return settings_; }
    TournamentState state() const { return state_; }
    const std::vector<TournamentTeam>& teams() const { return teams_; }
    /// Single players waiting to be paired (Pairing::by_rating), with their ratings.
    const std::vector<std::pair<std::string, double>>& singles() const { return singles_; }
    const std::vector<TournamentMatch>& matches() const { return matches_; }
    /// Rounds in the schedule (knockout: log2 of the bracket size).
    int rounds() const { return rounds_; }
    /// The match rules: the preset and target, and for a knockout the bracket tie-break.
    Rules rules() const;

    // ---- registration (each returns an error code of docs/protocol.md, or nullopt) ----------
    /// Opens or closes registration (registration ↔ draft). Errors: tournament_started.
    std::optional<std::string> set_registration(bool open);
    /// Enters a team (Pairing::partners) or a single player (by_rating: `players[1]` empty).
    /// Names are the players' own (the hall resolves them as sign-in does, names.hpp).
    /// `accepted[i]`: player i agreed (the sender, or a bot); a team with a player who has not
    /// is kept as an invitation (invites()) until that player enters naming the same team, or
    /// sends `tournament_accept`. `rating` is the team's (or single's) rating, used when it
    /// counts. Errors: registration_closed, tournament_full, already_entered, bad_team.
    std::optional<std::string> enter(std::array<std::string, 2> players, std::array<bool, 2> accepted, double rating);
    /// The invitation waiting for `player`'s answer (the first, in order of entry), if any.
    std::optional<std::array<std::string, 2>> invitation_for(const std::string& player) const;
    /// `player` accepts its invitation: the team counts when both accepted, with `rating`.
    /// Errors: registration_closed, not_invited, already_entered, tournament_full.
    std::optional<std::string> accept(const std::string& player, double rating);
    /// Invitations not accepted by both yet.
    const std::vector<TournamentInvite>& invites() const { return invites_; }
    /// Whether `player` can still play a match of this tournament: entered (in a team, as a
    /// single, or having accepted an invitation) before the start; in a team not knocked out
    /// while running. False once finished or cancelled.
    bool plays_on(const std::string& player) const;
    /// Withdraws the team or single player that `player` belongs to, and the invitations that
    /// name it (declining them). Errors: registration_closed, not_entered.
    std::optional<std::string> withdraw(const std::string& player);
    /// Seeds the teams and makes the schedule (state running); byes are decided at once.
    /// Errors: tournament_started, not_enough_teams.
    std::optional<std::string> start();
    /// Cancels (state cancelled); the hall closes the tables that are playing. Errors:
    /// tournament_over.
    std::optional<std::string> cancel();

    // ---- matches ------------------------------------------------------------------------
    /// The matches whose two teams are known and which have no table yet (indices).
    std::vector<int> ready() const;
    /// The hall opened `table` for ready match `m` at `now` (Unix ms): the seat time starts.
    void opened(int m, std::string table, std::int64_t now);
    /// Playing match `m` lost its table (it could not be resumed): ready again, for a new one.
    void reopen(int m);
    /// The match playing at `table`, if any.
    std::optional<int> match_at(const std::string& table) const;
    /// Playing matches whose seat time ran out at `now` and that have not started (the hall
    /// says which have started through started()).
    std::vector<int> seat_time_over(std::int64_t now) const;
    /// Match `m`'s table started its match: no forfeit any more.
    void started(int m);
    bool has_started(int m) const { return started_.count(m) != 0; }
    /// The finished match at match `m`'s table: `winner` side (0/1, -1 none), its scores, whether
    /// the bracket tie-break decided it, the stored record's id. Ignored (false) unless `m` is
    /// playing: a result is counted once.
    bool finished(int m, int winner, std::array<int, 2> scores, bool tiebreak, std::string record);
    /// Match `m`'s sides `absent` did not take their seats in time (NoShow::forfeit). Ignored
    /// (false) unless `m` is playing.
    bool forfeit(int m, std::array<bool, 2> absent);

    // ---- results ------------------------------------------------------------------------
    /// Round-robin: the table of results in standing order (the rules above). Knockout: empty.
    std::vector<Standing> standings() const;
    /// The winning team once finished (knockout: the final's winner; round-robin: the first of
    /// the standings), else nullopt.
    std::optional<int> champion() const;
    /// The team of `player` (a team index), if any.
    std::optional<int> team_of(const std::string& player) const;

    // ---- JSON (the journal, and what clients see: no card anywhere) ------------------------
    nlohmann::json to_json() const;
    /// The tournament written by to_json(); nullopt for anything malformed.
    static std::optional<Tournament> from_json(const nlohmann::json& j);

private:
    // The pairing, seeding and schedule rules (src/server/tournament_bracket.cpp).
    /// Pairing::by_rating: the single players, sorted by rating (equal ratings keep the order
    /// of entry), paired 1st with 2nd, 3rd with 4th...; each team's rating is the pair's mean.
    void pair_singles();
    /// Sorts the teams by rating (equal ratings keep the order of entry): team index = seed − 1.
    void seed_teams();
    /// The knockout bracket (every round's matches, the first round's sides and byes).
    void schedule_knockout();
    /// Every round of the round-robin (the circle method).
    void schedule_round_robin();
    /// Decides byes, moves winners on, opens the next round-robin round, finishes the tournament.
    void settle();
    void done(int m, int winner);
    /// Whether `player` is in a team, a single, or has accepted an invitation.
    bool entered(const std::string& player) const;
    /// Drops every invitation naming `player` (a person: bots are never dropped for).
    void drop_invites(const std::string& player);
    int max_teams() const;
    int min_teams() const;

    std::string id_;
    std::string organiser_;
    TournamentSettings settings_;
    TournamentState state_ = TournamentState::registration;
    std::vector<TournamentTeam> teams_;
    std::vector<std::pair<std::string, double>> singles_;
    std::vector<TournamentInvite> invites_;
    std::vector<TournamentMatch> matches_;
    std::set<int> started_;
    int rounds_ = 0;
};

/// The standard bracket order of P seeds (P a power of two): slot i of the first round holds
/// seed order[i] (1-based), so that match k is order[2k] against order[2k+1]; for P = 8:
/// 1 8 4 5 2 7 3 6.
std::vector<int> bracket_order(int slots);

/// A sentence for people for a tournament error code (docs/protocol.md "Tournaments"), "" for
/// another code. Clients switch on the code; this is the error message's text.
std::string_view tournament_error_text(std::string_view code);

/// Settings from a client's `tournament_create` message (docs/protocol.md); nullopt for any
/// field of the wrong type or out of range.
std::optional<TournamentSettings> parse_tournament_settings(const nlohmann::json& j);
nlohmann::json tournament_settings_json(const TournamentSettings& s);

}  // namespace tarneeb::server
