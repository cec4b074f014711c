// Rendering: the state as HTML, and the page's events turned into App calls.
import { backFrom, type App, type State } from './app';
import { rt } from './replay_i18n';
import { tt } from './tournament_i18n';
import { cardBackSvg, cardSvg, sortHand, suitIcon, suitLengths } from './cards';
import { dir, latinDigits, num, parseNum, suitName, t, tableIdOf, tableLabel, type Key } from './i18n';
import { CALLS_CELL, handLayout, intoRows, positionOf, ourTeam, seatsAround, type Position } from './layout';
import { bidOptions, handCards, legalTrumps, needOf, standingBid } from './legal';
import type { Action, GameEvent, Play, Seat, SeatInfo, Suit, TableSummary, TableView } from './protocol';
import { teamOf } from './protocol';
import { formatCountdown, fractionLeft, remainingMs, urgent } from './timer';
import { esc, ltr } from './util';
import { offlineButton, offlineEntry } from './offline_view';
import { accountButtons, accountPanelHtml, accountSignInForm, onAccountAct, onAccountSubmit, type AccountInput } from './accounts';
import { inviteHtml } from './invite';
import { st } from './social_i18n';
import { connBar, signInNotice, updateBar } from './status_view';
import { rulesButton, rulesHash, rw } from './rules';
import { rulesIcon } from './icons';
import { count } from './plural';
import { ratingsHtml } from './ratings_view';
import { DEFAULT_LEVEL, botHtml, botShown, botText, levelPickerHtml, lw } from './bot_levels';

const n = (x: number) => ltr(num(x < 0 ? `-${Math.abs(x)}` : x));

/** A speaker, with waves when the sounds are on and struck through when off (no emoji font needed). */
function speakerIcon(on: boolean): string {
  return `<svg class="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>${
    on ? '<path d="M16 9a4 4 0 0 1 0 6M19 6a8 8 0 0 1 0 12"/>' : '<path d="M16 9l6 6M22 9l-6 6"/>'
  }</svg>`;
}

function langButton(s: State): string {
  return `<button class="lang" data-act="lang" data-lang="${s.lang === 'ar' ? 'en' : 'ar'}" lang="${
    s.lang === 'ar' ? 'en' : 'ar'
  }">${t('language')}</button>`;
}

function errorBar(s: State): string {
  return s.error ? `<div class="toast" role="alert">${esc(s.error)}</div>` : '';
}

// ---- sign-in ----------------------------------------------------------------------------

/** The sign-in field's limit in UTF-16 units: the server checks names (any script, at most
 * 24 columns and 64 code points: docs/protocol.md "hello"); this only stops runaway input. A
 * 24-column Arabic name with vowel marks is about 48 units, so 24 would refuse it. */
export const NAME_MAX_UNITS = 128;

/** A player's name, isolated (`<bdi>`) so that an Arabic name in English text, or a Latin one in
 * Arabic text, keeps its own direction and does not reorder the text around it. */
const nameHtml = (name: string): string => `<bdi>${esc(name)}</bdi>`;

function signInScreen(s: State): string {
  return `<main class="screen signin">
    <div class="signin-card">
      <div class="logo">${suitIcon('S', 34)}${suitIcon('H', 34)}${suitIcon('C', 34)}${suitIcon('D', 34)}</div>
      <h1>${t('signInTitle')}</h1>
      ${signInNotice(s)}
      <form data-form="signin" autocomplete="off">
        <label>${t('yourName')}
          <input name="name" data-bind="nameInput" maxlength="${NAME_MAX_UNITS}" dir="auto" required value="${esc(s.nameInput)}" autofocus>
        </label>
        <button type="submit" class="primary" ${s.busy || s.conn !== 'open' ? 'disabled' : ''}>${t('signIn')}</button>
      </form>
      ${accountSignInForm(s)}
      ${offlineEntry(s)}
      ${langButton(s)}
      <p><a href="#/history" data-testid="history-link">${rt('publicMatches')}</a> · <a href="${rulesHash()}" data-testid="rules-link">${rw('rules', s.lang)}</a></p>
    </div>
  </main>`;
}

// ---- lobby ------------------------------------------------------------------------------

/**
 * A bot seat's kind to show beside its name (issue 14: `kind`, e.g. "pimc"), or null: not a bot,
 * no kind sent (an older server), or the name already starts with it ("heuristic 2").
 */
export function botKind(seat: SeatInfo | null | undefined): string | null {
  if (!seat?.bot || typeof seat.kind !== 'string' || !seat.kind) return null;
  return seat.name.toLowerCase().startsWith(seat.kind.toLowerCase()) ? null : seat.kind;
}

/** The small label of a bot's kind, when it is shown (see botKind). */
const kindTag = (seat: SeatInfo | null | undefined): string => {
  const k = botKind(seat);
  return k ? ` <span class="tag kind" data-kind="${esc(k)}"><bdi>${esc(k)}</bdi></span>` : '';
};

/**
 * A seated player's name as shown: a person's own name; a bot as a player's name with its level
 * badge ("Bot 2" · "hard", bot_levels.ts), an outside engine by its name, kind and a bot badge.
 */
export function playerHtml(seat: SeatInfo): string {
  const b = botShown(seat);
  if (!b) return nameHtml(seat.name);
  return b.engine ? `${botHtml(b)}${kindTag(seat)}` : botHtml(b);
}

/** A seated player's name in plain text (labels for screen readers, the event log). */
export function playerText(seat: SeatInfo): string {
  const b = botShown(seat);
  return b ? botText(b) : seat.name;
}

function seatChip(seat: TableView['seats'][number]): string {
  if (!seat) return `<span class="chip free">${t('free')}</span>`;
  return `<span class="chip ${seat.bot ? 'bot' : ''}">${playerHtml(seat)}</span>`;
}

