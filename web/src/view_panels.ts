// The panels of the table: the auction and trump choice in the centre, the round summary, the
// score sheet, the match-over dialog, and the event log's lines.
import { backFrom, type State } from './app';
import { rt } from './replay_i18n';
import { tt } from './tournament_i18n';
import { suitIcon, suitLengths } from './cards';
import { dir, num, suitName, t } from './i18n';
import { CALLS_CELL, positionOf, ourTeam, seatsAround } from './layout';
import { bidOptions, legalTrumps, needOf, standingBid } from './legal';
import type { GameEvent, Suit, TableView } from './protocol';
import { ratingsHtml } from './ratings_view';
import { langButton, n, playerHtml, seatLabel, teamLabel } from './view_parts';
import { hinted } from './view_table';

export function auctionPanel(tv: TableView, s: State): string {
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

export function trumpPanel(tv: TableView, s: State): string {
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

export function summaryPanel(tv: TableView, s: State): string {
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

export function sheetTable(tv: TableView, s: State): string {
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

export function matchOverPanel(tv: TableView, s: State): string {
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

export function logLine(tv: TableView, e: GameEvent): string {
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

