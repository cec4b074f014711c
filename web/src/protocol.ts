// Types of the tarneeb game protocol, version 1 (docs/protocol.md on the server side).
// Only what the browser client reads; unknown fields are ignored.

/** The protocol version this page speaks; a server whose `welcome.protocol` is higher is newer than the page. */
export const PROTOCOL_VERSION = 1;

export type Seat = 0 | 1 | 2 | 3;
export type Suit = 'S' | 'H' | 'D' | 'C';
export type Card = string; // "QS", "TH", "2C"
export type Call = 'pass' | number;

export type Action = { call: Call } | { trump: Suit } | { card: Card };

export interface SeatInfo {
  /** A bot's name tells it apart at the table: its kind and seat number, e.g. "heuristic 2" (servers from issue #14 on). */
  name: string;
  bot: boolean;
  /** A bot's kind: "heuristic", "pimc", an outside engine's name (servers from issue #14 on). */
  kind?: string;
  connected: boolean;
}

export interface TableSummary {
  table: string;
  preset: string;
  target: number;
  turn_seconds: number;
  private: boolean;
  /** Whether its match counts for ratings: four people, a table not made casual (servers from issue 27 on). */
  rated?: boolean;
  state: 'waiting' | 'playing' | 'finished';
  seats: (SeatInfo | null)[];
  spectators: number;
  match: number;
  /** A quick-play table (issue 28): present only there. */
  quick?: QuickInfo;
}

/**
 * What marks a quick-play table (docs/protocol.md "Quick play"): its pool rating and the server's
 * Unix ms when bots fill its empty seats (null once it no longer waits for people).
 */
export interface QuickInfo {
  rating: number;
  fill_at: number | null;
}

export interface Play {
  seat: Seat;
  card: Card;
}

/** A finished trick as the server sends it: its leader, its four cards in order, its winner (by the rules engine). */
export interface FinishedTrick {
  leader: Seat;
  cards: Play[];
  winner: Seat;
}

/** The trick in progress, in the same shape: its leader, its cards so far, no winner yet. */
export interface CurrentTrick {
  leader: Seat;
  cards: Play[];
  winner: null;
}

/** The highest bid so far and its bidder, as the rules engine keeps them. */
export interface StandingBid {
  bid: number;
  seat: Seat;
}

export interface RoundView {
  number: number;
  dealer: Seat;
  phase: 'auction' | 'trump' | 'play' | 'scored' | 'passed_out';
  to_act: Seat | null;
  hand?: Card[];
  calls: { seat: Seat; call: Call }[];
  /**
   * The standing bid and who holds it (the winning bid after the auction); null while nobody
   * bid. In the classic preset the dealer's equal bid holds it (servers from issue #14 on).
   */
  standing_bid?: StandingBid | null;
  /** `defenders_need`: the tricks that set the contract (servers from issue #12 on). */
  contract: { seat: Seat; bid: number; defenders_need?: number } | null;
  /** The lowest bid the seat to act may make now; null outside the auction (servers from issue #12 on). */
  lowest_bid?: number | null;
  trump: Suit | null;
  plays: Play[];
  trick: Play[];
  tricks: [number, number];
  cards_left: number[];
  points: [number, number];
  /** Every finished trick of the round, in order (servers from issue #12 on). */
  finished_tricks?: FinishedTrick[];
  /** The trick in progress (play phase only): finished_tricks + current_trick are every trick (servers from issue #14 on). */
  current_trick?: CurrentTrick | null;
}

export type GameEvent =
  | { event: 'seated'; seat: Seat; name: string; bot: boolean; kind?: string }
  | { event: 'left'; seat: Seat; name: string }
  | { event: 'match_started'; match: number }
  | { event: 'deal'; number: number; dealer: Seat }
  | { event: 'call'; seat: Seat; call: Call; timeout?: boolean }
  | { event: 'trump'; seat: Seat; trump: Suit; timeout?: boolean }
  | { event: 'card'; seat: Seat; card: Card; timeout?: boolean }
  | { event: 'trick_won'; seat: Seat; trick: number; tricks: [number, number] }
  | {
      event: 'round_scored';
      contract: { seat: Seat; bid: number };
      made: boolean;
      tricks: [number, number];
      points: [number, number];
      scores: [number, number];
    }
  | { event: 'passed_out'; number: number }
  | {
      event: 'match_over';
      status: 'won' | 'drawn' | 'closed';
      winner: 0 | 1 | null;
      scores: [number, number];
      record?: string | number | null;
    }
  | { event: 'disconnected'; seat: Seat }
  | { event: 'bot_took_over'; seat: Seat }
  | { event: 'reclaimed'; seat: Seat };

/**
 * A finished round of the match, as the table message's `history` carries it (servers from
 * issue #14 on): the public facts of the round, its tricks with their winners from the engine.
 */
