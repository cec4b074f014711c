// Tournaments in the browser (issue 15; docs/protocol.md "Tournaments"): the list, the create
// form, a tournament's live bracket (knockout) or table of results (round-robin), and every
// finished match's record (#/replay/{id}). The shapes the server sends and the HTML, as pure
// functions; tournament_screen.ts draws them and sends the requests. All text is escaped.
import { lang, num } from './i18n';
import { DEFAULT_LEVEL, badgeHtml, botText, levelPickerHtml, lw, tournamentBotShown, type Level } from './bot_levels';
import { tt } from './tournament_i18n';
import { esc, ltr } from './util';
import { trophyIcon } from './icons';

export interface TTeam {
  players: [string, string];
  rating: number;
  seed: number;
}

export interface TMatch {
  round: number;
  slot: number;
  teams: [number | null, number | null];
  state: 'waiting' | 'ready' | 'playing' | 'done';
  table: string;
  seats_by: number;
  started: boolean;
  winner: number; // side 0/1, -1 none or a draw
  scores: [number, number];
  record: string;
  bye: boolean;
  forfeited: [boolean, boolean];
  tiebreak: boolean;
  live?: [number, number]; // playing: the score so far
}

/** A team with a person who has not accepted yet. */
export interface TInvite {
  players: [string, string];
  accepted: [boolean, boolean];
}

export interface TStanding {
  team: number;
  played: number;
  won: number;
  drawn: number;
  lost: number;
  points: number;
  difference: number;
}

export interface TSettings {
  name: string;
  format: 'knockout' | 'round_robin';
  preset: string;
  target: number;
  turn_seconds: number;
  seat_seconds: number;
  no_show: 'forfeit' | 'bots';
  pairing: 'partners' | 'by_rating';
  size: number;
  start: number;
}

export type TState = 'draft' | 'registration' | 'running' | 'finished' | 'cancelled';

export interface Tournament {
  id: string;
  organiser: string;
  settings: TSettings;
  state: TState;
  teams: TTeam[];
  singles: { name: string; rating: number }[];
  invites?: TInvite[];
  rounds: number;
  matches: TMatch[];
  standings?: TStanding[];
  champion: number | null;
}

export interface TSummary {
  id: string;
  name: string;
  format: 'knockout' | 'round_robin';
  state: TState;
  organiser: string;
  teams: number;
  size: number;
  start: number;
  champion: [string, string] | null;
}

export type TRoute = { screen: 'tournaments' } | { screen: 'tournament'; id: string } | null;

