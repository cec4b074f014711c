// The replay viewer's HTML: the four hands around the table (a finished match is public), the
// auction, the trick, the score sheet beside it, and the analysis board. Pure functions of the
// model's position (replay_model.ts) and the analysis (analysis.ts); replay.ts puts them on the
// page and handles the controls.
import { marksAt, type AnalysisState, type PositionMarks } from './analysis';
import { cardSvg, rankLabel, sortHand, suitIcon, suitOf } from './cards';
import { dir, num, suitName, t } from './i18n';
import { positionOf, seatsAround } from './layout';
import type { Card, Seat, Suit } from './protocol';
import { teamOf } from './protocol';
import { rt } from './replay_i18n';
import { stepOf, type Position, type ReplayModel } from './replay_model';
import { esc, ltr } from './util';
import { count } from './plural';
import { recordNameHtml, recordNameText } from './bot_levels';

const n = (x: number) => ltr(num(x < 0 ? `-${Math.abs(x)}` : x));

/** A seat's name: the stored player's, else "Seat N". Isolated so that it keeps its own direction. */
export function seatName(m: ReplayModel, seat: number): string {
  const name = m.players[seat];
  return `<bdi>${esc(name ? recordNameText(name) : `${rt('seat')} ${num(seat + 1)}`)}</bdi>`;
}

/** A seat's name with a bot's level badge (the seat's heading). */
function seatHeading(m: ReplayModel, seat: number): string {
  const name = m.players[seat];
  return name ? recordNameHtml(name) : seatName(m, seat);
}

const teamName = (team: 0 | 1) => rt(team === 0 ? 'teamA' : 'teamB');

const cardLabel = (c: Card) => `${rankLabel(c)} ${suitName(suitOf(c))}`;

/** A short card in text: rank and suit symbol, left to right in both languages. */
const cardText = (c: Card) => `<span class="rc-inline" dir="ltr">${rankLabel(c)}${suitIcon(suitOf(c), 13)}</span>`;

/** What happened at this step, in words (the screen reader's announcement too). */
export function stepCaption(m: ReplayModel, pos: Position): string {
  const a = pos.action;
  const head = `${rt('deal')} ${num(pos.deal + 1)}`;
  if (!a) return `${head} · ${rt('dealt')} ${seatName(m, pos.dealer)}`;
  const who = seatName(m, a.seat);
  let what = '';
  if (a.kind === 'call') what = a.call === 'pass' ? rt('passes') : `${rt('bids')} ${num(a.call)}`;
  else if (a.kind === 'trump') what = `${rt('namesTrump')} ${suitIcon(a.trump, 14)} ${suitName(a.trump)}`;
  else {
    what = `${rt('plays')} ${cardText(a.card)}`;
    if (pos.trick?.winner !== null && pos.trick?.winner !== undefined) what += ` · ${seatName(m, pos.trick.winner)} ${rt('wins')}`;
  }
  let tail = '';
  if (pos.passedOut && pos.auctionOver) tail = ` · ${rt('passedOut')}`;
  return `${head} · ${who} ${what}${tail}`;
}

/**
 * A legal card's value beside its rank: in its own isolate after a thin space, so that a Latin
 * rank and an Eastern Arabic value never read as one number («7٦»): the rank reads "7", the value "٦".
 */
export const valueChip = (tricks: number): string => `<sup class="val"><bdi>\u2009${num(tricks)}</bdi></sup>`;