/** "rated" or "casual" (a server that does not say: nothing). */
function ratedTag(rated: boolean | undefined): string {
  if (rated === undefined) return '';
  return ` · <span class="tag ${rated ? 'rated' : 'casual'}" data-testid="rated">${t(rated ? 'rated' : 'casual')}</span>`;
}

/** Whether the hint button is offered: a turn to play, and a table whose match is not rated. */
function hintsOn(tv: TableView): boolean {
  return needOf(tv) !== 'none' && tv.rated !== true;
}

function lobbyScreen(s: State): string {
  const f = s.form;
  const row = (tb: TableSummary) => `<li class="table-row table-${tb.state === 'finished' ? 'finished' : 'open'}" data-table="${esc(tb.table)}" data-state="${esc(tb.state)}">
      <div class="table-head"><b>${esc(tableLabel(tb.table))}</b> · ${t(tb.preset === 'classic' ? 'classic' : 'levantine')} · ${t(
        'target',
      )} ${num(tb.target)} · ${tb.turn_seconds ? `${num(tb.turn_seconds)}${t('secs')}` : '∞'}${ratedTag(tb.rated)} · <span class="state-${esc(tb.state)} ${tb.state === 'finished' ? 'tag' : ''}">${
        ['waiting', 'playing', 'finished'].includes(tb.state) ? t(`st_${tb.state}` as Key) : esc(tb.state)
      }</span></div>
      <div class="table-seats">${tb.seats
        .map((st, i) =>
          st
            ? seatChip(st)
            : tb.state !== 'playing'
              ? `<button class="small" data-act="join" data-table="${esc(tb.table)}" data-seat="${i}">${t('sit')} ${num(i + 1)}</button>`
              : seatChip(null),
        )
        .join('')}
        <button class="small ghost" data-act="watch" data-table="${esc(tb.table)}">${t('watch')}</button></div>
    </li>`;
  // finished tables apart, under their own heading and marked finished: not open tables
  const open = s.tables.filter((tb) => tb.state !== 'finished').map(row).join('');
  const finished = s.tables.filter((tb) => tb.state === 'finished').map(row).join('');
  return `<main class="screen lobby">
    <header class="topbar"><h1>${t('title')}</h1><span class="me">${nameHtml(s.name ?? '')}</span>
      <a class="btn ghost small" href="#/history" data-testid="history-link">${rt('history')}</a>
      <a class="btn ghost small" href="#/leaderboard" data-testid="leaderboard-link">${st('leaderboard')}</a>
      <a class="btn ghost small" href="#/tournaments" data-testid="tournaments-link">${tt('tournaments')}</a>
      <a class="btn ghost small" href="${rulesHash()}" data-testid="rules-link">${rulesIcon()} ${rw('rules', s.lang)}</a>
      ${accountButtons(s)}${langButton(s)}<button class="ghost small" data-act="signout">${t('signOut')}</button></header>
    <div class="lobby-cols">
      <section class="panel create">
        <h2>${t('createTable')}</h2>
        <form data-form="create">
          <label>${t('preset')}
            <select data-bind="form.preset" name="preset">
              <option value="levantine" ${f.preset === 'levantine' ? 'selected' : ''}>${t('levantine')}</option>
              <option value="classic" ${f.preset === 'classic' ? 'selected' : ''}>${t('classic')}</option>
            </select></label>
          <label>${t('target')} <input type="text" inputmode="numeric" name="target" data-bind="form.target" data-num value="${num(f.target)}"></label>
          <label>${t('timer')} <input type="text" inputmode="numeric" name="timer" data-bind="form.timer" data-num value="${num(f.timer)}"></label>
          <label class="check"><input type="checkbox" name="private" data-bind="form.priv" ${f.priv ? 'checked' : ''}> ${t('privateTable')}</label>
          <label class="check"><input type="checkbox" name="bots" data-bind="form.bots" ${f.bots ? 'checked' : ''}> ${t('botsFree')}</label>
          ${f.bots ? levelPickerHtml(s.botLevel ?? DEFAULT_LEVEL) : ''}
          <label class="check"><input type="checkbox" name="casual" data-bind="form.casual" ${f.casual ? 'checked' : ''}> ${t('casualTable')}</label>
          <button type="submit" class="primary">${t('create')}</button>
          ${offlineButton(s, 'ghost')}
        </form>
        <h2>${t('joinPrivate')}</h2>
        <form data-form="private" class="row">
          <input name="table" placeholder="${t('tableId')}" data-bind="joinId" value="${esc(s.joinId)}" size="6">
          <input name="code" placeholder="${t('code')}" data-bind="joinCode" value="${esc(s.joinCode)}" size="8">
          <button type="submit" data-mode="join">${t('join')}</button>
          <button type="submit" data-mode="watch" class="ghost">${t('watch')}</button>
        </form>
      </section>
      <section class="panel tables">
        <h2>${t('openTables')} <button class="small ghost" data-act="refresh">${t('refresh')}</button></h2>
        ${open ? `<ul class="table-list">${open}</ul>` : `<p class="muted">${t('noTables')}</p>`}
        ${finished ? `<h2>${t('finishedTables')}</h2><ul class="table-list finished-list">${finished}</ul>` : ''}
        ${
          s.listPrev.length || s.listNext !== null
            ? `<div class="row pager">${
                s.listPrev.length ? `<button class="small ghost" data-act="prevpage">${t('prevPage')}</button>` : ''
              }${s.listNext !== null ? `<button class="small ghost" data-act="nextpage">${t('nextPage')}</button>` : ''}</div>`
            : ''
        }
      </section>
    </div>
  </main>`;
}

// ---- waiting room -----------------------------------------------------------------------

