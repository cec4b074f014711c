// Quick play on screen (issue 28; words and logic in quick.ts): the lobby's button with its
// choice of rules, the "Quick" badge of a quick-play table, and what its waiting room shows
// instead of the ordinary room's controls: who is looking, the countdown to the computer
// players (kept live by tickFill) and "Play now". Phone first: every control at least 44×44.
import type { State } from './app';
import { t } from './i18n';
import type { QuickInfo, TableView } from './protocol';
import { esc } from './util';
import { DEFAULT_QUICK_PRESET, QUICK_PRESETS, fillLabel, qw } from './quick';

/** The lobby's quick play: the button first, then the rules it asks for (remembered; pills as the bot level picker's) and what it does. */
export function quickLobby(s: State): string {
  const current = s.quickPreset ?? DEFAULT_QUICK_PRESET;
  const presets = QUICK_PRESETS.map(
    (p) =>
      `<button type="button" class="level-choice" data-act="quickpreset" data-preset="${p}" data-testid="quick-preset-${p}" aria-pressed="${p === current}">${t(p)}</button>`,
  ).join('');
  return `<section class="panel quick-play" data-testid="quick-play-panel">
    <button type="button" class="primary big quick-btn" data-act="quickplay" data-testid="quick-play" ${s.busy || s.conn !== 'open' ? 'disabled' : ''}>${qw('quickPlay')}</button>
    <div class="levels quick-presets" role="group" aria-label="${esc(qw('quickRules'))}"><span class="levels-title">${qw('quickRules')}</span>${presets}</div>
    <p class="muted quick-hint">${qw('quickHint')}</p>
  </section>`;
}

/** " · Quick" after a table's name, for a quick-play table (nothing for any other). */
export function quickBadge(quick: QuickInfo | undefined): string {
  return quick ? ` · <span class="tag quick" data-testid="quick-badge">${qw('quickBadge')}</span>` : '';
}

/** The quick-play waiting room's status: looking for players, and when the computer players come (live: tickFill). */
export function quickStatus(tv: TableView, nowMs: number): string {
  const at = tv.local_fill_at;
  return `<p class="quick-status" data-testid="quick-status"><b>${qw('looking')}</b>${
    typeof at === 'number' ? ` <span class="fill-label" data-fill-at="${at}" data-testid="fill-label">${esc(fillLabel(at, nowMs))}</span>` : ''
  }</p>`;
}

/** "Play now" for a seated person: `start`, and the server gives the empty seats to bots at once. */
export function playNowButton(): string {
  return `<button class="primary big" data-act="start" data-testid="play-now">${qw('playNow')}</button>
    <p class="muted">${qw('playNowHint')}</p>`;
}

/** Moves every fill countdown under `root` on to `nowMs` (called a few times a second: view.ts). */
export function tickFill(root: ParentNode, nowMs: number): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-fill-at]')) {
    const txt = fillLabel(Number(el.dataset.fillAt), nowMs);
    if (el.textContent !== txt) el.textContent = txt;
  }
}
