// The table during a match: the top bar, the felt (seats, contract, the trick or the auction),
// the player's hand and the dialogs over them (last trick, score sheet).
import type { State } from './app';
import { cardBackSvg, cardSvg, sortHand, suitIcon } from './cards';
import { num, suitName, t } from './i18n';
import { handLayout, intoRows, positionOf, ourTeam, seatsAround, type Position } from './layout';
import { handCards, needOf } from './legal';
import type { Action, Play, Seat, Suit, TableView } from './protocol';
import { teamOf } from './protocol';
import { formatCountdown, fractionLeft, remainingMs, urgent } from './timer';
import { esc } from './util';
import { rulesButton, rw } from './rules';
import { rulesIcon } from './icons';
import { count } from './plural';
import { hintsOn, langButton, modal, n, nameHtml, playerHtml, playerText, seatLabel, teamLabel } from './view_parts';
import { auctionPanel, logLine, matchOverPanel, sheetTable, summaryPanel, trumpPanel } from './view_panels';

/** A speaker, with waves when the sounds are on and struck through when off (no emoji font needed). */
function speakerIcon(on: boolean): string {
  return `<svg class="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>${
    on ? '<path d="M16 9a4 4 0 0 1 0 6M19 6a8 8 0 0 1 0 12"/>' : '<path d="M16 9l6 6M22 9l-6 6"/>'
  }</svg>`;
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

export function tableTopbar(s: State, tv: TableView): string {
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

export function trickView(tv: TableView, plays: Play[], cls: string, caption: string): string {
  const leader = plays[0]?.seat;
  return `<div class="trick ${cls}" data-testid="${cls}">
    ${plays
      .map(
        (p) =>
          `<div class="played played-${positionOf(p.seat, tv.you)}" data-played="${p.card}" data-seat="${p.seat}">${cardSvg(
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

/** The size of the window in CSS pixels (a desktop's where there is no window, as in the tests). */
export interface Screen {
  w: number;
  h: number;
}
const px = (x: number) => `${Math.floor(x * 10) / 10}px`;

export function tableScreen(s: State, tv: TableView, screen: Screen): string {
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