function waitingRoom(s: State, tv: TableView): string {
  const seated = tv.you !== null;
  // The server sends the code to the private table's creator (join_code, issue 14): a reload keeps it.
  const code = s.codes[tv.table] ?? tv.join_code ?? tv.code;
  const full = tv.seats.every((x) => x);
  const level = s.botLevel ?? DEFAULT_LEVEL;
  const seatBox = (seat: Seat) => {
    const st = tv.seats[seat];
    const pos = positionOf(seat, tv.you);
    let body: string;
    if (!st) {
      body = `<span class="muted">${t('free')}</span>
        <button class="small" data-act="join" data-table="${esc(tv.table)}" data-seat="${seat}">${t('sit')}</button>
        ${seated ? `<button class="small" data-act="addbot" data-seat="${seat}" data-testid="add-bot-${seat}">${t('addBot')} · ${lw(level)}</button>` : ''}`;
    } else {
      body = `<b>${playerHtml(st)}</b>${seat === tv.you ? ` <span class="tag">${t('you')}</span>` : ''}${
        st.bot && seated ? ` <button class="small ghost" data-act="removebot" data-seat="${seat}">${t('removeBot')}</button>` : ''
      }`;
    }
    return `<div class="wseat wseat-${pos}" data-seat-box="${seat}">${body}</div>`;
  };
  return `<main class="screen waiting">
    ${tableTopbar(s, tv)}
    <section class="panel waiting-panel">
      <h2>${t('tableId')} ${esc(tableLabel(tv.table))} · ${t(tv.preset === 'classic' ? 'classic' : 'levantine')} · ${t('target')} ${num(tv.target)}${ratedTag(tv.rated)}</h2>
      ${code ? `<p class="code">${t('shareCode')}: <b dir="ltr">${esc(code)}</b></p>` : ''}
      ${code ? inviteHtml(globalThis.location ?? { origin: '', pathname: '/' }, tv.table, code, { invite: st('invite'), copy: st('copy'), hint: st('inviteHint') }) : ''}
      ${seated && !full ? levelPickerHtml(level) : ''}
      <div class="wtable">${([0, 1, 2, 3] as Seat[]).map(seatBox).join('')}<div class="wcentre">${suitIcon('S', 28)}${suitIcon('H', 28)}</div></div>
      ${
        seated
          ? `<button class="primary big" data-act="start" ${full ? '' : 'disabled'}>${t('start')}</button>
        ${full ? '' : `<p class="muted">${t('needFour')}</p>`}`
          : `<p class="muted">${t('waitingPlayers')}</p>`
      }
    </section>
  </main>`;
}

// ---- the table --------------------------------------------------------------------------

function teamLabel(team: 0 | 1, tv: TableView): string {
  if (tv.you === null) return t(team === 0 ? 'team0' : 'team1');
  return t(team === ourTeam(tv.you) ? 'us' : 'them');
}

function seatLabel(seat: number, tv: TableView): string {
  const st = tv.seats[seat];
  return st ? playerHtml(st) : `${t('free')}`;
}

/**
 * " · Round N" in the header: the score sheet's numbering (scored rounds, passed-out deals not
 * counted), N the round in play; nothing before the first round is scored or once the match is over.
 */
function roundNumber(s: State, tv: TableView): string {
  const lines = s.sheet.table === tv.table && s.sheet.match === tv.match ? s.sheet.lines.length : 0;
  if (!lines || s.matchOver || tv.state !== 'playing') return '';
  return ` · ${t('round')} ${num(lines + 1)}`;
}

/** Two cards, the one behind turned back: the last trick's button on a phone, where its words do not fit. */
const lastTrickIcon = `<svg class="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round"><rect x="3" y="3" width="11" height="15" rx="2"/><rect x="10" y="6" width="11" height="15" rx="2" fill="currentColor" fill-opacity="0.25"/></svg>`;

/** The contract and the tricks each side has taken against what it needs, shown on the felt. */
function feltStatus(tv: TableView): string {
  const r = tv.round;
  if (!r?.contract) return '';
  const us = ourTeam(tv.you);
  const them = (1 - us) as 0 | 1;
  const c = r.contract;
  // tricks per team against what each needs: the declarers their bid, the defenders what sets them (sent by the server)
  const need = (team: 0 | 1) => (teamOf(c.seat) === team ? c.bid : (c.defenders_need ?? 0));
  return `<div class="felt-status">
    <span class="stat contract" data-testid="contract">${t('contract')}: <b>${num(c.bid)}</b> · ${seatLabel(c.seat, tv)}${
      r.trump ? ` · ${t('trump')} ${suitIcon(r.trump, 16)}<span class="sr">${suitName(r.trump)}</span>` : ''
    }</span>
    <span class="stat tricks" data-testid="tricks">${t('tricks')}: ${teamLabel(us, tv)} <b>${num(r.tricks[us])}</b><span class="muted">/${num(
      need(us),
    )}</span> · ${teamLabel(them, tv)} <b>${num(r.tricks[them])}</b><span class="muted">/${num(need(them))}</span></span>
  </div>`;
}

function tableTopbar(s: State, tv: TableView): string {
  if (!tv.round && tv.state === 'waiting') {
    return `<header class="topbar"><h1>${t('title')}</h1><span class="me">${nameHtml(s.name ?? '')}</span><span class="spacer"></span>
      ${tv.you === null ? `<span class="tag watching">${t('spectator')}</span>` : ''}
      ${rulesButton(s.lang, rulesIcon())}${langButton(s)}<button class="small ghost" data-act="leave">${t('leave')}</button></header>`;
  }
  const us = ourTeam(tv.you);
  const them = (1 - us) as 0 | 1;
  const r = tv.round;
  // contract and tricks sit on the felt (feltStatus): the header stays one row on a phone
  return `<header class="topbar game-bar"><h1 class="sr">${t('title')}</h1>
    <span class="stat score" data-testid="score" data-act="sheet" role="button" tabindex="0" title="${t('scoreSheet')}">
      ${teamLabel(us, tv)} <b>${n(tv.scores[us])}</b> – ${teamLabel(them, tv)} <b>${n(tv.scores[them])}</b>
      <span class="muted">/ ${num(tv.target)}${roundNumber(s, tv)}</span></span>
    <span class="spacer"></span>
    ${tv.you === null ? `<span class="tag watching">${t('spectator')}</span>` : ''}
    ${hintsOn(tv) ? `<button class="small ghost" data-act="hint" data-testid="hint">${t('hint')}</button>` : ''}
    ${r ? `<button class="small ghost last-trick-btn" data-act="lasttrick" title="${t('lastTrick')}">${lastTrickIcon}<span class="label">${t('lastTrick')}</span></button>` : ''}
    <button class="small ghost hide-phone" data-act="sheet">${t('scoreSheet')}</button>
    <button class="small ghost" data-act="sound" aria-pressed="${s.sound}" title="${t('sounds')}">${speakerIcon(s.sound)}<span class="sr">${t('sounds')}</span></button>
    ${rulesButton(s.lang, rulesIcon())}
    ${langButton(s)}
    <button class="small ghost" data-act="leave">${t('leave')}</button>
  </header>`;
}

