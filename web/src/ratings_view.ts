// How a rated match moved each person's rating, shown in the match-over panel (issue 28 defect
// 5): the server's `ratings` message (docs/protocol.md "ratings"), sent after the match is stored.
import { num } from './i18n';
import type { RatingsMessage } from './protocol';
import { st } from './social_i18n';
import { esc } from './util';

/** A rating rounded to a whole number, as the leaderboard shows it. */
const whole = (r: number): number => Math.round(r);

/** The change as a signed whole number ("+16", "−16", "0") in the page's digits. */
export function signedChange(before: number, after: number): string {
  const d = whole(after) - whole(before);
  return d > 0 ? `+${num(d)}` : num(d);
}

/**
 * The lines of the panel: each rated seat's name, its rating before and after, and the change;
 * `you` (the viewer's seat, or null) is marked. Empty when `r` is not for table `table`.
 */
export function ratingsHtml(r: RatingsMessage | null, table: string, you: number | null): string {
  if (!r || r.table !== table || !r.seats.some((s) => s)) return '';
  const rows = r.seats
    .map((s, seat) => {
      if (!s) return '';
      const mine = seat === you ? ' class="me"' : '';
      return `<li${mine} data-testid="rating-change"><bdi>${esc(s.name)}</bdi>: ${num(whole(s.before))} → ${num(whole(s.after))} (<bdi dir="ltr">${signedChange(s.before, s.after)}</bdi>)</li>`;
    })
    .join('');
  return `<section class="ratings" aria-label="${st('rating')}"><h3>${st('rating')}</h3><ul>${rows}</ul></section>`;
}
