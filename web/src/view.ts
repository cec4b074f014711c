// Rendering: the state as HTML (the screens are view_lobby.ts and view_table.ts), and the
// page's events turned into App calls.
import type { App, State } from './app';
import { latinDigits, num, parseNum, t, tableIdOf, type Key } from './i18n';
import type { Suit } from './protocol';
import { formatCountdown, fractionLeft, remainingMs, urgent } from './timer';
import { offlineEntry } from './offline_view';
import { accountPanelHtml, onAccountAct, onAccountSubmit, type AccountInput } from './accounts';
import { st } from './social_i18n';
import { connBar, updateBar } from './status_view';
import { rulesHash } from './rules';
import { errorBar, hintsOn } from './view_parts';
import { finishedScreen, lobbyScreen, signInScreen, waitingRoom } from './view_lobby';
import { tableScreen, type Screen } from './view_table';
import { animateTable, handRects, reducedMotion } from './motion';
import { tickFill } from './view_quick';

export { NAME_MAX_UNITS, botKind, playerHtml, playerText } from './view_parts';
export { hinted, lastTrickOf, type Screen } from './view_table';

const windowSize = (): Screen => ({ w: globalThis.innerWidth ?? 1024, h: globalThis.innerHeight ?? 768 });
/** The room the game has: the window, less the chat beside or under it (social.css `.with-chat`). */
function appSize(root: HTMLElement): Screen {
  const win = windowSize();
  const shared = root.ownerDocument.body.classList.contains('with-chat');
  return { w: root.clientWidth || win.w, h: shared && root.clientHeight ? root.clientHeight : win.h };
}
export function html(s: State, screen: Screen = windowSize()): string {
  let body: string;
  if (s.offline && s.table) body = tableScreen(s, s.table, screen);
  else if (!s.welcomed)
    body = s.token
      ? `<main class="screen center">${s.conn === 'offline' ? '' : `<p>${t('connecting')}</p>`}${offlineEntry(s)}</main>`
      : signInScreen(s);
  else if (!s.table) body = lobbyScreen(s);
  else if (s.table.state === 'waiting' || !s.table.round) body = s.table.state === 'finished' ? finishedScreen(s, s.table) : waitingRoom(s, s.table);
  else body = tableScreen(s, s.table, screen);
  // the new-version prompt above the screen, in the page's flow (style.css: the screen shrinks under it, nothing is covered)
  return updateBar(s) + body + accountPanelHtml(s) + connBar(s) + errorBar(s);
}

// ---- rendering and events ---------------------------------------------------------------