function countdown(tv: TableView, seat: number): string {
  const r = tv.round;
  if (!r || r.to_act !== seat || !tv.deadline_ms || !(tv.turn_seconds > 0)) return '';
  // the deadline on this client's clock (set on arrival from deadline_ms − now_ms)
  const deadline = tv.local_deadline_ms ?? tv.deadline_ms;
  const ms = remainingMs(deadline, Date.now(), tv.turn_seconds) ?? 0;
  return `<span class="countdown ${urgent(ms) ? 'urgent' : ''}" data-countdown="${deadline}" data-turn="${tv.turn_seconds}">
    <span class="bar"><span class="fill" style="width:${(fractionLeft(ms, tv.turn_seconds) * 100).toFixed(1)}%"></span></span>
    <span class="secs">${num(formatCountdown(ms))}</span></span>`;
}

function seatPanel(tv: TableView, seat: Seat, pos: Position): string {
  const r = tv.round;
  const st = tv.seats[seat];
  const toAct = r?.to_act === seat;
  const isDealer = r?.dealer === seat;
  const left = r ? r.cards_left[seat] : 0;
  const rel =
    tv.you === null ? '' : seat === tv.you ? t('you') : teamOf(seat) === teamOf(tv.you) ? t('partner') : '';
  const lastCall = r?.calls.filter((c) => c.seat === seat).pop();
  const showCall = r && r.phase === 'auction' && lastCall;
  // one label for screen readers: who sits there, their relation, cards left, whose turn
  const label = [st ? playerText(st) : t('free'), rel, r && left > 0 ? count(left, 'card') : '', toAct ? t('toAct') : '']
    .filter(Boolean)
    .join(', ');
  return `<div class="seat seat-${pos} ${toAct ? 'to-act' : ''} team-${teamOf(seat) === ourTeam(tv.you) ? 'us' : 'them'}" data-seat="${seat}" data-pos="${pos}" role="group" aria-label="${esc(label)}">
    <div class="seat-name">
      <b>${st ? playerHtml(st) : t('free')}</b>
      ${rel ? `<span class="tag">${rel}</span>` : ''}
      ${st && !st.connected ? `<span class="tag warn">${t('away')}</span>` : ''}
      ${isDealer ? `<span class="tag dealer" title="${t('dealer')}">${t('dealerMark')}</span>` : ''}
    </div>
    ${
      (pos !== 'bottom' || tv.you === null) && r && left > 0
        ? `<div class="backs" aria-label="${left}">${cardBackSvg(seat)}<span class="count">×${num(left)}</span></div>`
        : ''
    }
    ${showCall ? `<div class="bubble">${lastCall!.call === 'pass' ? t('pass') : num(lastCall!.call)}</div>` : ''}
    ${countdown(tv, seat)}
  </div>`;
}

function trickView(tv: TableView, plays: Play[], cls: string, caption: string): string {
  const leader = plays[0]?.seat;
  // the newest card of the trick in progress slides in (no motion under prefers-reduced-motion)
  const fresh = (i: number) => (cls === 'current-trick' && i === plays.length - 1 ? ' fresh' : '');
  return `<div class="trick ${cls}" data-testid="${cls}">
    ${plays
      .map(
        (p, i) =>
          `<div class="played played-${positionOf(p.seat, tv.you)}${fresh(i)}" data-played="${p.card}" data-seat="${p.seat}">${cardSvg(
            p.card,
          )}${p.seat === leader ? `<span class="led">${t('ledBy')}</span>` : ''}</div>`,
      )
      .join('')}
    ${caption ? `<div class="trick-caption">${caption}</div>` : ''}
  </div>`;
}

/**
 * The last finished trick and its winner (as the server sent them), if any: the round's, else,
 * before the new deal's first trick, the previous round's last one (from the server's history).
 */
export function lastTrickOf(tv: TableView, s?: Pick<State, 'lastRound'>): { plays: Play[]; winner: number | null } | null {
  const done = tv.round?.finished_tricks ?? [];
  const prev = s?.lastRound && s.lastRound.table === tv.table && s.lastRound.match === tv.match ? s.lastRound.round.tricks : [];
  const last = done.length ? done[done.length - 1] : prev.length ? prev[prev.length - 1] : null;
  return last ? { plays: last.cards, winner: last.winner } : null;
}

/** " hinted" (a class to append) when `action` is the server's hint for this very table version (`hint`), else "". */
export function hinted(s: State, tv: TableView, action: Action): string {
  const h = s.hint;
  if (!h || h.version !== tv.version) return '';
  return JSON.stringify(h.action) === JSON.stringify(action) ? ' hinted' : '';
}

