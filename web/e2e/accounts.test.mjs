// Accounts (docs/protocol.md "Accounts"): a guest registers its name in one browser context and
// signs in with name and password from a second one (another device); signing out everywhere
// signs the second one out too; a guest who signs out is warned first and offered to register.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer, signIn, screenshots, DESKTOP, PHONE, audit, clickSure, fillField } from './harness.mjs';

const env = useServer();

const PASSWORD = 'olive-tree-42';

test('register in one browser, sign in from another, sign out everywhere', async () => {
  const name = `Acct${Date.now() % 100000}`;
  const ctxA = await env.br.browser.newContext(DESKTOP);
  const ctxB = await env.br.browser.newContext(PHONE);
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  try {
    // A: a guest, then registered (same name)
    await signIn(a, env.srv.url, name, 'en');
    assert.equal(await a.evaluate(() => window.tarneeb.state.registered), false);
    await clickSure(a, '[data-testid=register-open]');
    await a.waitForSelector('form[data-form=register]');
    assert.deepEqual(await audit(a), [], 'the register panel is accessible');
    await a.fill('form[data-form=register] input[name=next]', PASSWORD);
    await a.fill('form[data-form=register] input[name=confirm]', PASSWORD);
    await clickSure(a, 'form[data-form=register] button[type=submit]');
    await a.waitForSelector('[data-testid=registered]');
    await clickSure(a, '.account-panel [data-act=account-close]');

    // B, another device: the guest form refuses the name, the password signs in (any case)
    await b.goto(`${env.srv.url}/?lang=ar`);
    await fillField(b, 'form[data-form=signin] input[name=name]', name, (n) => window.tarneeb.state.nameInput === n);
    await clickSure(b, 'form[data-form=signin] button[type=submit]');
    await b.waitForSelector('.toast');
    assert.equal(await b.evaluate(() => window.tarneeb.state.welcomed), false);
    await clickSure(b, '[data-testid=account-signin] summary');
    assert.deepEqual(await audit(b), [], 'the password sign-in form is accessible (Arabic, phone)');
    await b.fill('form[data-form=account-signin] input[name=name]', name.toLowerCase());
    await b.fill('form[data-form=account-signin] input[name=password]', 'not-the-password');
    await clickSure(b, 'form[data-form=account-signin] button[type=submit]');
    await b.waitForFunction(() => document.querySelector('.toast')?.textContent.includes('كلمة المرور خطأ'));
    await b.fill('form[data-form=account-signin] input[name=password]', PASSWORD);
    await clickSure(b, 'form[data-form=account-signin] button[type=submit]');
    await b.waitForSelector('form[data-form=create]');
    const signedIn = await b.evaluate(() => ({ name: window.tarneeb.state.name, registered: window.tarneeb.state.registered }));
    assert.deepEqual(signedIn, { name, registered: true });
    assert.ok(await b.isVisible('[data-testid=registered]'));

    // A signs out everywhere: A shows the sign-in screen, and B's session is revoked too
    a.once('dialog', (d) => d.accept());
    await clickSure(a, '[data-testid=signout-everywhere]');
    await a.waitForSelector('form[data-form=signin]');
    await b.waitForSelector('form[data-form=signin]', { timeout: 20000 });
    assert.equal(await b.evaluate(() => window.tarneeb.state.token), null);

    // The password still signs in, on A
    await clickSure(a, '[data-testid=account-signin] summary');
    await a.fill('form[data-form=account-signin] input[name=name]', name);
    await a.fill('form[data-form=account-signin] input[name=password]', PASSWORD);
    await clickSure(a, 'form[data-form=account-signin] button[type=submit]');
    await a.waitForSelector('[data-testid=registered]');
  } catch (e) {
    await screenshots('accounts', [a, b]);
    throw e;
  } finally {
    await ctxA.close();
    await ctxB.close();
  }
});

