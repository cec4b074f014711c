// The page's status lines (issue 28), drawn over every screen by view.ts: the connection bar
// (connecting, reconnecting, or no network), the new-version prompt (the service worker has the
// next version ready, updates.ts) or the page older than the server, and on the sign-in screen
// the reason the person is there (a session ended by the server, one's own account name).
import type { State } from './app';
import { errorText, t } from './i18n';
import { statusText } from './status_i18n';
import { esc } from './util';

/** The bar at the foot of the page while there is no connection (none while playing offline): in the page's flow, under the screen (style.css). */
export function connBar(s: State): string {
  if (s.conn === 'open' || s.offline) return '';
  if (s.conn === 'offline') return `<div class="conn-bar offline" role="status" data-testid="offline-bar">${statusText('offlineBar')}</div>`;
  return `<div class="conn-bar" role="status" data-testid="conn-bar">${t(s.conn === 'connecting' && !s.token ? 'connecting' : 'reconnecting')}</div>`;
}

/** "A new version is ready" (or "this page is older than the server") with its Reload button; '' otherwise. */
export function updateBar(s: State): string {
  const tooOld = s.serverProtocol !== undefined && s.serverProtocol !== null;
  if (!tooOld && (!s.updateReady || s.updateDismissed)) return '';
  const text = tooOld ? statusText('tooOld') : statusText('updateReady');
  return `<div class="update-bar" role="status" data-testid="update-ready">
    <span>${text}</span>
    <button type="button" class="primary" data-act="update-reload" data-testid="update-reload">${statusText('updateReload')}</button>
    ${tooOld ? '' : `<button type="button" class="ghost" data-act="update-later">${statusText('updateLater')}</button>`}
  </div>`;
}

/** On the sign-in screen: why the person is asked to sign in again, or that the name typed is their account. */
export function signInNotice(s: State): string {
  if (s.notice === 'sessionEnded')
    return `<p class="notice" role="alert" data-testid="session-ended">${esc(errorText('unknown_token', undefined))}</p>`;
  if (s.notice === 'ownAccount')
    return `<p class="notice" role="alert" data-testid="own-account">${statusText('ownAccount', { name: `<bdi>${esc(s.accountInput?.name ?? '')}</bdi>` })}</p>`;
  return '';
}