function auctionPanel(tv: TableView, s: State): string {
  const r = tv.round!;
  const myTurn = needOf(tv) === 'call';
  const opts = bidOptions(tv.legal, tv.bid_range);
  const hi = standingBid(r)?.bid;
  const waiting = s.actedVersion === tv.version;
  const byPos = seatsAround(tv.you).map((seat) => {
    const calls = r.calls.filter((c) => c.seat === seat).map((c) => (c.call === 'pass' ? t('pass') : num(c.call)));
    const pos = positionOf(seat, tv.you);
    const cell = CALLS_CELL[pos];
    return `<div class="calls-row calls-${pos}" data-calls="${seat}" dir="${dir()}" style="grid-area:${cell.row}/${cell.col}"><span class="who">${seatLabel(seat, tv)}</span><span class="list">${
      calls.join(' · ') || '—'
    }</span></div>`;
  });
  return `<div class="auction panel-in" data-testid="auction">
    <h2>${t('auction')}${hi ? ` · ${t('bid')} ${num(hi)}` : ''}</h2>
    <div class="calls" dir="ltr">${byPos.join('')}</div>
    ${
      myTurn
        ? `<div class="bids" role="group" aria-label="${t('yourBid')}">
        ${opts.bids
          .map(
            (b) =>
              `<button class="bid${hinted(s, tv, { call: b.bid })}" data-act="call" data-bid="${b.bid}" ${b.enabled && !waiting ? '' : 'disabled'}>${num(b.bid)}</button>`,
          )
          .join('')}
        <button class="bid pass${hinted(s, tv, { call: 'pass' })}" data-act="call" data-bid="pass" ${opts.pass && !waiting ? '' : 'disabled'}>${t('pass')}</button>
      </div>`
        : r.to_act !== null
          ? `<p class="muted">${t('waitingFor')} ${seatLabel(r.to_act, tv)}…</p>`
          : ''
    }
  </div>`;
}

function trumpPanel(tv: TableView, s: State): string {
  const r = tv.round!;
  if (needOf(tv) !== 'trump') {
    return `<div class="trump-wait panel-in"><p>${seatLabel(r.contract?.seat ?? 0, tv)}: ${t('chooseTrump')}…</p></div>`;
  }
  const hand = r.hand ?? [];
  // the suggestion is the rules' default trump, sent by the server (what the timer would name)
  const da = tv.default_action ?? tv.timeout_action;
  const sugg = da && 'trump' in da ? da.trump : null;
  const lens = suitLengths(hand);
  const allowed = legalTrumps(tv.legal);
  const waiting = s.actedVersion === tv.version;
  return `<div class="trump-chooser panel-in" data-testid="trump-chooser">
    <h2>${t('chooseTrump')}</h2>
    <div class="suits">${(['S', 'H', 'D', 'C'] as Suit[])
      .map(
        (su) => `<button class="suit-btn ${su === sugg ? 'suggested' : ''}${hinted(s, tv, { trump: su })}" data-act="trump" data-suit="${su}" ${
          allowed.includes(su) && !waiting ? '' : 'disabled'
        } ${su === sugg ? 'autofocus' : ''}>${suitIcon(su, 30)}<span>${suitName(su)} (${num(lens[su])})</span>${
          su === sugg ? `<em>${t('suggested')}</em>` : ''
        }</button>`,
      )
      .join('')}</div>
  </div>`;
}

function summaryPanel(tv: TableView, s: State): string {
  const sm = s.summary;
  if (!sm || s.matchOver) return '';
  if (sm.kind === 'passed') {
    return `<div class="summary panel-in" data-testid="summary" data-act="dismiss">${t('passedOut')}</div>`;
  }
  const e = sm.event;
  const us = ourTeam(tv.you);
  const them = (1 - us) as 0 | 1;
  return `<div class="summary panel-in" data-testid="summary">
    <h2>${t('roundSummary')}</h2>
    <p>${t('contract')} ${num(e.contract.bid)} · ${seatLabel(e.contract.seat, tv)} · <b>${t(e.made ? 'made' : 'set')}</b></p>
    <table class="mini"><tr><td></td><th>${teamLabel(us, tv)}</th><th>${teamLabel(them, tv)}</th></tr>
      <tr><td>${t('tricks')}</td><td>${num(e.tricks[us])}</td><td>${num(e.tricks[them])}</td></tr>
      <tr><td>${t('points')}</td><td>${n(e.points[us])}</td><td>${n(e.points[them])}</td></tr>
      <tr><td>${t('score')}</td><td><b>${n(e.scores[us])}</b></td><td><b>${n(e.scores[them])}</b></td></tr></table>
    <button class="small" data-act="dismiss">${t('continue')}</button>
  </div>`;
}

function sheetTable(tv: TableView, s: State): string {
  const us = ourTeam(tv.you);
  const them = (1 - us) as 0 | 1;
  const lines = s.sheet.table === tv.table && s.sheet.match === tv.match ? s.sheet.lines : [];
  return `<table class="sheet" data-testid="sheet">
    <thead><tr><th>${t('round')}</th><th>${t('contract')}</th><th>${teamLabel(us, tv)}</th><th>${teamLabel(them, tv)}</th></tr></thead>
    <tbody>${lines
      .map(
        (l) => `<tr class="${l.made ? 'made' : 'set'}"><td>${num(l.round)}</td><td>${num(l.bid)} · ${seatLabel(l.declarer, tv)} · ${t(
          l.made ? 'made' : 'set',
        )}</td><td>${n(l.points[us])} <small>(${n(l.scores[us])})</small></td><td>${n(l.points[them])} <small>(${n(
          l.scores[them],
        )})</small></td></tr>`,
      )
      .join('')}</tbody>
    <tfoot><tr><th colspan="2">${t('score')}</th><th>${n(tv.scores[us])}</th><th>${n(tv.scores[them])}</th></tr></tfoot>
  </table>`;
}