test('a guest is warned before signing out and offered to register', async () => {
  const ctx = await env.br.browser.newContext(DESKTOP);
  const page = await ctx.newPage();
  try {
    await signIn(page, env.srv.url, `Guest${Date.now() % 100000}`, 'en');
    await clickSure(page, '[data-act=signout]');
    await page.waitForSelector('[data-testid=guest-signout-warning]');
    assert.deepEqual(await audit(page), [], 'the warning is accessible');
    assert.equal(await page.evaluate(() => window.tarneeb.state.welcomed), true, 'still signed in');
    await clickSure(page, '.account-panel [data-act=account-register]');
    await page.waitForSelector('form[data-form=register]');
    await clickSure(page, '.account-panel [data-act=account-close]');
    await clickSure(page, '[data-act=signout]');
    await clickSure(page, '[data-act=account-signout-anyway]');
    await page.waitForSelector('form[data-form=signin]');
  } catch (e) {
    await screenshots('accounts-guest', [page]);
    throw e;
  } finally {
    await ctx.close();
  }
});

test('a revoked device says its session ended, offers the password for its own name, and brings back no old dialog', async () => {
  const name = `Rev${Date.now() % 100000}`;
  const NEW_PASSWORD = 'fig-and-olive-43';
  const ctxA = await env.br.browser.newContext(PHONE);
  const ctxB = await env.br.browser.newContext(DESKTOP);
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  try {
    // A (Arabic, phone): a guest who registers; the "registered" dialog is left open
    await signIn(a, env.srv.url, name, 'ar');
    await clickSure(a, '[data-testid=register-open]');
    await a.fill('form[data-form=register] input[name=next]', PASSWORD);
    await a.fill('form[data-form=register] input[name=confirm]', PASSWORD);
    await clickSure(a, 'form[data-form=register] button[type=submit]');
    await a.waitForSelector('[data-testid=registered]');
    await a.waitForSelector('.account-panel');

    // B, another device: signs in with the password and changes it, which revokes A
    await b.goto(`${env.srv.url}/?lang=en`);
    await clickSure(b, '[data-testid=account-signin] summary');
    await b.fill('form[data-form=account-signin] input[name=name]', name);
    await b.fill('form[data-form=account-signin] input[name=password]', PASSWORD);
    await clickSure(b, 'form[data-form=account-signin] button[type=submit]');
    await b.waitForSelector('[data-testid=registered]');
    await clickSure(b, '[data-act=account-password]');
    await b.fill('form[data-form=change-password] input[name=current]', PASSWORD);
    await b.fill('form[data-form=change-password] input[name=next]', NEW_PASSWORD);
    await b.fill('form[data-form=change-password] input[name=confirm]', NEW_PASSWORD);
    await clickSure(b, 'form[data-form=change-password] button[type=submit]');

    // A is told, in Arabic, and the password form waits with its name
    await a.waitForSelector('[data-testid=session-ended]');
    assert.match(await a.textContent('[data-testid=session-ended]'), /انتهت جلستك/);
    assert.equal(await a.inputValue('form[data-form=account-signin] input[name=name]'), name);
    assert.equal(await a.locator('.account-panel').count(), 0);
    assert.deepEqual(await audit(a), [], 'the sign-in screen with its notice is accessible');

    // its own name in the guest form: not «هذا الاسم مأخوذ», the password sign-in instead
    await fillField(a, 'form[data-form=signin] input[name=name]', name, (n) => window.tarneeb.state.nameInput === n);
    await clickSure(a, 'form[data-form=signin] button[type=submit]');
    await a.waitForSelector('[data-testid=own-account]');
    assert.equal(await a.locator('.toast').count(), 0, 'no «name taken»');
    await a.fill('form[data-form=account-signin] input[name=password]', NEW_PASSWORD);
    await clickSure(a, 'form[data-form=account-signin] button[type=submit]');
    await a.waitForSelector('[data-testid=registered]');
    assert.equal(await a.locator('.account-panel').count(), 0, 'no stale "registered" dialog');
    assert.equal(await a.locator('[data-testid=session-ended]').count(), 0);
  } catch (e) {
    await screenshots('accounts-revoked', [a, b]);
    throw e;
  } finally {
    await ctxA.close();
    await ctxB.close();
  }
});
