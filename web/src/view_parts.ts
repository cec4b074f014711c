// Small pieces shared by the screens (view_lobby.ts, view_table.ts, view_panels.ts): names of
// players and teams as shown, the language button, the error toast, a dialog.
import type { State } from './app';
import { num, t } from './i18n';
import { ourTeam } from './layout';
import { needOf } from './legal';
import type { SeatInfo, TableView } from './protocol';
import { esc, ltr } from './util';
import { botHtml, botShown, botText } from './bot_levels';

export const n = (x: number) => ltr(num(x < 0 ? `-${Math.abs(x)}` : x));

export function langButton(s: State): string {
  return `<button class="lang" data-act="lang" data-lang="${s.lang === 'ar' ? 'en' : 'ar'}" lang="${
    s.lang === 'ar' ? 'en' : 'ar'
  }">${t('language')}</button>`;
}

export function errorBar(s: State): string {
  return s.error ? `<div class="toast" role="alert">${esc(s.error)}</div>` : '';
}

/** The sign-in field's limit in UTF-16 units: the server checks names (any script, at most
 * 24 columns and 64 code points: docs/protocol.md "hello"); this only stops runaway input. A
 * 24-column Arabic name with vowel marks is about 48 units, so 24 would refuse it. */
export const NAME_MAX_UNITS = 128;

/** A player's name, isolated (`<bdi>`) so that an Arabic name in English text, or a Latin one in
 * Arabic text, keeps its own direction and does not reorder the text around it. */
export const nameHtml = (name: string): string => `<bdi>${esc(name)}</bdi>`;

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

export function seatChip(seat: TableView['seats'][number]): string {
  if (!seat) return `<span class="chip free">${t('free')}</span>`;
  return `<span class="chip ${seat.bot ? 'bot' : ''}">${playerHtml(seat)}</span>`;
}

/** "rated" or "casual" (a server that does not say: nothing). */
export function ratedTag(rated: boolean | undefined): string {
  if (rated === undefined) return '';
  return ` · <span class="tag ${rated ? 'rated' : 'casual'}" data-testid="rated">${t(rated ? 'rated' : 'casual')}</span>`;
}

/** Whether the hint button is offered: a turn to play, and a table whose match is not rated. */
export function hintsOn(tv: TableView): boolean {
  return needOf(tv) !== 'none' && tv.rated !== true;
}
export function teamLabel(team: 0 | 1, tv: TableView): string {
  if (tv.you === null) return t(team === 0 ? 'team0' : 'team1');
  return t(team === ourTeam(tv.you) ? 'us' : 'them');
}

export function seatLabel(seat: number, tv: TableView): string {
  const st = tv.seats[seat];
  return st ? playerHtml(st) : `${t('free')}`;
}
export function modal(title: string, body: string, extra = ''): string {
  return `<div class="overlay" data-act="closemodal"><div class="panel modal" role="dialog" aria-modal="true" aria-labelledby="modal-title" data-stop>
    <h2 id="modal-title">${title}</h2>${body}<div class="row">${extra}<button data-act="closemodal">${t('close')}</button></div></div></div>`;
}

