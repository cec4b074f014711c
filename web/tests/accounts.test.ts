import { beforeEach, describe, expect, it } from 'vitest';
import { accountButtons, accountPanelHtml, passwordProblem } from '../src/accounts';
import { emptySheet } from '../src/sheet';
import { html } from '../src/view';
import { errorText, setLang, t } from '../src/i18n';
import type { State } from '../src/app';

const state = (over: Partial<State> = {}): State => ({
  conn: 'open', lang: 'en', name: 'Layla', token: 'x', welcomed: true, busy: false, tables: [], listCursor: null, listPrev: [], listNext: null,
  listsAsked: 0, listsAnswered: 0, table: null, codes: {}, sheet: emptySheet('', 0), summary: null, matchOver: null, ratings: null, log: [], error: null,
  showLastTrick: false, showSheet: false, actedVersion: null, hint: null, sound: false,
  form: { preset: 'levantine', target: 31, timer: 30, priv: false, bots: true }, nameInput: '', joinId: '', joinCode: '', watching: null,
  ...over,
});

beforeEach(() => setLang('en'));

describe('passwords', () => {
  it('counts characters (code points), 8 to 256, as the server does, and wants the confirmation to match', () => {
    expect(passwordProblem('1234567', '1234567')).toBe('passwordLength');
    expect(passwordProblem('12345678', '12345678')).toBeNull();
    expect(passwordProblem('x'.repeat(256), 'x'.repeat(256))).toBeNull();
    expect(passwordProblem('x'.repeat(257), 'x'.repeat(257))).toBe('passwordLength');
    // four Arabic letters are four characters (eight bytes); eight are enough
    expect(passwordProblem('كلمة', 'كلمة')).toBe('passwordLength');
    expect(passwordProblem('كلمةسرية', 'كلمةسرية')).toBeNull();
    // an emoji is one character (two UTF-16 units): seven of them are too few
    expect(passwordProblem('🃏'.repeat(7), '🃏'.repeat(7))).toBe('passwordLength');
    expect(passwordProblem('🃏'.repeat(256), '🃏'.repeat(256))).toBeNull();
    expect(passwordProblem('12345678', '12345679')).toBe('passwordMismatch');
  });
});

describe('the account screens', () => {
  it('offers a guest to register and an account to change its password or sign out everywhere', () => {
    expect(accountButtons(state())).toContain('data-act="account-register"');
    expect(accountButtons(state())).not.toContain('account-everywhere');
    const reg = accountButtons(state({ registered: true }));
    expect(reg).toContain('data-act="account-password"');
    expect(reg).toContain('data-act="account-everywhere"');
    expect(reg).not.toContain('account-register');
  });
  it('has a password sign-in form on the sign-in screen', () => {
    const out = html(state({ welcomed: false, token: null }));
    expect(out).toContain('data-form="signin"');
    expect(out).toContain('data-form="account-signin"');
    expect(out).toMatch(/<input type="password" name="password"[^>]*autocomplete="current-password"/);
  });
  it('warns a guest before signing out and offers to register', () => {
    const out = accountPanelHtml(state({ accountPanel: { kind: 'signout' } }));
    expect(out).toContain(t('guestSignOutWarning'));
    expect(out).toContain('data-act="account-register"');
    expect(out).toContain('data-act="account-signout-anyway"');
  });
  it('escapes what was typed back into the fields', () => {
    const out = accountPanelHtml(state({ accountPanel: { kind: 'register' }, accountInput: { next: '"><img src=x onerror=alert(1)>' } }));
    expect(out).not.toContain('<img');
    expect(out).toContain('&quot;&gt;&lt;img');
  });
  it('shows no panel before sign-in', () => {
    expect(accountPanelHtml(state({ welcomed: false, accountPanel: { kind: 'register' } }))).toBe('');
  });
  it('speaks Arabic too, with the server error codes', () => {
    setLang('ar');
    expect(accountPanelHtml(state({ accountPanel: { kind: 'password' } }))).toContain('كلمة المرور الحالية');
    for (const code of ['bad_credentials', 'bad_password', 'too_many_attempts', 'busy', 'already_registered', 'not_registered']) {
      expect(errorText(code, undefined, 'ar')).not.toBe(code);
      expect(errorText(code, undefined, 'en')).not.toBe(code);
    }
  });
});