export function mount(root: HTMLElement, app: App): (s: State) => void {
  let last = '';
  let moved: number | null = null; // the table version whose movement was laid over the page
  const render = (s: State) => {
    const out = html(s, appSize(root));
    if (out === last) return;
    last = out;
    const active = document.activeElement as HTMLElement | null;
    const key = active ? focusKey(active) : null;
    // the movement of a new table message, once (visual only: motion.ts)
    const m = s.motion && s.table?.version === s.motion.version && moved !== s.motion.version && !reducedMotion() ? s.motion : null;
    const before = m ? handRects(root) : null;
    root.innerHTML = out;
    if (m && before) {
      moved = m.version;
      animateTable(root, m, before);
    }
    if (key) {
      const el = root.querySelector<HTMLElement>(key);
      if (el && !(el as HTMLButtonElement).disabled) el.focus();
    } else {
      const af = root.querySelector<HTMLElement>('[autofocus]');
      if (af && !(af as HTMLButtonElement).disabled) af.focus();
    }
  };

  // the hand's rows and card sizes follow the game's room: a phone turned, a window resized, the
  // chat opened beside or under the table (drawn on the next frame: no resize loop)
  let queued = false;
  const again = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      render(app.state);
    });
  };
  if (typeof ResizeObserver !== 'undefined') new ResizeObserver(again).observe(root);
  else globalThis.addEventListener?.('resize', again);

  root.addEventListener('click', (ev) => {
    const target = ev.target as HTMLElement;
    const el = target.closest<HTMLElement>('[data-act]');
    if (!el || (el as HTMLButtonElement).disabled) return;
    if (el.dataset.act === 'closemodal' && target.closest('[data-stop]') && el.tagName !== 'BUTTON') return;
    onAct(app, el);
  });
  root.addEventListener('keydown', (ev) => {
    const el = ev.target as HTMLElement;
    if ((ev.key === 'Enter' || ev.key === ' ') && el.getAttribute('role') === 'button' && el.dataset.act) {
      ev.preventDefault();
      onAct(app, el);
    }
    if (ev.key === 'Escape') app.update({ showLastTrick: false, showSheet: false });
    // at the table, single keys (outside text fields): h hint, l last trick, s score sheet
    const typing = el.closest('input, textarea, select');
    if (!typing && !ev.ctrlKey && !ev.metaKey && !ev.altKey && app.state.table?.round) {
      const key = ev.key.toLowerCase();
      if (key === 'h' && hintsOn(app.state.table)) void app.askHint();
      else if (key === 'l') app.update({ showLastTrick: true });
      else if (key === 's') app.update({ showSheet: true });
    }
    // arrow keys move along the playable cards of the hand
    if ((ev.key === 'ArrowLeft' || ev.key === 'ArrowRight') && el.closest('.hand')) {
      const cards = [...root.querySelectorAll<HTMLButtonElement>('.hand .card:not([disabled])')];
      const i = cards.indexOf(el as HTMLButtonElement);
      if (cards.length) {
        const step = ev.key === 'ArrowRight' ? 1 : -1; // the hand runs left to right in both languages
        cards[(i + step + cards.length) % cards.length].focus();
        ev.preventDefault();
      }
    }
  });
  root.addEventListener('input', (ev) => {
    const el = ev.target as HTMLInputElement;
    const bind = el.dataset.bind;
    if (!bind) return;
    const v = el.type === 'checkbox' ? el.checked : 'num' in el.dataset ? parseNum(el.value) : el.value;
    if (typeof v === 'number' && Number.isNaN(v)) return; // not a number (yet): the form keeps the last one
    if (bind.startsWith('acct.')) {
      app.state.accountInput = { ...app.state.accountInput, [bind.slice(5) as keyof AccountInput]: String(v) };
    } else if (bind.startsWith('form.')) {
      (app.state.form as unknown as Record<string, unknown>)[bind.slice(5)] = v;
      app.saveForm();
    } else (app.state as unknown as Record<string, unknown>)[bind] = v;
  });
  root.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const form = ev.target as HTMLFormElement;
    const fd = new FormData(form);
    const submitter = (ev as SubmitEvent).submitter as HTMLElement | null;
    if (onAccountSubmit(app, form)) return;
    if (form.dataset.form === 'signin') app.signIn(String(fd.get('name') ?? ''));
    else if (form.dataset.form === 'create') {
      app.state.form = {
        preset: fd.get('preset') === 'classic' ? 'classic' : 'levantine',
        target: parseNum(String(fd.get('target') ?? '')) || 31,
        timer: parseNum(String(fd.get('timer') ?? '')) || 0,
        priv: fd.get('private') !== null,
        bots: fd.get('bots') !== null,
        casual: fd.get('casual') !== null,
      };
      app.createTable();
    } else if (form.dataset.form === 'private') {
      const id = tableIdOf(String(fd.get('table') ?? ''));
      const code = latinDigits(String(fd.get('code') ?? '').trim());
      if (!id) return;
      if (submitter?.dataset.mode === 'watch') app.join(id, null, code || undefined);
      else app.joinFirstFree(id, code || undefined);
    }
  });

  // the countdowns (the turn's, a quick-play table's fill) run between table messages
  setInterval(() => {
    tickFill(root, Date.now());
    for (const el of root.querySelectorAll<HTMLElement>('[data-countdown]')) {
      const turn = Number(el.dataset.turn);
      const ms = remainingMs(Number(el.dataset.countdown), Date.now(), turn) ?? 0;
      const secs = el.querySelector('.secs');
      const txt = num(formatCountdown(ms));
      if (secs && secs.textContent !== txt) secs.textContent = txt;
      const fill = el.querySelector<HTMLElement>('.fill');
      if (fill) fill.style.width = `${(fractionLeft(ms, turn) * 100).toFixed(1)}%`;
      el.classList.toggle('urgent', urgent(ms));
    }
    const sm = app.state.summary;
    if (sm && Date.now() >= sm.until) app.update({ summary: null });
  }, 250);

  return render;
}

