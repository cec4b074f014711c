// The leaderboard (#/leaderboard) and players' profiles (#/player/{name}) (issue 15), from
// GET /api/leaderboard and GET /api/players/{name} (docs/protocol.md "Profiles"). They draw
// into their own element, beside the game (which stays mounted, hidden), like the history and
// replay screens (replay.ts). Every name and value from the server is escaped (esc) or written
// as text; the rating chart is an SVG drawn here, no chart library.
import { lang, num, type Lang } from './i18n';
import { st } from './social_i18n';
import { esc } from './util';

export type SocialRoute = { screen: 'leaderboard' } | { screen: 'player'; name: string } | null;

/** The screen a location hash names: `#/leaderboard`, `#/player/{name}` (URI-encoded), else null. */
export function parseSocialRoute(hash: string): SocialRoute {
  const h = hash.replace(/^#/, '');
  if (h === '/leaderboard' || h === '/leaderboard/') return { screen: 'leaderboard' };
  const m = /^\/player\/([^/]+)\/?$/.exec(h);
  if (!m) return null;
  try {
    return { screen: 'player', name: decodeURIComponent(m[1]) };
  } catch {
    return null;
  }
}

export const playerHash = (name: string): string => `#/player/${encodeURIComponent(name)}`;

export interface BoardRow {
  name: string;
  rating: number;
  matches: number;
  wins: number;
  registered?: boolean;
}

export interface ProfileMatch {
  id: string;
  table: string;
  finished: number;
  rules: string;
  seat: number;
  players: string[];
  status: string;
  winner: number | null;
  scores: [number, number];
  won: boolean;
}

export interface Profile {
  name: string;
  registered: boolean;
  rating: number;
  matches: number;
  wins: number;
  contracts: { bid: number; made: number };
  bids: number;
  average_bid: number | null;
  rating_history: { match: string; finished: number; rating: number }[];
  recent_matches: ProfileMatch[];
  tournaments: ProfileTournament[];
}

/** A tournament the player entered (docs/protocol.md "Profiles"). */
export interface ProfileTournament {
  id: string;
  name: string;
  format: string;
  state: string;
  partner: string | null;
  champion: boolean;
}

/**
 * The rating chart: one point per rated public match, oldest first, as an SVG polyline scaled to
 * the lowest and highest rating (at least 20 points apart, so a flat line stays readable), with
 * the two bounds written on the axis. Each point has a <title> with its rating and match id.
 */
export function ratingChartSvg(points: { match: string; rating: number }[], l: Lang = lang(), w = 480, h = 160): string {
  if (points.length === 0) return '';
  const pad = { left: 44, right: 10, top: 10, bottom: 16 };
  const rs = points.map((p) => p.rating);
  let lo = Math.min(...rs);
  let hi = Math.max(...rs);
  if (hi - lo < 20) {
    const mid = (hi + lo) / 2;
    lo = mid - 10;
    hi = mid + 10;
  }
  const x = (i: number) => pad.left + (points.length === 1 ? (w - pad.left - pad.right) / 2 : (i * (w - pad.left - pad.right)) / (points.length - 1));
  const y = (r: number) => pad.top + ((hi - r) * (h - pad.top - pad.bottom)) / (hi - lo);
  const f = (v: number) => v.toFixed(1);
  const line = points.map((p, i) => `${f(x(i))},${f(y(p.rating))}`).join(' ');
  const dots = points
    .map(
      (p, i) =>
        `<circle cx="${f(x(i))}" cy="${f(y(p.rating))}" r="3"><title>${esc(num(p.rating, l))} · ${esc(p.match)}</title></circle>`,
    )
    .join('');
  return `<svg class="rating-chart" data-testid="rating-chart" viewBox="0 0 ${w} ${h}" width="100%" role="img" aria-label="${esc(
    st('ratingHistory', l),
  )}" data-points="${points.length}">
    <line class="axis" x1="${pad.left}" y1="${pad.top}" x2="${pad.left}" y2="${h - pad.bottom}"/>
    <line class="axis" x1="${pad.left}" y1="${h - pad.bottom}" x2="${w - pad.right}" y2="${h - pad.bottom}"/>
    <text x="${pad.left - 4}" y="${pad.top + 8}" text-anchor="end">${esc(num(Math.round(hi), l))}</text>
    <text x="${pad.left - 4}" y="${h - pad.bottom}" text-anchor="end">${esc(num(Math.round(lo), l))}</text>
    <polyline points="${line}" fill="none"/>${dots}
  </svg>`;
}

type FetchFn = (url: string) => Promise<Response>;

interface LoadState<T> {
  key: string;
  data: T | null;
  error: string | null;
}

/** The leaderboard and profile screens. */
export class SocialScreens {
  private route: SocialRoute = null;
  private board: LoadState<BoardRow[]> | null = null;
  private profile: LoadState<Profile> | null = null;

  constructor(
    private el: HTMLElement,
    private game: HTMLElement,
    private host: { state: { lang: Lang; name?: string | null; registered?: boolean; welcomed?: boolean } },
    private fetchFn: FetchFn = (u) => fetch(u),
  ) {
    globalThis.addEventListener?.('hashchange', () => this.onRoute());
    this.onRoute();
  }

  active(): boolean {
    return this.route !== null;
  }

  private onRoute(): void {
    this.route = parseSocialRoute(location.hash);
    this.el.hidden = !this.route;
    // The history and replay screens show or hide the game on their routes; on ours it is hidden.
    if (this.route) this.game.hidden = true;
    if (this.route?.screen === 'leaderboard') this.loadBoard();
    else if (this.route?.screen === 'player') this.loadProfile(this.route.name);
    this.render();
  }

  private loadBoard(): void {
    this.board = { key: 'board', data: null, error: null };
    this.fetchFn('/api/leaderboard')
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((j: { players: BoardRow[] }) => {
        this.board = { key: 'board', data: j.players ?? [], error: null };
        this.render();
      })
      .catch((e: Error) => {
        this.board = { key: 'board', data: null, error: e.message };
        this.render();
      });
  }

  private loadProfile(name: string): void {
    this.profile = { key: name, data: null, error: null };
    this.fetchFn(`/api/players/${encodeURIComponent(name)}`)
      .then((r) => (r.status === 404 ? Promise.reject(new Error('no_such_player')) : r.ok ? r.json() : Promise.reject(new Error(String(r.status)))))
      .then((p: Profile) => {
        if (this.profile?.key !== name) return;
        this.profile = { key: name, data: p, error: null };
        this.render();
      })
      .catch((e: Error) => {
        if (this.profile?.key !== name) return;
        this.profile = { key: name, data: null, error: e.message };
        this.render();
      });
  }

  render(): void {
    if (!this.route) return;
    const l = this.host.state.lang;
    const top = `<header class="topbar"><h1>${esc(st(this.route.screen === 'leaderboard' ? 'leaderboard' : 'profile', l))}</h1>
      <a class="btn ghost small" href="#/leaderboard" data-testid="leaderboard-link">${esc(st('leaderboard', l))}</a>
      <a class="btn ghost small" href="#" data-testid="back-link">${esc(st('back', l))}</a></header>`;
    const s = this.host.state;
    const me = s.welcomed && s.name ? { name: s.name, registered: s.registered === true } : null;
    const body = this.route.screen === 'leaderboard' ? boardHtml(this.board, me, l) : this.profileHtml(l);
    this.el.innerHTML = `<main class="screen social">${top}${body}</main>`;
  }

  private profileHtml(l: Lang): string {
    const p = this.profile;
    if (!p || (!p.data && !p.error)) return `<p class="muted">${esc(st('loading', l))}</p>`;
    if (!p.data) return `<p class="muted" data-testid="profile-error">${esc(p.error === 'no_such_player' ? st('noSuchPlayer', l) : (p.error ?? ''))}</p>`;
    const d = p.data;
    const status = (m: ProfileMatch) =>
      m.status === 'won' ? st(m.won ? 'won' : 'lost', l) : m.status === 'drawn' ? st('drawn', l) : st('closed', l);
    const when = (ms: number) => new Date(ms).toLocaleString(l === 'ar' ? 'ar' : 'en');
    const matches = d.recent_matches.length
      ? `<ul class="profile-matches" data-testid="profile-matches">${d.recent_matches
          .map(
            (m) => `<li data-match="${esc(m.id)}"><a href="#/replay/${esc(encodeURIComponent(m.id))}">${esc(st('replay', l))} ${esc(m.id)}</a>
              · ${esc(when(m.finished))} · <span class="tag">${esc(status(m))}</span> · ${esc(num(m.scores[0], l))}–${esc(num(m.scores[1], l))}
              · ${m.players.map((n) => `<bdi>${esc(n)}</bdi>`).join(', ')}</li>`,
          )
          .join('')}</ul>`
      : `<p class="muted">${esc(st('noMatches', l))}</p>`;
    return `<section class="panel profile" data-testid="profile" data-player="${esc(d.name)}">
      <h2><bdi>${esc(d.name)}</bdi> ${d.registered ? '' : `<span class="tag">${esc(st('guest', l))}</span>`}</h2>
      <dl class="profile-stats">
        <div><dt>${esc(st('rating', l))}</dt><dd data-testid="profile-rating">${esc(num(d.rating, l))}</dd></div>
        <div><dt>${esc(st('matches', l))}</dt><dd data-testid="profile-matches-count">${esc(num(d.matches, l))}</dd></div>
        <div><dt>${esc(st('wins', l))}</dt><dd>${esc(num(d.wins, l))}</dd></div>
        <div><dt>${esc(st('contracts', l))}</dt><dd data-testid="profile-contracts">${esc(num(d.contracts.bid, l))} · ${esc(st('made', l))} ${esc(
          num(d.contracts.made, l),
        )}</dd></div>
        <div><dt>${esc(st('averageBid', l))}</dt><dd>${d.average_bid === null ? '—' : esc(num(d.average_bid, l))}</dd></div>
      </dl>
      <h3>${esc(st('ratingHistory', l))}</h3>
      ${d.rating_history.length ? ratingChartSvg(d.rating_history, l) : `<p class="muted">${esc(st('noHistory', l))}</p>`}
      <h3>${esc(st('recentMatches', l))}</h3>
      <p class="muted">${esc(st('publicOnly', l))}</p>
      ${matches}
      <h3>${esc(st('tournaments', l))}</h3>
      ${tournamentsHtml(d.tournaments ?? [], l)}
    </section>`;
  }
}

/**
 * The leaderboard page: registered players first, guests apart. The server lists only players
 * with at least one rated match (docs/protocol.md "GET /api/leaderboard"), so a registered
 * player who has played none is not on it: the page says why, and says it to that player (`me`,
 * the signed-in player) when they are not listed.
 */
export function boardHtml(
  b: { data: BoardRow[] | null; error: string | null } | null,
  me: { name: string; registered: boolean } | null,
  l: Lang,
): string {
  if (!b || (!b.data && !b.error)) return `<p class="muted">${esc(st('loading', l))}</p>`;
  if (!b.data) return `<p class="muted">${esc(b.error ?? '')}</p>`;
  const table = (rows: BoardRow[], id: string, empty: string) =>
    rows.length
      ? `<table class="board" data-testid="${id}"><thead><tr><th>${esc(st('rank', l))}</th><th>${esc(st('player', l))}</th><th>${esc(
          st('rating', l),
        )}</th><th>${esc(st('matches', l))}</th><th>${esc(st('wins', l))}</th></tr></thead><tbody>${rows
          .map(
            (r, i) =>
              `<tr data-player="${esc(r.name)}"${me && r.name === me.name ? ' class="me"' : ''}><td>${esc(num(i + 1, l))}</td><td><a href="${esc(playerHash(r.name))}"><bdi>${esc(
                r.name,
              )}</bdi></a></td><td>${esc(num(r.rating, l))}</td><td>${esc(num(r.matches, l))}</td><td>${esc(num(r.wins, l))}</td></tr>`,
          )
          .join('')}</tbody></table>`
      : `<p class="muted" data-testid="${id}-empty">${esc(empty)}</p>`;
  const reg = b.data.filter((r) => r.registered);
  const guests = b.data.filter((r) => !r.registered);
  const listed = me !== null && b.data.some((r) => r.name === me.name);
  const note =
    me && !listed
      ? `<p class="panel board-note" role="note" data-testid="board-me">${esc(st(me.registered ? 'youNotYet' : 'youGuestNotYet', l))}</p>`
      : '';
  return `${note}<section class="panel"><h2>${esc(st('registered', l))}</h2>${table(reg, 'board-registered', st('noRegistered', l))}
      <p class="muted board-rule" data-testid="board-rule">${esc(st('boardRule', l))}</p></section>
      <section class="panel"><h2>${esc(st('guests', l))}</h2>${table(guests, 'board-guests', st('noPlayers', l))}</section>`;
}

/** The profile's tournaments: each linked to its page (#/tournaments/{id}), with the partner. */
export function tournamentsHtml(list: ProfileTournament[], l: Lang): string {
  if (!list.length) return `<p class="muted">${esc(st('noTournaments', l))}</p>`;
  return `<ul class="profile-tournaments" data-testid="profile-tournaments">${list
    .map(
      (t) => `<li data-tournament="${esc(t.id)}"><a href="#/tournaments/${esc(encodeURIComponent(t.id))}"><bdi>${esc(t.name || t.id)}</bdi></a>
        ${t.partner ? `· ${esc(st('partner', l))} <bdi>${esc(t.partner)}</bdi>` : ''}${t.champion ? ` · <span class="tag">${esc(st('champion', l))}</span>` : ''}</li>`,
    )
    .join('')}</ul>`;
}