function matchOverPanel(tv: TableView, s: State): string {
  const mo = s.matchOver!;
  const us = ourTeam(tv.you);
  let head: string;
  if (mo.status === 'closed') head = t('closed');
  else if (mo.status === 'drawn' || mo.winner === null) head = t('drawn');
  else if (tv.you === null) head = `${teamLabel(mo.winner, tv)} ${t('teamWon')}`;
  else head = t(mo.winner === us ? 'youWon' : 'youLost');
  return `<div class="overlay"><div class="match-over panel" data-testid="match-over" role="dialog" aria-labelledby="match-over-title">
    <h2 id="match-over-title">${t('matchOver')}</h2>
    <p class="result">${head}</p>
    ${ratingsHtml(s.ratings, tv.table, tv.you)}
    ${sheetTable(tv, s)}
    ${
      tv.you !== null && tv.seats.some((x) => !x)
        ? `<p class="row">${t('needFour')} ${tv.seats
            .map((x, i) => (x ? '' : `<button class="small" data-act="addbot" data-seat="${i}">${t('addBot')} (${seatLabel(i, tv)} ${num(i + 1)})</button>`))
            .join('')}</p>`
        : ''
    }
    <div class="row">
      ${tv.you !== null ? `<button class="primary" data-act="start" ${tv.seats.every((x) => x) ? '' : 'disabled'}>${t('playAgain')}</button>` : ''}
      <button data-act="leave" data-testid="back-button">${backFrom(s.returnTo, tv.table) ? tt('backToBracket') : t('backToLobby')}</button>
      ${mo.record !== undefined && mo.record !== null ? `<a class="btn" href="#/replay/${encodeURIComponent(String(mo.record))}" data-testid="replay-link">${rt('replay')}</a>` : ''}
      ${langButton(s)}
    </div>
  </div></div>`;
}

function modal(title: string, body: string, extra = ''): string {
  return `<div class="overlay" data-act="closemodal"><div class="panel modal" role="dialog" aria-modal="true" aria-labelledby="modal-title" data-stop>
    <h2 id="modal-title">${title}</h2>${body}<div class="row">${extra}<button data-act="closemodal">${t('close')}</button></div></div></div>`;
}

function logLine(tv: TableView, e: GameEvent): string {
  const who = (seat: number) => seatLabel(seat, tv);
  switch (e.event) {
    case 'call':
      return `${who(e.seat)}: ${e.call === 'pass' ? t('pass') : `${t('bid')} ${num(e.call)}`}${e.timeout ? ` (${t('timeout')})` : ''}`;
    case 'trump':
      return `${who(e.seat)}: ${t('trump')} ${suitName(e.trump)}${e.timeout ? ` (${t('timeout')})` : ''}`;
    case 'card':
      return '';
    case 'trick_won':
      return `${t('trick')} ${num(e.trick)}: ${t('wonBy')} ${who(e.seat)}`;
    case 'round_scored': {
      const us = ourTeam(tv.you);
      return `${t('roundSummary')}: ${teamLabel(us, tv)} ${n(e.points[us])} · ${teamLabel((1 - us) as 0 | 1, tv)} ${n(e.points[1 - us])}`;
    }
    case 'passed_out':
      return t('passedOut');
    case 'bot_took_over':
      return `${t('botTookOver')} ${who(e.seat)}`;
    case 'disconnected':
      return `${who(e.seat)} ${t('disconnectedWord')}`;
    case 'reclaimed':
      return `${who(e.seat)} ${t('reclaimedWord')}`;
    case 'seated':
      return `${playerHtml({ name: e.name, bot: e.bot, kind: e.kind, connected: true })} → ${num(e.seat + 1)}`;
    default:
      return '';
  }
}

/** The size of the window in CSS pixels (a desktop's where there is no window, as in the tests). */
export interface Screen {
  w: number;
  h: number;
}
const windowSize = (): Screen => ({ w: globalThis.innerWidth ?? 1024, h: globalThis.innerHeight ?? 768 });
/** The room the game has: the window, less the chat beside or under it (social.css `.with-chat`). */
function appSize(root: HTMLElement): Screen {
  const win = windowSize();
  const shared = root.ownerDocument.body.classList.contains('with-chat');
  return { w: root.clientWidth || win.w, h: shared && root.clientHeight ? root.clientHeight : win.h };
}
const px = (x: number) => `${Math.floor(x * 10) / 10}px`;

