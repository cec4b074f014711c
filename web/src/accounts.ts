// Accounts in the browser (docs/protocol.md "Accounts"): the sign-in form with a password, the
// signed-in guest's register form, change password, sign out everywhere, and the warning a guest
// gets before signing out (its token is its only key to its name). The server checks everything;
// the length check here only saves a round trip.
import type { App, State } from './app';
import { t, type Key } from './i18n';
import { esc } from './util';

/** The account panel open over the lobby. */
export type AccountPanel =
  | { kind: 'register' }
  | { kind: 'password' }
  | { kind: 'signout' }
  | { kind: 'done'; what: 'registered' | 'passwordChanged' };

/** Password bounds in characters (Unicode code points, as the server counts them: 8..256). */
export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 256;

/** The text key of what is wrong with a new password and its confirmation, or null. */
export function passwordProblem(password: string, confirm: string): Key | null {
  const chars = [...password].length; // code points, not UTF-16 units
  if (chars < PASSWORD_MIN_CHARS || chars > PASSWORD_MAX_CHARS) return 'passwordLength';
  if (password !== confirm) return 'passwordMismatch';
  return null;
}

/**
 * Whether two names are one for the sign-in (a guest name and the account kept on this device):
 * equal after Unicode NFKC and case folding. The server's rule is stricter (the TR39 skeleton:
 * docs/protocol.md "Sign-in"); this only decides what the page offers after `name_taken`.
 */
export function sameName(a: string, b: string): boolean {
  const key = (s: string) => s.trim().normalize('NFKC').toLowerCase();
  return key(a) === key(b);
}

/** The typed account fields (kept in memory only, so that a re-render does not wipe them). */
export type AccountInput = Partial<Record<'name' | 'password' | 'current' | 'next' | 'confirm', string>>;

const field = (s: State, key: keyof AccountInput): string => esc(s.accountInput?.[key] ?? '');

function passwordInput(s: State, key: keyof AccountInput, label: Key, autocomplete: string): string {
  return `<label>${t(label)}
    <input type="password" name="${key}" data-bind="acct.${key}" dir="ltr" maxlength="${2 * PASSWORD_MAX_CHARS}" autocomplete="${autocomplete}" required value="${field(s, key)}">
  </label>`;
}

/** The sign-in screen's second form: an account's name and password. */
export function accountSignInForm(s: State): string {
  const off = s.busy || s.conn !== 'open' ? 'disabled' : '';
  return `<details class="account-signin" data-testid="account-signin" ${s.accountInput?.name || s.accountInput?.password ? 'open' : ''}>
    <summary>${t('haveAccount')}</summary>
    <form data-form="account-signin">
      <label>${t('yourName')}
        <input name="name" data-bind="acct.name" dir="auto" maxlength="128" autocomplete="username" required value="${field(s, 'name')}">
      </label>
      ${passwordInput(s, 'password', 'password', 'current-password')}
      <button type="submit" class="primary" ${off}>${t('signInAccount')}</button>
    </form>
  </details>`;
}

/** The lobby's account buttons: a guest may register; an account may change its password or sign out everywhere. */
export function accountButtons(s: State): string {
  if (!s.registered)
    return `<button class="small" data-act="account-register" data-testid="register-open">${t('register')}</button>`;
  return `<span class="tag registered" data-testid="registered">${t('registeredTag')}</span>
    <button class="ghost small" data-act="account-password">${t('changePassword')}</button>
    <button class="ghost small" data-act="account-everywhere" data-testid="signout-everywhere">${t('signOutEverywhere')}</button>`;
}

function panel(title: Key, body: string): string {
  return `<div class="overlay"><div class="panel modal account-panel" role="dialog" aria-modal="true" aria-labelledby="account-title">
    <h2 id="account-title">${t(title)}</h2>${body}</div></div>`;
}

const cancel = (): string => `<button type="button" class="ghost" data-act="account-close">${t('cancel')}</button>`;

/** The open account panel over the page, or ''. */
export function accountPanelHtml(s: State): string {
  const p = s.accountPanel;
  if (!p || !s.welcomed) return '';
  const off = s.busy || s.conn !== 'open' ? 'disabled' : '';
  switch (p.kind) {
    case 'register':
      return panel(
        'registerTitle',
        `<p>${t('registerWhy')}</p>
        <form data-form="register" class="account-form">
          ${passwordInput(s, 'next', 'newPassword', 'new-password')}
          ${passwordInput(s, 'confirm', 'confirmPassword', 'new-password')}
          <button type="submit" class="primary" ${off}>${t('register')}</button>${cancel()}
        </form>`,
      );
    case 'password':
      return panel(
        'changePassword',
        `<p>${t('changePasswordWhy')}</p>
        <form data-form="change-password" class="account-form">
          ${passwordInput(s, 'current', 'currentPassword', 'current-password')}
          ${passwordInput(s, 'next', 'newPassword', 'new-password')}
          ${passwordInput(s, 'confirm', 'confirmPassword', 'new-password')}
          <button type="submit" class="primary" ${off}>${t('changePassword')}</button>${cancel()}
        </form>`,
      );
    case 'signout':
      return panel(
        'guestSignOutTitle',
        `<p data-testid="guest-signout-warning">${t('guestSignOutWarning')}</p>
        <div class="account-actions">
          <button class="primary" data-act="account-register">${t('registerFirst')}</button>
          <button class="danger" data-act="account-signout-anyway">${t('signOutAnyway')}</button>${cancel()}
        </div>`,
      );
    case 'done':
      return panel(
        p.what === 'registered' ? 'registeredTitle' : 'passwordChangedTitle',
        `<p>${t(p.what === 'registered' ? 'registeredDone' : 'passwordChangedDone')}</p>
        <button class="primary" data-act="account-close">${t('close')}</button>`,
      );
  }
}

/** Handles an account form's submit; false when `form` is not one. */
export function onAccountSubmit(app: App, form: HTMLFormElement): boolean {
  const input = app.state.accountInput ?? {};
  const clear = () => (app.state.accountInput = {});
  switch (form.dataset.form) {
    case 'account-signin':
      app.signInWithPassword(input.name ?? '', input.password ?? '');
      app.state.accountInput = { name: input.name };
      return true;
    case 'register': {
      const problem = passwordProblem(input.next ?? '', input.confirm ?? '');
      if (problem) app.showError('', t(problem));
      else {
        void app.register(input.next ?? '');
        clear();
      }
      return true;
    }
    case 'change-password': {
      const problem = passwordProblem(input.next ?? '', input.confirm ?? '');
      if (problem) app.showError('', t(problem));
      else {
        void app.changePassword(input.current ?? '', input.next ?? '');
        clear();
      }
      return true;
    }
    default:
      return false;
  }
}

/** Handles an account button (data-act="account-…"); false when `act` is not one. */
export function onAccountAct(app: App, act: string | undefined): boolean {
  switch (act) {
    case 'account-register':
      app.state.accountInput = {};
      app.showAccountPanel({ kind: 'register' });
      return true;
    case 'account-password':
      app.state.accountInput = {};
      app.showAccountPanel({ kind: 'password' });
      return true;
    case 'account-everywhere':
      if (confirm(t('signOutEverywhereConfirm'))) void app.signOutEverywhere();
      return true;
    case 'account-signout-anyway':
      app.signOut(true);
      return true;
    case 'account-close':
      app.state.accountInput = {};
      app.showAccountPanel(null);
      return true;
    default:
      return false;
  }
}
