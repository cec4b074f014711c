// The "Play offline" entry of the start screen and the lobby (offline.ts plays the match; the
// table itself is the online game's view).
import type { State } from './app';
import { num, t } from './i18n';

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
      ${offlineButton(s)}
    </div>
  </section>`;
}
