// The "Play offline" entry of the start screen and the lobby (offline.ts plays the match; the
// table itself is the online game's view), with the bots' level: the levels the offline engine has.
import type { State } from './app';
import { num, t } from './i18n';
import { DEFAULT_LEVEL, OFFLINE_LEVELS, levelPickerHtml } from './bot_levels';

/** The offline bots' level picker (easy, medium, hard; it says expert is played online). */
function offlineLevels(s: State): string {
  return levelPickerHtml(s.offlineLevel ?? DEFAULT_LEVEL, s.lang, 'act', { levels: OFFLINE_LEVELS, act: 'offlinelevel' });
}

/** The lobby's offline entry: the level and the button (the rules and target are the create form's). */
export function offlineLobby(s: State): string {
  return `<section class="offline-entry" data-testid="offline-entry"><h2>${t('playOffline')}</h2>${offlineLevels(s)}${offlineButton(s, 'ghost')}</section>`;
}

/** The button that starts an offline match with the form's rules and target. */
export function offlineButton(s: State, cls = 'primary'): string {
  return `<button type="button" class="${cls}" data-act="offline" data-testid="play-offline" ${s.busy ? 'disabled' : ''}>${t('playOffline')}</button>`;
}

/** The start screen's offline entry: rules, target and the button; works without a server. */
export function offlineEntry(s: State): string {
  const f = s.form;
  return `<section class="offline-entry" data-testid="offline-entry">
    <h2>${t('playOffline')}</h2>
    <p class="muted">${t('offlineHint')}</p>
    <div class="row">
      <label>${t('preset')}
        <select data-bind="form.preset" name="preset">
          <option value="levantine" ${f.preset === 'levantine' ? 'selected' : ''}>${t('levantine')}</option>
          <option value="classic" ${f.preset === 'classic' ? 'selected' : ''}>${t('classic')}</option>
        </select></label>
      <label>${t('target')} <input type="text" inputmode="numeric" name="target" data-bind="form.target" data-num value="${num(f.target)}" size="4"></label>
    </div>
    ${offlineLevels(s)}
    ${offlineButton(s)}
  </section>`;
}
