// The score sheet of a match: one line per scored round, built from `round_scored` events.
import type { GameEvent, HistoryRound, Seat } from './protocol';

export interface SheetLine {
  round: number; // scored rounds, 1-based
  declarer: Seat;
  bid: number;
  made: boolean;
  tricks: [number, number];
  points: [number, number];
  scores: [number, number];
}

export interface Sheet {
  table: string;
  match: number;
  lines: SheetLine[];
}

export function emptySheet(table: string, match: number): Sheet {
  return { table, match, lines: [] };
}

/** Adds the rounds scored in `events` to the sheet (a new sheet for another table or match). */
export function applyEvents(sheet: Sheet, table: string, match: number, events: GameEvent[]): Sheet {
  let s = sheet.table === table && sheet.match === match ? sheet : emptySheet(table, match);
  for (const e of events) {
    if (e.event === 'match_started') {
      s = emptySheet(table, e.match);
    } else if (e.event === 'round_scored') {
      const last = s.lines[s.lines.length - 1];
      if (last && last.scores[0] === e.scores[0] && last.scores[1] === e.scores[1] &&
          last.points[0] === e.points[0] && last.points[1] === e.points[1] && last.bid === e.contract.bid &&
          last.tricks[0] === e.tricks[0]) {
        continue; // the same event seen twice (a resent table message)
      }
      s = {
        ...s,
        lines: [
          ...s.lines,
          {
            round: s.lines.length + 1,
            declarer: e.contract.seat,
            bid: e.contract.bid,
            made: e.made,
            tricks: e.tricks,
            points: e.points,
            scores: e.scores,
          },
        ],
      };
    }
  }
  return s;
}

/**
 * The score sheet of a match from the server's `history` (its finished rounds): one line per
 * scored round, passed-out deals left out, numbered as applyEvents numbers them.
 */
export function sheetFromHistory(table: string, match: number, history: HistoryRound[]): Sheet {
  const lines: SheetLine[] = [];
  for (const h of history) {
    if (!h.contract) continue;
    lines.push({
      round: lines.length + 1,
      declarer: h.contract.seat,
      bid: h.contract.bid,
      made: h.contract.made,
      tricks: h.taken,
      points: h.points,
      scores: h.totals,
    });
  }
  return { table, match, lines };
}