export interface HistoryRound {
  number: number;
  dealer: Seat;
  calls: { seat: Seat; call: Call }[];
  contract: { seat: Seat; bid: number; made: boolean } | null;
  trump: Suit | null;
  tricks: FinishedTrick[];
  taken: [number, number];
  points: [number, number];
  totals: [number, number];
  passed_out: boolean;
}

export interface TableView {
  type: 'table';
  table: string;
  version: number;
  state: 'waiting' | 'playing' | 'finished';
  preset: string;
  target: number;
  turn_seconds: number;
  private: boolean;
  /** Whether its match counts for ratings (no hints there; servers from issue 27 on). */
  rated?: boolean;
  code?: string | null;
  /** A private table's join code, in its creator's messages only (servers from issue #14 on). */
  join_code?: string;
  you: Seat | null;
  seats: (SeatInfo | null)[];
  spectators: number;
  match: number;
  scores: [number, number];
  round: RoundView | null;
  /** The lowest and highest bid of the table's rules (servers from issue #12 on). */
  bid_range?: [number, number];
  /** How the match ended, once the table is finished (servers from issue #12 on). */
  result?: { status: 'won' | 'drawn' | 'closed'; winner: 0 | 1 | null } | null;
  legal: Action[];
  /** Your turn only: the rules' default action, what the timer would play (servers from issue #12 on). */
  default_action?: Action | null;
  deadline_ms: number | null;
  /** The time left on the turn, deadline_ms − now_ms, computed by the server (servers from issue #14 on). */
  remaining_ms?: number | null;
  /** Only while the round summary holds the new deal's first turn: ms until its clock starts (issue #14). */
  summary_ms?: number;
  /** The server's Unix ms when it built this message (servers from issue #11 on). */
  now_ms?: number;
  /** Client-side, not sent: deadline_ms on this client's clock, set on arrival (timer.ts localDeadline). */
  local_deadline_ms?: number | null;
  /** A quick-play table (issue 28). */
  quick?: QuickInfo;
  /** A quick-play table waiting for people: ms until bots fill its empty seats (issue 28). */
  fill_ms?: number | null;
  /** Client-side, not sent: when bots fill the empty seats on this client's clock, set on arrival (quick.ts fillDeadline). */
  local_fill_at?: number | null;
  timeout_action: Action | null;
  events: GameEvent[];
  /**
   * The finished rounds of the match, only when this connection does not have them yet (its
   * first message of the table, then after each round): absent means unchanged (issue #14).
   */
  history?: HistoryRound[];
}

export interface Welcome {
  type: 'welcome';
  id?: unknown;
  name: string;
  token: string;
  protocol: number;
  table: string | null;
  seat: Seat | null;
  /** The name is an account with a password (docs/protocol.md "Accounts"); absent from older servers. */
  registered?: boolean;
}

export interface ErrorMsg {
  type: 'error';
  id?: unknown;
  code: string;
  message?: string;
}

export type ServerMessage =
  | Welcome
  | TableView
  | ErrorMsg
  /** `table` and `seat`: where `quick_play` seated the guest (issue 28). */
  | { type: 'ok'; id?: unknown; version?: number; table?: string; seat?: Seat }
  | { type: 'pong'; id?: unknown }
  /** One page of the lobby: `next` is the cursor of the following page, null on the last one.
   *  Also pushed, without `id`, to a connection that sent `list` with `watch: true` (issue #14). */
  | { type: 'tables'; id?: unknown; tables: TableSummary[]; next?: string | null }
  | { type: 'created'; id?: unknown; table: string; code: string | null }
  /** The answer to `hint`: the heuristic bot's choice for the player's seat at table `version` (issue #14). */
  | { type: 'hint'; id?: unknown; version: number; action: Action }
  /** A chat line pushed to everyone at the table who may read it (issue 15, docs/protocol.md "Chat"). */
  | ({ type: 'chat'; table: string } & ChatLine)
  /** The recent lines a guest may read, sent when it arrives at a table (issue 15). */
  | { type: 'chat_history'; table: string; lines: ChatLine[] }
  | RatingsMessage;

/** After a rated match is stored, to everyone still at its table: each person's rating before
 *  and after it, by seat (null: a bot's seat, or a seat not rated). docs/protocol.md "ratings". */
export interface RatingsMessage {
  type: 'ratings';
  table: string;
  match: string;
  seats: ({ name: string; before: number; after: number } | null)[];
}

/** One chat line (docs/protocol.md "Chat"): free text or a quick phrase id, never both. */
export interface ChatLine {
  seq: number;
  from: string;
  seat: number | null;
  channel: 'players' | 'spectators';
  text?: string;
  phrase?: string;
  at: number;
}

export const teamOf = (seat: number): 0 | 1 => (seat % 2) as 0 | 1;