/** One seat's cards, suit by suit (trump first), each legal card with its value when analysed. */
function handHtml(cards: Card[], trump: Suit | null, marks: PositionMarks | null): string {
  const sorted = sortHand(cards, trump);
  const suits = [...new Set(sorted.map(suitOf))];
  if (suits.length === 0) return '<div class="rhand empty">—</div>';
  const markOf = new Map((marks?.cards ?? []).map((c) => [c.card, c]));
  return `<div class="rhand" dir="ltr">${suits
    .map(
      (s) =>
        `<div class="rsuit ${s === trump ? 'trump' : ''}">${suitIcon(s, 15)}${sorted
          .filter((c) => suitOf(c) === s)
          .map((c) => {
            const mk = markOf.get(c);
            const label = `${cardLabel(c)}${mk ? `: ${count(mk.tricks, 'trick')}${mk.loss > 0 ? `${rt('comma')}${rt('cardCosts')} ${count(mk.loss, 'trick')}` : ''}` : ''}`;
            return `<span class="rc ${suitOf(c) === 'H' || suitOf(c) === 'D' ? 'red' : ''} ${mk ? (mk.loss > 0 ? 'legal loses' : 'legal best') : ''}" data-card="${c}" ${
              mk ? `data-value="${mk.tricks}" data-loss="${mk.loss}"` : ''
            } role="img" aria-label="${esc(label)}"><span class="rank">${rankLabel(c)}</span>${mk ? valueChip(mk.tricks) : ''}</span>`;
          })
          .join('')}</div>`,
    )
    .join('')}</div>`;
}

function seatBox(m: ReplayModel, pos: Position, seat: Seat, marks: PositionMarks | null): string {
  const p = positionOf(seat, null);
  const tags = [
    seat === pos.dealer ? `<span class="tag dealer">${rt('dealer')}</span>` : '',
    pos.contract?.seat === seat ? `<span class="tag decl">${rt('declarer')}</span>` : '',
    pos.toPlay === seat ? `<span class="tag toplay">${rt('toPlay')}</span>` : '',
  ].join('');
  const shownMarks = marks && marks.seat === seat ? marks : null;
  return `<section class="rseat rseat-${p} team${teamOf(seat)} ${pos.toPlay === seat ? 'to-act' : ''}" data-seat="${seat}" aria-label="${esc(
    m.players[seat] ? recordNameText(m.players[seat]) : `${rt('seat')} ${seat + 1}`,
  )}">
    <div class="rseat-name" dir="${dir()}"><b>${seatHeading(m, seat)}</b> <span class="muted">${teamName(teamOf(seat))}</span> ${tags}</div>
    ${handHtml(pos.hands[seat], pos.trump, shownMarks)}
  </section>`;
}

function auctionHtml(m: ReplayModel, pos: Position): string {
  return `<div class="rauction" data-testid="replay-auction"><h3>${rt('auction')}</h3><ol>${pos.calls
    .map((c) => `<li>${seatName(m, c.seat)}: <b>${c.call === 'pass' ? rt('passes') : num(c.call)}</b></li>`)
    .join('')}</ol>${pos.passedOut && pos.auctionOver ? `<p>${rt('passedOut')}</p>` : ''}</div>`;
}

function trickHtml(m: ReplayModel, pos: Position): string {
  const tr = pos.trick!;
  return `<div class="trick rtrick" data-testid="replay-trick">${tr.cards
    .map(
      (p) =>
        `<div class="played played-${positionOf(p.seat, null)} ${tr.winner === p.seat ? 'winner' : ''}" data-played="${p.card}" data-seat="${p.seat}" role="img" aria-label="${esc(
          `${m.players[p.seat] ? recordNameText(m.players[p.seat]) : `${rt('seat')} ${p.seat + 1}`}: ${cardLabel(p.card)}`,
        )}">${cardSvg(
          p.card,
        )}${p.seat === tr.leader ? `<span class="led">${t('ledBy')}</span>` : ''}</div>`,
    )
    .join('')}</div>`; // the winner's card glows; the step's caption names the winner
}