/** The tournament screen a location hash asks for (null: not one of ours). */
export function parseTournamentRoute(hash: string): TRoute {
  const h = hash.replace(/^#/, '');
  if (h === '/tournaments' || h === '/tournaments/') return { screen: 'tournaments' };
  const m = /^\/tournaments\/([^/]+)\/?$/.exec(h);
  return m ? { screen: 'tournament', id: decodeURIComponent(m[1]) } : null;
}

export const tournamentHash = (id: string): string => `#/tournaments/${encodeURIComponent(id)}`;

/** The create request from the form's fields (numbers as numbers; the server checks ranges). */
export function createMessage(f: Record<string, string>): Record<string, unknown> {
  const int = (k: string, d: number) => (Number.isFinite(Number(f[k])) && f[k] !== '' ? Math.trunc(Number(f[k])) : d);
  return {
    type: 'tournament_create',
    name: (f.name ?? '').trim(),
    format: f.format === 'round_robin' ? 'round_robin' : 'knockout',
    preset: f.preset === 'classic' ? 'classic' : 'levantine',
    target: int('target', 31),
    turn_seconds: int('turn_seconds', 30),
    seat_seconds: int('seat_seconds', 120),
    no_show: f.no_show === 'bots' ? 'bots' : 'forfeit',
    pairing: f.pairing === 'by_rating' ? 'by_rating' : 'partners',
    size: int('size', 8),
  };
}

/** A player as shown: a person by name; a bot "bot:hard" as "Bot · hard" (its level; "bot:heuristic": medium). */
export function playerText(p: string): string {
  const b = tournamentBotShown(p);
  return b ? botText(b) : p;
}

/**
 * A team as shown: its people's names; a team of two bots by its number and its level badge, e.g.
 * "Bot team 3 [medium]" (eight teams of bots are told apart).
 */
export function teamHtml(t: Tournament, team: number | null, me: string | null): string {
  if (team === null || !t.teams[team]) return `<span class="muted">${tt('tbd')}</span>`;
  const tm = t.teams[team];
  const allBots = tm.players.every((p) => p.startsWith('bot:'));
  const names = allBots
    ? `<bdi>${tt('botTeam')} ${num(team + 1)}</bdi> ${[...new Set(tm.players)].map((p) => badgeHtml(tournamentBotShown(p)!)).join(' ')}`
    : tm.players.map((p) => `<bdi${p === me ? ' class="me"' : ''}>${esc(playerText(p))}</bdi>`).join(' &amp; ');
  return `${tm.seed ? `<span class="tseed">${num(tm.seed)}</span> ` : ''}${names}`;
}

/** The round's name: Final, Semi-finals, Quarter-finals, else "Round n". */
export function roundName(t: Tournament, r: number): string {
  if (t.settings.format === 'knockout') {
    const fromEnd = t.rounds - 1 - r;
    if (fromEnd === 0) return tt('final');
    if (fromEnd === 1) return tt('semi');
    if (fromEnd === 2) return tt('quarter');
  }
  return `${tt('round')} ${num(r + 1)}`;
}

/** The seat reserved for `me` at match `m` (side s, player p → seat s + 2p), or null. */
export function mySeat(t: Tournament, m: TMatch, me: string | null): number | null {
  if (!me) return null;
  for (let s = 0; s < 2; s++) {
    const team = m.teams[s];
    if (team === null || !t.teams[team]) continue;
    const p = t.teams[team].players.indexOf(me);
    if (p >= 0) return s + 2 * p;
  }
  return null;
}

export function matchHtml(t: Tournament, m: TMatch, index: number, me: string | null): string {
  const side = (s: 0 | 1) => {
    const won = m.state === 'done' && m.winner === s;
    const score =
      m.state === 'done' && !m.bye
        ? `<span class="tscore">${ltr(num(m.scores[s]))}</span>`
        : m.state === 'playing' && m.live
          ? `<span class="tscore tlivescore" title="${tt('live')}" data-testid="live-score">${ltr(num(m.live[s]))}</span>`
          : '';
    const mark = m.forfeited[s] ? ` <span class="tflag">${tt('forfeited')}</span>` : '';
    const label = m.bye && m.teams[s] === null ? `<span class="muted">${tt('bye')}</span>` : teamHtml(t, m.teams[s], me);
    return `<div class="tside${won ? ' twon' : ''}">${label}${mark}${score}</div>`;
  };
  const links: string[] = [];
  if (m.state === 'playing' && m.table) {
    const seat = mySeat(t, m, me);
    if (seat !== null && !m.started)
      links.push(`<button class="small" data-tact="sit" data-table="${esc(m.table)}" data-seat="${seat}" data-testid="sit">${tt('sit')}</button>`);
    links.push(`<button class="small ghost" data-tact="watch" data-table="${esc(m.table)}">${tt('watch')}</button>`);
    links.push(`<span class="tlive">${tt('playing')}</span>`);
  }
  if (m.state === 'done' && m.record)
    links.push(`<a class="small" href="#/replay/${encodeURIComponent(m.record)}" data-testid="record-link">${tt('record')} <bdi>${esc(m.record)}</bdi></a>`);
  if (m.state === 'done' && m.tiebreak) links.push(`<span class="tflag">${tt('tiebreak')}</span>`);
  return `<div class="tmatch" data-testid="tmatch" data-index="${index}" data-state="${esc(m.state)}">${side(0)}${side(1)}${
    links.length ? `<div class="tlinks">${links.join(' ')}</div>` : ''
  }</div>`;
}

/** Knockout: one column per round, the matches in bracket order (byes of round 1 left out). */
export function bracketHtml(t: Tournament, me: string | null): string {
  const cols: string[] = [];
  for (let r = 0; r < t.rounds; r++) {
    const ms = t.matches
      .map((m, i) => [m, i] as const)
      .filter(([m]) => m.round === r && !(m.bye && r === 0))
      .map(([m, i]) => matchHtml(t, m, i, me))
      .join('');
    cols.push(`<section class="tround" data-round="${r}"><h3>${roundName(t, r)}</h3>${ms}</section>`);
  }
  return `<div class="bracket" data-testid="bracket">${cols.join('')}</div>`;
}

/** Round-robin: the table of results, then the matches round by round. */
export function standingsHtml(t: Tournament, me: string | null): string {
  const rows = (t.standings ?? [])
    .map(
      (s, i) => `<tr><td>${num(i + 1)}</td><td>${teamHtml(t, s.team, me)}</td><td>${num(s.played)}</td><td>${num(s.won)}</td><td>${num(
        s.drawn,
      )}</td><td>${num(s.lost)}</td><td>${num(s.points)}</td><td>${ltr(num(s.difference))}</td></tr>`,
    )
    .join('');
  const table = `<table class="tstandings" data-testid="standings"><caption>${tt('standings')}</caption>
    <thead><tr><th>#</th><th>${tt('teams')}</th><th>${tt('played')}</th><th>${tt('won')}</th><th>${tt('drawn')}</th><th>${tt('lost')}</th><th>${tt(
      'points',
    )}</th><th>${tt('difference')}</th></tr></thead><tbody>${rows}</tbody></table><p class="muted">${tt('tieRule')}</p>`;
  const rounds: string[] = [];
  for (let r = 0; r < t.rounds; r++) {
    const ms = t.matches
      .map((m, i) => [m, i] as const)
      .filter(([m]) => m.round === r)
      .map(([m, i]) => matchHtml(t, m, i, me))
      .join('');
    rounds.push(`<section class="tround" data-round="${r}"><h3>${roundName(t, r)}</h3>${ms}</section>`);
  }
  return `${table}<h2>${tt('matches')}</h2><div class="bracket rr">${rounds.join('')}</div>`;
}

export function teamsHtml(t: Tournament, me: string | null): string {
  const rows = t.teams
    .map((_, i) => `<li>${teamHtml(t, i, me)} <span class="muted">${tt('rating')} ${num(Math.round(t.teams[i].rating))}</span></li>`)
    .join('');
  const invites = (t.invites ?? []).length
    ? `<h3>${tt('invites')}</h3><ul data-testid="invites">${(t.invites ?? [])
        .map(
          (inv) =>
            `<li>${inv.players
              .map((p, i) => `<bdi${p === me ? ' class="me"' : ''}>${esc(playerText(p))}</bdi>${inv.accepted[i] ? ' ✓' : ' …'}`)
              .join(' &amp; ')}</li>`,
        )
        .join('')}</ul>`
    : '';
  const singles = t.singles.length
    ? `<h3>${tt('waitingSingles')}</h3><ul>${t.singles.map((s) => `<li><bdi>${esc(s.name)}</bdi> <span class="muted">${num(Math.round(s.rating))}</span></li>`).join('')}</ul>`
    : '';
  return `<section class="panel"><h2>${tt('teams')} <span class="muted" data-testid="team-count">${num(
    t.teams.length,
  )}/${num(t.settings.size)}</span></h2>${rows ? `<ol class="tteams">${rows}</ol>` : `<p class="muted">${tt('noTeams')}</p>`}${invites}${singles}</section>`;
}

/** The organiser's and the players' buttons for the tournament's state. */
/** The tournament's buttons for `me`; `level`: the level of the bot team the organiser adds. */
export function controlsHtml(t: Tournament, me: string | null, level: Level = DEFAULT_LEVEL): string {
  if (!me) return `<p class="muted">${tt('signInToCreate')}</p>`;
  const b: string[] = [];
  const before = t.state === 'registration' || t.state === 'draft';
  const entered =
    t.teams.some((tm) => tm.players.includes(me)) ||
    t.singles.some((s) => s.name === me) ||
    (t.invites ?? []).some((inv) => inv.players.some((p, i) => p === me && inv.accepted[i]));
  // An invitation waiting for this player's answer.
  const invite = (t.invites ?? []).find((inv) => inv.players.some((p, i) => p === me && !inv.accepted[i]));
  if (t.state === 'registration' && invite && !entered) {
    const from = invite.players.filter((p) => p !== me).map((p) => `<bdi>${esc(playerText(p))}</bdi>`).join(' &amp; ');
    b.push(`<p class="tinvite" data-testid="invitation">${from} ${tt('invitedYou')}</p>`);
    b.push(`<button data-tact="accept" data-testid="accept-invite">${tt('accept')}</button>`);
    b.push(`<button class="ghost" data-tact="withdraw" data-testid="decline-invite">${tt('decline')}</button>`);
  }
  if (t.state === 'registration' && !entered)
    b.push(`<form data-tform="enter" class="tenter">${
      t.settings.pairing === 'partners' ? `<label>${tt('partner')} <input name="partner" maxlength="64" required></label>` : ''
    }<button type="submit">${tt('enter')}</button></form>`);
  if (before && entered) b.push(`<button class="ghost" data-tact="withdraw">${tt('withdraw')}</button>`);
  if (t.organiser === me) {
    if (t.state === 'registration' && t.settings.pairing === 'partners')
      b.push(
        `${levelPickerHtml(level, lang(), 'tact')}<button class="ghost" data-tact="botteam" data-testid="add-bot-team">${tt('addBotTeam')} · ${esc(lw(level))}</button>`,
      );
    if (t.state === 'draft') b.push(`<button class="ghost" data-tact="open">${tt('open')}</button>`);
    if (t.state === 'registration') b.push(`<button class="ghost" data-tact="close">${tt('close')}</button>`);
    if (before) b.push(`<button data-tact="start" data-testid="start-tournament">${tt('start')}</button>`);
    if (before || t.state === 'running') b.push(`<button class="ghost danger" data-tact="cancel">${tt('cancel')}</button>`);
  }
  return b.length ? `<div class="tcontrols">${b.join(' ')}</div>` : '';
}

/** The tournament's page body; `level`: the level of the bot team the organiser adds. */
export function tournamentHtml(t: Tournament, me: string | null, level: Level = DEFAULT_LEVEL): string {
  const s = t.settings;
  const champ =
    t.champion !== null && t.teams[t.champion]
      ? `<p class="tchampion" data-testid="champion">${trophyIcon(null, 22)} ${tt('champion')}: ${teamHtml(t, t.champion, me)}</p>`
      : '';
  const facts = [
    tt(s.format),
    tt(s.preset === 'classic' ? 'classic' : 'levantine'),
    `${tt('target')} ${num(s.target)}`,
    `${tt('organiser')}: <bdi>${esc(t.organiser)}</bdi>`,
  ].join(' · ');
  const body = t.state === 'running' || t.state === 'finished' || (t.state === 'cancelled' && t.matches.length)
    ? s.format === 'knockout'
      ? bracketHtml(t, me)
      : standingsHtml(t, me)
    : '';
  return `<header class="thead"><h2><bdi>${esc(s.name)}</bdi> <span class="tstate" data-testid="tstate" data-state="${esc(t.state)}">${tt(
    `st_${t.state}` as const,
  )}</span></h2><p class="muted">${facts}</p>${champ}</header>${controlsHtml(t, me, level)}${body}${teamsHtml(t, me)}`;
}

export function listHtml(list: TSummary[]): string {
  if (!list.length) return `<p class="muted">${tt('noTournaments')}</p>`;
  return `<ul class="tlist" data-testid="tournament-list">${list
    .map(
      (x) => `<li><a href="${tournamentHash(x.id)}" data-tournament="${esc(x.id)}"><bdi>${esc(x.name)}</bdi></a>
        <span class="muted">${tt(x.format)} · ${num(x.teams)}/${num(x.size)} · ${tt(`st_${x.state}` as const)}${
          x.champion ? ` · ${trophyIcon(tt('champion'))} ${x.champion.map((p) => `<bdi>${esc(playerText(p))}</bdi>`).join(' &amp; ')}` : ''
        }</span></li>`,
    )
    .join('')}</ul>`;
}

export function createFormHtml(): string {
  const opt = (v: string, label: string, sel = false) => `<option value="${v}"${sel ? ' selected' : ''}>${label}</option>`;
  return `<section class="panel create"><h2>${tt('newTournament')}</h2>
    <form data-tform="create">
      <label>${tt('name')} <input name="name" maxlength="64" required></label>
      <label>${tt('format')} <select name="format">${opt('knockout', tt('knockout'), true)}${opt('round_robin', tt('round_robin'))}</select></label>
      <label>${tt('preset')} <select name="preset">${opt('levantine', tt('levantine'), true)}${opt('classic', tt('classic'))}</select></label>
      <label>${tt('target')} <input name="target" type="number" min="1" max="500" value="31"></label>
      <label>${tt('timer')} <input name="turn_seconds" type="number" min="0" max="600" value="30"></label>
      <label>${tt('seatTime')} <input name="seat_seconds" type="number" min="10" max="3600" value="120"></label>
      <label>${tt('noShow')} <select name="no_show">${opt('forfeit', tt('forfeit'), true)}${opt('bots', tt('bots'))}</select></label>
      <label>${tt('pairing')} <select name="pairing">${opt('partners', tt('partners'), true)}${opt('by_rating', tt('by_rating'))}</select></label>
      <label>${tt('size')} <input name="size" type="number" min="3" max="64" value="8"></label>
      <button type="submit">${tt('create')}</button>
    </form></section>`;
}