function tableScreen(s: State, tv: TableView, screen: Screen): string {
  const r = tv.round!;
  const need = needOf(tv);
  const waiting = s.actedVersion === tv.version;
  let centre = '';
  if (s.matchOver) centre = '';
  else if (s.summary?.holds) centre = ''; // the summary has the centre until the new deal's clock starts
  else if (r.phase === 'auction') centre = auctionPanel(tv, s);
  else if (r.phase === 'trump') centre = trumpPanel(tv, s);
  else if (r.trick.length > 0) centre = trickView(tv, r.trick, 'current-trick', '');
  else {
    const lt = lastTrickOf(tv);
    if (lt && r.phase === 'play')
      centre = trickView(tv, lt.plays, 'previous-trick', `${t('wonBy')} ${seatLabel(lt.winner ?? 0, tv)}`);
  }
  const hand = sortHand(r.hand ?? [], r.trump);
  const cards = handCards(hand, need === 'card' ? tv.legal : []);
  const layout = handLayout(screen.w, screen.h, cards.length);
  const handHtml =
    tv.you === null
      ? `<div class="hand spectator-note">${t('spectator')} · ${count(tv.spectators, 'spectator')}</div>`
      : `<div class="hand ${need === 'card' ? 'my-turn' : ''}" role="group" aria-label="hand" data-testid="hand" data-rows="${
          layout.rows.length
        }" style="--card-w:${px(layout.cardW)};--card-step:${px(layout.step)}">${intoRows(cards, layout.rows)
          .map(
            (row) =>
              `<div class="hand-row">${row
                .map(
                  (c) =>
                    `<button class="card ${c.playable ? 'playable' : 'dimmed'} ${r.trump && c.card[1] === r.trump ? 'trump' : ''}${hinted(s, tv, { card: c.card })}" data-act="card" data-card="${c.card}" ${
                      c.playable && !waiting ? '' : 'disabled'
                    }>${cardSvg(c.card)}<span class="sr">${c.card[0] === 'T' ? '10' : c.card[0]} ${suitName(c.card[1] as Suit)}</span></button>`,
                )
                .join('')}</div>`,
          )
          .join('')}</div>`;
  const lt = lastTrickOf(tv, s);
  const events = s.log.map((e) => logLine(tv, e)).filter(Boolean);
  return `<main class="screen game ${need !== 'none' ? 'my-turn' : ''}">
    ${tableTopbar(s, tv)}
    <div class="felt">
      ${seatsAround(tv.you)
        .map((seat) => seatPanel(tv, seat, positionOf(seat, tv.you)))
        .join('')}
      ${feltStatus(tv)}
      <div class="centre">${centre}${summaryPanel(tv, s)}</div>
      ${need !== 'none' ? `<div class="your-turn" role="status">${t('yourTurn')}</div>` : ''}
      <div class="log" aria-live="polite">${events.length ? esc('') + events[events.length - 1] : ''}</div>
    </div>
    ${handHtml}
    ${s.matchOver ? matchOverPanel(tv, s) : ''}
    ${
      s.showLastTrick
        ? modal(
            t('lastTrick'),
            lt
              ? `<div class="last-trick-box">${trickView(tv, lt.plays, 'review-trick', '')}<p class="won-by" data-testid="won-by">${t(
                  'wonBy',
                )} ${seatLabel(lt.winner ?? 0, tv)}</p></div>`
              : `<p>${t('noLastTrick')}</p>`,
          )
        : ''
    }
    ${
      s.showSheet && !s.matchOver
        ? // the rules from the sheet too: on a phone the top bar has no room for their button
          modal(t('scoreSheet'), sheetTable(tv, s), `<button data-act="rules" data-testid="sheet-rules">${rulesIcon()} ${rw('rules', s.lang)}</button>`)
        : ''
    }
  </main>`;
}

function finishedScreen(s: State, tv: TableView): string {
  // a finished table without a round (not expected) or after the match: the waiting room plus the result
  return waitingRoom(s, tv) + (s.matchOver ? matchOverPanel(tv, s) : '');
}

export function html(s: State, screen: Screen = windowSize()): string {
  let body: string;
  if (s.offline && s.table) body = tableScreen(s, s.table, screen);
  else if (!s.welcomed)
    body = s.token
      ? `<main class="screen center">${s.conn === 'offline' ? '' : `<p>${t('connecting')}</p>`}${offlineEntry(s)}</main>`
      : signInScreen(s);
  else if (!s.table) body = lobbyScreen(s);
  else if (s.table.state === 'waiting' || !s.table.round) body = s.table.state === 'finished' ? finishedScreen(s, s.table) : waitingRoom(s, s.table);
  else body = tableScreen(s, s.table, screen);
  // the new-version prompt above the screen, in the page's flow (style.css: the screen shrinks under it, nothing is covered)
  return updateBar(s) + body + accountPanelHtml(s) + connBar(s) + errorBar(s);
}

// ---- rendering and events ---------------------------------------------------------------