function statusBar(m: ReplayModel, pos: Position): string {
  const c = pos.contract;
  const contract = c
    ? `<span class="stat">${rt('contract')}: <b>${num(c.bid)}</b> · ${seatName(m, c.seat)}${
        pos.trump ? ` · ${rt('trump')} ${suitIcon(pos.trump, 16)}<span class="sr">${suitName(pos.trump)}</span>` : ''
      }</span>`
    : '';
  const tricks = pos.trump
    ? `<span class="stat" data-testid="replay-tricks">${rt('tricks')}: ${teamName(0)} <b>${num(pos.tricks[0])}</b> · ${teamName(1)} <b>${num(
        pos.tricks[1],
      )}</b></span>`
    : '';
  return `<div class="rstatus"><span class="stat" data-testid="replay-score">${rt('score')}: ${teamName(0)} <b>${n(pos.scores[0])}</b> – ${teamName(
    1,
  )} <b>${n(pos.scores[1])}</b></span>${contract}${tricks}</div>`;
}

/** The match's end as the result says: status, winner, final scores. */
export function resultLine(m: ReplayModel): string {
  const r = m.result;
  let head: string;
  if (r.status === 'won' && r.winner !== null) head = `${teamName(r.winner)} ${rt('teamWins')}`;
  else if (r.status === 'drawn') head = rt('drawn');
  else if (r.status === 'closed') head = rt('closed');
  else head = rt('inProgress');
  return `${head} · ${teamName(0)} ${n(r.totals[0])} – ${teamName(1)} ${n(r.totals[1])}`;
}

/** The score sheet beside the table: the deals scored up to this step (sheet.ts lines). */
export function sheetHtml(m: ReplayModel, pos: Position): string {
  const lines = pos.sheet.lines;
  return `<section class="rsheet-box"><h3 id="rsheet-h">${rt('scoreSheet')}</h3><table class="sheet rsheet" data-testid="replay-sheet" aria-labelledby="rsheet-h">
    <thead><tr><th>${rt('round')}</th><th>${rt('contract')}</th><th>${teamName(0)}</th><th>${teamName(1)}</th></tr></thead>
    <tbody>${lines
      .map(
        (l) => `<tr class="${l.made ? 'made' : 'set'}"><td>${num(l.round)}</td><td>${num(l.bid)} · ${seatName(m, l.declarer)} · ${rt(
          l.made ? 'made' : 'set',
        )}</td><td>${n(l.points[0])} <small>(${n(l.scores[0])})</small></td><td>${n(l.points[1])} <small>(${n(l.scores[1])})</small></td></tr>`,
      )
      .join('')}</tbody>
    <tfoot><tr><th colspan="2">${rt('score')}</th><th>${n(pos.scores[0])}</th><th>${n(pos.scores[1])}</th></tr></tfoot>
  </table></section>`;
}

