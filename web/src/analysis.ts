// The analysis board's data: `GET /api/matches/{id}/analysis?deal=N` (docs/protocol.md), asked
// again while the server answers 202 (queued or running), and the marks of a position: the
// double-dummy value of every legal card and what each one costs its side.
//
// Values are the server's (DDS through the solver): `tricks` is what the declarer's team ends
// the deal with if that card is played and everyone then plays perfectly. A card's loss is how
// many tricks worse it is for its side than the best card: the declarer's team wants the most,
// the defenders the fewest.
import type { Card, Seat, Suit } from './protocol';
import { teamOf } from './protocol';
import { load } from './util';

/** The par of a deal as the server reports it (docs/analysis.md); shown field by field. */
export interface Par {
  passed_out?: boolean;
  declarer?: Seat | null;
  bid?: number | null;
  trump?: Suit | null;
  tricks?: number | null;
  points?: [number, number];
}

/** One position of the deal's play: `index` cards were played before it, `seat` is to play. */
export interface AnalysedPosition {
  index: number;
  seat: Seat;
  played: Card;
  cards: { card: Card; tricks: number }[];
  best?: unknown;
  cost: number;
}

/** The analysis of one deal (200 answer). */
export interface DealAnalysis {
  match: string;
  deal: number;
  declarer: Seat | null;
  bid: number | null;
  trump: Suit | null;
  made: boolean | null;
  taken: [number, number];
  par: Par;
  positions: AnalysedPosition[];
  /** The first card after which the contract's double-dummy outcome changed; `makes`: the outcome after it. */
  turning_point: { index: number; seat: Seat; cost: number; makes?: boolean } | null;
}

export type AnalysisState =
  | { status: 'pending'; phase: 'queued' | 'running' }
  | { status: 'ready'; data: DealAnalysis }
  | { status: 'error'; code: 'analysis_busy' | 'not_found' | 'failed' | 'error'; message?: string };

/** The marks of one legal card: its value (declarer's team's tricks) and what it loses for its side. */
export interface CardMark {
  card: Card;
  tricks: number;
  loss: number;
}

export interface PositionMarks {
  seat: Seat;
  declarerSide: boolean;
  cards: CardMark[];
  /** The card actually played here and what it lost. */
  played: Card;
  cost: number;
}

/** The marks at the position after `cards` cards of the deal, or null when the analysis has none. */
export function marksAt(a: DealAnalysis, cards: number): PositionMarks | null {
  const p = a.positions.find((x) => x.index === cards);
  if (!p || p.cards.length === 0 || a.declarer === null) return null;
  const declarerSide = teamOf(p.seat) === teamOf(a.declarer);
  const values = p.cards.map((c) => c.tricks);
  const best = declarerSide ? Math.max(...values) : Math.min(...values);
  return {
    seat: p.seat,
    declarerSide,
    cards: p.cards.map((c) => ({ card: c.card, tricks: c.tricks, loss: declarerSide ? best - c.tricks : c.tricks - best })),
    played: p.played,
    cost: p.cost,
  };
}

export type FetchFn = (url: string) => Promise<{ status: number; json(): Promise<unknown> }>;

/** The Authorization header of an `/api/` request: the signed-in guest's token (`welcome`, kept
 * in localStorage), so that a private table's finished match opens for its players
 * (docs/protocol.md "HTTP endpoints"); none when signed out. */
export function authHeaders(store: Storage | undefined = globalThis.localStorage): Record<string, string> {
  const token = load<string | null>(store, 'tarneeb.token', null);
  return typeof token === 'string' && /^[0-9a-f]{1,128}$/i.test(token) ? { Authorization: `Bearer ${token}` } : {};
}

/** fetch for the `/api/` reads, with the token (authHeaders). */
export const apiFetch: FetchFn = (url) => fetch(url, { headers: authHeaders() });

/** The URL of a deal's analysis. */
export const analysisUrl = (match: string, deal: number): string =>
  `/api/matches/${encodeURIComponent(match)}/analysis?deal=${deal}`;

/** How long to wait before asking again: the server's retry_after_ms, kept between 100 ms and 5 s. */
export const retryDelay = (ms: unknown): number => Math.max(100, Math.min(5000, typeof ms === 'number' && ms > 0 ? ms : 1000));

/**
 * Asks for a deal's analysis until it is ready or fails, telling `onState` each step (pending,
 * then ready or an error). 202 → wait retry_after_ms and ask again; 200 → ready; 404 →
 * not_found; 503 → analysis_busy (or the error the server names); anything else → error.
 * 422 → failed (too slow, solver error: not retried by the server).
 * `cancelled()` true stops the asking (the user left the deal). `wait` is injectable (tests).
 */
export async function fetchAnalysis(
  match: string,
  deal: number,
  onState: (s: AnalysisState) => void,
  {
    fetchFn = apiFetch,
    wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
    cancelled = () => false,
    maxPolls = 600,
  }: { fetchFn?: FetchFn; wait?: (ms: number) => Promise<void>; cancelled?: () => boolean; maxPolls?: number } = {},
): Promise<AnalysisState> {
  const done = (s: AnalysisState) => {
    if (!cancelled()) onState(s);
    return s;
  };
  for (let i = 0; i < maxPolls && !cancelled(); i++) {
    let res: Awaited<ReturnType<FetchFn>>;
    let body: Record<string, unknown>;
    try {
      res = await fetchFn(analysisUrl(match, deal));
      body = ((await res.json().catch(() => ({}))) ?? {}) as Record<string, unknown>;
    } catch (e) {
      return done({ status: 'error', code: 'error', message: (e as Error).message });
    }
    if (res.status === 200) return done({ status: 'ready', data: body as unknown as DealAnalysis });
    if (res.status === 202) {
      if (!cancelled()) onState({ status: 'pending', phase: body.status === 'running' ? 'running' : 'queued' });
      await wait(retryDelay(body.retry_after_ms));
      continue;
    }
    if (res.status === 404) return done({ status: 'error', code: 'not_found' });
    if (res.status === 422) return done({ status: 'error', code: 'failed', message: String(body.error ?? '') });
    if (res.status === 503 && (body.error === undefined || body.error === 'analysis_busy')) return done({ status: 'error', code: 'analysis_busy' });
    return done({ status: 'error', code: 'error', message: String(body.error ?? res.status) });
  }
  return done({ status: 'error', code: 'error', message: 'timeout' });
}