export function mount(root: HTMLElement, app: App): (s: State) => void {
  let last = '';
  const render = (s: State) => {
    const out = html(s, appSize(root));
    if (out === last) return;
    last = out;
    const active = document.activeElement as HTMLElement | null;
    const key = active ? focusKey(active) : null;
    root.innerHTML = out;
    if (key) {
      const el = root.querySelector<HTMLElement>(key);
      if (el && !(el as HTMLButtonElement).disabled) el.focus();
    } else {
      const af = root.querySelector<HTMLElement>('[autofocus]');
      if (af && !(af as HTMLButtonElement).disabled) af.focus();
    }
  };

  // the hand's rows and card sizes follow the game's room: a phone turned, a window resized, the
  // chat opened beside or under the table (drawn on the next frame: no resize loop)
  let queued = false;
  const again = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      render(app.state);
    });
  };
  if (typeof ResizeObserver !== 'undefined') new ResizeObserver(again).observe(root);
  else globalThis.addEventListener?.('resize', again);

  root.addEventListener('click', (ev) => {
    const target = ev.target as HTMLElement;
    const el = target.closest<HTMLElement>('[data-act]');
    if (!el || (el as HTMLButtonElement).disabled) return;
    if (el.dataset.act === 'closemodal' && target.closest('[data-stop]') && el.tagName !== 'BUTTON') return;
    onAct(app, el);
  });
  root.addEventListener('keydown', (ev) => {
    const el = ev.target as HTMLElement;
    if ((ev.key === 'Enter' || ev.key === ' ') && el.getAttribute('role') === 'button' && el.dataset.act) {
      ev.preventDefault();
      onAct(app, el);
    }
    if (ev.key === 'Escape') app.update({ showLastTrick: false, showSheet: false });
    // at the table, single keys (outside text fields): h hint, l last trick, s score sheet
    const typing = el.closest('input, textarea, select');
    if (!typing && !ev.ctrlKey && !ev.metaKey && !ev.altKey && app.state.table?.round) {
      const key = ev.key.toLowerCase();
      if (key === 'h' && hintsOn(app.state.table)) void app.askHint();
      else if (key === 'l') app.update({ showLastTrick: true });
      else if (key === 's') app.update({ showSheet: true });
    }
    // arrow keys move along the playable cards of the hand
    if ((ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') && el.closest('.hand')) {
      const cards = [...root.querySelectorAll<HTMLButtonElement>('.hand .card:not([disabled])')];
      const i = cards.indexOf(el as HTMLButtonElement);
      if (cards.length) {
        const step = ev.key === 'ArrowRight' ? 1 : -1; // the hand runs left to right in both languages
        cards[(i + step + cards.length) % cards.length].focus();
        ev.preventDefault();
      }
    }
  });
  root.addEventListener('input', (ev) => {
    const el = ev.target as HTMLInputElement;
    const bind = el.dataset.bind;
    if (!bind) return;
    const v = el.type === 'checkbox' ? el.checked : 'num' in el.dataset ? parseNum(el.value) : el.value;
    if (typeof v === 'number' && Number.isNaN(v)) return; // not a number (yet): the form keeps the last one
    if (bind.startsWith('acct.')) {
      app.state.accountInput = { ...app.state.accountInput, [bind.slice(5) as keyof AccountInput]: String(v) };
    } else if (bind.startsWith('form.')) {
      (app.state.form as unknown as Record<string, unknown>)[bind.slice(5)] = v;
      app.saveForm();
    } else (app.state as unknown as Record<string, unknown>)[bind] = v;
  });
  root.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const form = ev.target as HTMLFormElement;
    const fd = new FormData(form);
    const submitter = (ev as SubmitEvent).submitter as HTMLElement | null;
    if (onAccountSubmit(app, form)) return;
    if (form.dataset.form === 'signin') app.signIn(String(fd.get('name') ?? ''));
    else if (form.dataset.form === 'create') {
      app.state.form = {
        preset: fd.get('preset') === 'classic' ? 'classic' : 'levantine',
        target: parseNum(String(fd.get('target') ?? '')) || 31,
        timer: parseNum(String(fd.get('timer') ?? '')) || 0,
        priv: fd.get('private') !== null,
        bots: fd.get('bots') !== null,
        casual: fd.get('casual') !== null,
      };
      app.createTable();
    } else if (form.dataset.form === 'private') {
      const id = tableIdOf(String(fd.get('table') ?? ''));
      const code = latinDigits(String(fd.get('code') ?? '').trim());
      if (!id) return;
      if (submitter?.dataset.mode === 'watch') app.join(id, null, code || undefined);
      else app.joinFirstFree(id, code || undefined);
    }
  });

  // the countdown runs between table messages
  setInterval(() => {
    for (const el of root.querySelectorAll<HTMLElement>('[data-countdown]')) {
      const turn = Number(el.dataset.turn);
      const ms = remainingMs(Number(el.dataset.countdown), Date.now(), turn) ?? 0;
      const secs = el.querySelector('.secs');
      const txt = num(formatCountdown(ms));
      if (secs && secs.textContent !== txt) secs.textContent = txt;
      const fill = el.querySelector<HTMLElement>('.fill');
      if (fill) fill.style.width = `${(fractionLeft(ms, turn) * 100).toFixed(1)}%`;
      el.classList.toggle('urgent', urgent(ms));
    }
    const sm = app.state.summary;
    if (sm && Date.now() >= sm.until) app.update({ summary: null });
  }, 250);

  return render;
}

function focusKey(el: HTMLElement): string | null {
  if (el.dataset.card) return `[data-card="${el.dataset.card}"]`;
  if (el.dataset.bid) return `[data-bid="${el.dataset.bid}"]`;
  if (el.dataset.bind) return `[data-bind="${el.dataset.bind}"]`;
  if (el.dataset.suit) return `[data-suit="${el.dataset.suit}"]`;
  // a button of the top bar (each there once): the rules button keeps the focus it gets back when the rules close
  if (el.dataset.act && el.closest('.topbar')) return `.topbar [data-act="${el.dataset.act}"]`;
  return null;
}

function onAct(app: App, el: HTMLElement): void {
  const d = el.dataset;
  switch (d.act) {
    case 'copyinvite': {
      const url = el.dataset.url ?? '';
      void navigator.clipboard?.writeText(url).then(
        () => (el.textContent = st('copied')),
        () => {},
      );
      break;
    }
    case 'lang':
      app.setLanguage(d.lang === 'ar' ? 'ar' : 'en');
      break;
    case 'signout':
      app.signOut();
      break;
    case 'refresh':
      app.refreshTables();
      break;
    case 'nextpage':
      app.nextPage();
      break;
    case 'prevpage':
      app.prevPage();
      break;
    case 'join':
      app.join(d.table!, Number(d.seat));
      break;
    case 'watch':
      app.join(d.table!, null);
      break;
    case 'addbot':
      app.addBot(Number(d.seat));
      break;
    case 'botlevel':
      app.setBotLevel(d.level);
      break;
    case 'removebot':
      app.removeBot(Number(d.seat));
      break;
    case 'offline':
      app.playOffline();
      break;
    case 'update-reload':
      app.applyUpdate();
      break;
    case 'update-later':
      app.update({ updateDismissed: true });
      break;
    case 'start':
      app.startMatch();
      break;
    case 'leave': {
      const tv = app.state.table;
      if (tv && tv.you !== null && tv.state === 'playing' && !confirm(t(app.state.offline ? 'leaveOfflineConfirm' : 'leaveConfirm'))) break;
      app.leave();
      break;
    }
    case 'call':
      app.act({ call: d.bid === 'pass' ? 'pass' : Number(d.bid) });
      break;
    case 'trump':
      app.act({ trump: d.suit as Suit });
      break;
    case 'card':
      app.act({ card: d.card! });
      break;
    case 'lasttrick':
      app.update({ showLastTrick: true });
      break;
    case 'sheet':
      app.update({ showSheet: true });
      break;
    case 'closemodal':
      app.update({ showLastTrick: false, showSheet: false });
      break;
    case 'dismiss':
      app.dismissSummary();
      break;
    case 'hint':
      void app.askHint();
      break;
    case 'sound':
      app.toggleSound();
      break;
    case 'rules':
      location.hash = rulesHash(); // the rules dialog (rules.ts), over the table
      break;
    default:
      onAccountAct(app, d.act);
  }
}

export type { Key };