/** What the analysis panel says for this position: status, par against bid and made, the turning point. */
export function analysisHtml(m: ReplayModel, pos: Position, a: AnalysisState | null, stored: boolean): string {
  const rd = m.result.deals[pos.deal];
  let body = '';
  if (!stored) body = `<p class="muted">${rt('analysisLocal')}</p>`;
  else if (rd.passed_out || rd.trump === null) body = `<p class="muted">${rt('analysisNotFound')}</p>`;
  else if (!a) body = `<button class="small" data-ract="analyse">${rt('analyse')}</button>`;
  else if (a.status === 'pending') body = `<p role="status" class="pending">${rt(a.phase === 'running' ? 'analysing' : 'queued')}</p>`;
  else if (a.status === 'error') {
    const text =
      a.code === 'analysis_busy'
        ? rt('analysisBusy')
        : a.code === 'not_found'
          ? rt('analysisNotFound')
          : a.code === 'failed'
            ? `${rt('analysisFailed')} (${esc(a.message ?? '')})`
            : `${rt('analysisError')}: ${esc(a.message ?? '')}`;
    body = `<p role="alert" class="error" data-code="${a.code}">${text}</p><button class="small" data-ract="analyse">${rt('analyse')}</button>`;
  } else {
    const d = a.data;
    const par = d.par ?? {};
    const parText =
      par.passed_out || par.bid === null || par.bid === undefined
        ? rt('parNone')
        : `${num(par.bid)}${par.trump ? ` ${suitIcon(par.trump, 14)}` : ''}${par.declarer !== null && par.declarer !== undefined ? ` · ${seatName(m, par.declarer)}` : ''}${
            par.tricks !== null && par.tricks !== undefined ? ` · ${count(par.tricks, 'trick')}` : ''
          }`;
    const taken = d.declarer !== null ? d.taken?.[teamOf(d.declarer)] : undefined;
    const bidText =
      d.declarer === null || d.bid === null
        ? rt('parNone')
        : `${num(d.bid)}${d.trump ? ` ${suitIcon(d.trump, 14)}` : ''} · ${seatName(m, d.declarer)} · ${
            taken !== undefined ? `${count(taken, 'trick')} · ` : ''
          }${d.made === null ? '' : `<b>${rt(d.made ? 'made' : 'set')}</b>`}`;
    const tp = d.turning_point;
    const tpStep = tp ? stepOf(m, pos.deal, tp.index) : null;
    const tpPlayed = tp ? d.positions.find((p) => p.index === tp.index)?.played : undefined;
    const tpText = tp
      ? `${seatName(m, tp.seat)}${tpPlayed ? ` ${cardText(tpPlayed)}` : ''}: ${
          tp.makes === true ? rt('tpSaved') : tp.makes === false ? rt('tpLost') : ''
        } (${rt('lost')} ${count(tp.cost, 'trick')}) ${
          tpStep !== null ? `<button class="small ghost" data-ract="goto" data-step="${tpStep}">${rt('goThere')}</button>` : ''
        }`
      : rt('noTurningPoint');
    const marks = pos.trump && pos.deal === d.deal ? marksAt(d, pos.cardsPlayed) : null;
    const here = marks
      ? `<p class="legend">${rt('valueLegend')}${rt('semicolon')}<span class="rc legal loses">${rt('costsLegend')}</span></p>${
          marks.cost > 0 ? `<p>${seatName(m, marks.seat)} ${cardText(marks.played)}: ${rt('lost')} ${count(marks.cost, 'trick')}</p>` : ''
        }`
      : `<p class="muted">${rt('analysisPlay')}</p>`;
    body = `<dl class="par"><dt>${rt('par')}</dt><dd data-testid="par">${parText}</dd><dt>${rt('bidMade')}</dt><dd>${bidText}</dd>
      <dt>${rt('turningPoint')}</dt><dd data-testid="turning-point">${tpText}</dd></dl>${here}`;
  }
  return `<section class="ranalysis" data-testid="analysis" aria-labelledby="ranalysis-h"><h3 id="ranalysis-h">${rt('analysis')}</h3>${body}</section>`;
}

/** The marks to draw on the hands at this position (null until the deal's analysis is ready). */
export function marksFor(pos: Position, a: AnalysisState | null): PositionMarks | null {
  if (!a || a.status !== 'ready' || !pos.trump || a.data.deal !== pos.deal) return null;
  return marksAt(a.data, pos.cardsPlayed);
}

/** The table at a step: four hands around it, the auction or the trick in the middle. */
export function boardHtml(m: ReplayModel, pos: Position, a: AnalysisState | null): string {
  const marks = marksFor(pos, a);
  let centre = '';
  if (!pos.trump) centre = auctionHtml(m, pos);
  else if (pos.trick) centre = trickHtml(m, pos);
  else centre = `<div class="rtrump">${rt('trump')} ${suitIcon(pos.trump, 40)}<div>${suitName(pos.trump)}</div></div>`;
  return `${statusBar(m, pos)}
    <div class="rtable" dir="ltr">
      ${seatsAround(null)
        .map((s) => seatBox(m, pos, s, marks))
        .join('')}
      <div class="rcentre">${centre}</div>
    </div>
    ${pos.matchOver ? `<p class="rresult" data-testid="replay-result" role="status"><b>${rt('matchOver')}</b>: ${resultLine(m)}</p>` : ''}`;
}