function focusKey(el: HTMLElement): string | null {
  if (el.dataset.card) return `[data-card="${el.dataset.card}"]`;
  if (el.dataset.bid) return `[data-bid="${el.dataset.bid}"]`;
  if (el.dataset.bind) return `[data-bind="${el.dataset.bind}"]`;
  if (el.dataset.suit) return `[data-suit="${el.dataset.suit}"]`;
  // a button of the top bar (each there once): the rules button keeps the focus it gets back when the rules close
  if (el.dataset.act && el.closest('.topbar')) return `.topbar [data-act="${el.dataset.act}"]`;
  return null;
}

function onAct(app: App, el: HTMLElement): void {
  const d = el.dataset;
  switch (d.act) {
    case 'copyinvite': {
      const url = el.dataset.url ?? '';
      void navigator.clipboard?.writeText(url).then(
        () => (el.textContent = st('copied')),
        () => {},
      );
      break;
    }
    case 'lang':
      app.setLanguage(d.lang === 'ar' ? 'ar' : 'en');
      break;
    case 'signout':
      app.signOut();
      break;
    case 'refresh':
      app.refreshTables();
      break;
    case 'nextpage':
      app.nextPage();
      break;
    case 'prevpage':
      app.prevPage();
      break;
    case 'join':
      app.join(d.table!, Number(d.seat));
      break;
    case 'watch':
      app.join(d.table!, null);
      break;
    case 'addbot':
      app.addBot(Number(d.seat));
      break;
    case 'botlevel':
      app.setBotLevel(d.level);
      break;
    case 'offlinelevel':
      app.setOfflineLevel(d.level);
      break;
    case 'removebot':
      app.removeBot(Number(d.seat));
      break;
    case 'offline':
      app.playOffline();
      break;
    case 'update-reload':
      app.applyUpdate();
      break;
    case 'update-later':
      app.update({ updateDismissed: true });
      break;
    case 'start':
      app.startMatch();
      break;
    case 'quickplay':
      void app.quickPlay();
      break;
    case 'quickpreset':
      app.setQuickPreset(d.preset);
      break;
    case 'leave': {
      const tv = app.state.table;
      if (tv && tv.you !== null && tv.state === 'playing' && !confirm(t(app.state.offline ? 'leaveOfflineConfirm' : 'leaveConfirm'))) break;
      app.leave();
      break;
    }
    case 'call':
      app.act({ call: d.bid === 'pass' ? 'pass' : Number(d.bid) });
      break;
    case 'trump':
      app.act({ trump: d.suit as Suit });
      break;
    case 'card':
      app.act({ card: d.card! });
      break;
    case 'lasttrick':
      app.update({ showLastTrick: true });
      break;
    case 'sheet':
      app.update({ showSheet: true });
      break;
    case 'closemodal':
      app.update({ showLastTrick: false, showSheet: false });
      break;
    case 'dismiss':
      app.dismissSummary();
      break;
    case 'hint':
      void app.askHint();
      break;
    case 'sound':
      app.toggleSound();
      break;
    case 'rules':
      location.hash = rulesHash(); // the rules dialog (rules.ts), over the table
      break;
    default:
      onAccountAct(app, d.act);
  }
}

export type { Key };
