// The History screen: the signed-in guest's finished matches (`GET /api/players/{name}/matches`)
// and the newest finished public matches, page by page (`GET /api/matches?limit=N&before=ID`,
// docs/protocol.md "HTTP endpoints"). Each row opens the match's replay (#/replay/{id}).
import { num, t } from './i18n';
import type { FetchFn } from './analysis';
import { rt } from './replay_i18n';
import { esc, ltr } from './util';
import { lang } from './i18n';
import { recordNameHtml } from './bot_levels';

/** A finished match as the two lists send it (the public list adds rules and players; a player's list adds seat). */
export interface MatchRow {
  id: string;
  table?: string;
  finished?: number; // Unix ms
  rules?: string;
  players?: string[];
  seat?: number;
  status?: string;
  winner?: 0 | 1 | null;
  scores?: [number, number];
  rated?: boolean; // it changed ratings (a rated table, four people, played to its end)
}

export interface HistoryState {
  mine: MatchRow[] | null;
  mineError: string | null;
  pub: MatchRow[];
  next: string | null;
  pubLoaded: boolean;
  pubError: string | null;
  loading: boolean;
}

export const emptyHistory = (): HistoryState => ({
  mine: null, mineError: null, pub: [], next: null, pubLoaded: false, pubError: null, loading: false,
});

/** Rows per page of public matches. */
export const PAGE = 20;

export const publicUrl = (before: string | null, limit = PAGE): string =>
  `/api/matches?limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ''}`;
export const mineUrl = (name: string): string => `/api/players/${encodeURIComponent(name)}/matches`;

async function getJson(fetchFn: FetchFn, url: string): Promise<Record<string, unknown>> {
  const r = await fetchFn(url);
  const body = (await r.json().catch(() => ({}))) as Record<string, unknown>;
  if (r.status !== 200) throw new Error(String(body?.error ?? r.status));
  return body;
}

/** The signed-in guest's matches, newest first. */
export async function loadMine(fetchFn: FetchFn, name: string): Promise<MatchRow[]> {
  const b = await getJson(fetchFn, mineUrl(name));
  return Array.isArray(b.matches) ? (b.matches as MatchRow[]) : [];
}

/** One page of public matches and the cursor of the next (null: no more). */
export async function loadPublic(fetchFn: FetchFn, before: string | null): Promise<{ rows: MatchRow[]; next: string | null }> {
  const b = await getJson(fetchFn, publicUrl(before));
  return { rows: Array.isArray(b.matches) ? (b.matches as MatchRow[]) : [], next: typeof b.next === 'string' ? b.next : null };
}

const team = (t: 0 | 1) => rt(t === 0 ? 'teamA' : 'teamB');
const signed = (x: number) => ltr(num(x < 0 ? `-${Math.abs(x)}` : x));

export function dateText(ms: number | undefined): string {
  if (typeof ms !== 'number') return '';
  try {
    return new Date(ms).toLocaleString(lang() === 'ar' ? 'ar' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' });
  } catch {
    return new Date(ms).toISOString();
  }
}

function rowHtml(r: MatchRow): string {
  const winner =
    r.status === 'won' && (r.winner === 0 || r.winner === 1) ? `${team(r.winner)} ${rt('teamWins')}` : r.status === 'drawn' ? rt('drawn') : r.status === 'closed' ? rt('closed') : esc(r.status ?? '');
  // a row of my own matches: my seat's outcome beside the winner
  const mine =
    r.seat !== undefined && r.status === 'won' && (r.winner === 0 || r.winner === 1)
      ? ` · ${rt(r.winner === r.seat % 2 ? 'youWon' : 'youLost')}`
      : '';
  const players = r.players?.length
    ? r.players.map((p, i) => `<span class="${i % 2 ? 'team1' : 'team0'}">${recordNameHtml(p)}</span>`).join(' · ')
    : r.seat !== undefined
      ? `${rt('seat')} ${num(r.seat + 1)} (${team((r.seat % 2) as 0 | 1)})`
      : '';
  const rules = r.rules ? esc(r.rules === 'classic' ? (lang() === 'ar' ? 'كلاسيكي' : 'Classic') : lang() === 'ar' ? 'شامي' : 'Levantine') : '';
  const score = r.scores ? `${team(0)} ${signed(r.scores[0])} – ${team(1)} ${signed(r.scores[1])}` : '';
  return `<li class="mrow"><a href="#/replay/${encodeURIComponent(r.id)}" data-match="${esc(r.id)}">
    <span class="mdate">${esc(dateText(r.finished))}</span>
    <span class="mplayers">${players}</span>
    <span class="mrules">${rules}</span>
    <span class="mscore">${score}</span>
    <span class="mwinner">${winner}${mine}</span>
    ${r.rated === undefined ? '' : `<span class="tag ${r.rated ? 'rated' : 'casual'}" data-testid="match-rated">${t(r.rated ? 'rated' : 'casual')}</span>`}</a></li>`;
}

function listHtml(rows: MatchRow[], testid: string): string {
  return rows.length ? `<ul class="mlist" data-testid="${testid}">${rows.map(rowHtml).join('')}</ul>` : `<p class="muted">${rt('noMatches')}</p>`;
}

/** The screen: my matches (when signed in), the public ones with a "more" button, a record file to open. */
export function historyHtml(h: HistoryState, name: string | null): string {
  const mine = !name
    ? `<p class="muted">${rt('signInForMine')}</p>`
    : h.mineError
      ? `<p role="alert">${rt('listFailed')}: ${esc(h.mineError)}</p>`
      : h.mine === null
        ? `<p class="muted">${rt('loading')}</p>`
        : listHtml(h.mine, 'my-matches');
  const pub = h.pubError
    ? `<p role="alert">${rt('listFailed')}: ${esc(h.pubError)}</p>`
    : !h.pubLoaded
      ? `<p class="muted">${rt('loading')}</p>`
      : listHtml(h.pub, 'public-matches');
  return `<div class="lobby-cols history-cols">
    <section class="panel"><h2>${rt('myMatches')}</h2>${mine}</section>
    <section class="panel"><h2>${rt('publicMatches')}</h2>${pub}
      ${h.next ? `<button class="small" data-ract="more" ${h.loading ? 'disabled' : ''}>${rt('more')}</button>` : ''}
    </section>
  </div>`;
}
