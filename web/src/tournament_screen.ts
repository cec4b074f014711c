// The tournament screens on their own hash routes, beside the game (as replay.ts does):
//   #/tournaments        the list (GET /api/tournaments) and the create form
//   #/tournaments/{id}   one tournament: its live bracket or table of results
//                        (GET /api/tournaments/{id}, read again every 1.5 s while shown), the
//                        organiser's and players' buttons, each finished match's record link
// Requests go over the game's WebSocket (App.request); "Take your seat" and "Watch" join the
// match's table and show the game. HTML is tournaments.ts.
import type { App } from './app';
import { DEFAULT_LEVEL } from './bot_levels';
import type { FetchFn } from './analysis';
import { errorText } from './i18n';
import { tournamentError, tt } from './tournament_i18n';
import {
  createFormHtml,
  createMessage,
  listHtml,
  parseTournamentRoute,
  tournamentHash,
  tournamentHtml,
  type Tournament,
  type TRoute,
  type TSummary,
} from './tournaments';
import { esc } from './util';
import './tournaments.css';

/** How often a shown tournament or list is read again (ms). */
const POLL_MS = 1500;

export class TournamentScreens {
  private route: TRoute = null;
  private list: TSummary[] | null = null;
  private current: Tournament | null = null;
  private missing = false;
  private error: string | null = null;
  private frame = '';
  private body = '';
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private el: HTMLElement,
    private game: HTMLElement,
    private app: App,
    private fetchFn: FetchFn = (u) => fetch(u),
  ) {
    globalThis.addEventListener?.('hashchange', () => this.onRoute());
    el.addEventListener('click', (ev) => this.onClick(ev));
    el.addEventListener('submit', (ev) => this.onSubmit(ev));
    this.onRoute();
  }

  private me(): string | null {
    return this.app.state.welcomed ? this.app.state.name : null;
  }

  private onRoute(): void {
    this.route = parseTournamentRoute(location.hash);
    this.el.hidden = !this.route;
    if (this.route) this.game.hidden = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.error = null;
    if (this.route?.screen === 'tournament' && this.current?.id !== this.route.id) this.current = null;
    this.frame = '';
    if (this.route) {
      this.load();
      this.timer = setInterval(() => this.load(), POLL_MS);
    }
    this.render();
  }

  private async load(): Promise<void> {
    const r = this.route;
    if (!r) return;
    try {
      if (r.screen === 'tournaments') {
        const res = await this.fetchFn('/api/tournaments');
        const b = (await res.json()) as { tournaments?: TSummary[] };
        this.list = Array.isArray(b.tournaments) ? b.tournaments : [];
      } else {
        const res = await this.fetchFn(`/api/tournaments/${encodeURIComponent(r.id)}`);
        if (res.status === 404) {
          this.missing = true;
          this.current = null;
        } else {
          this.missing = false;
          this.current = (await res.json()) as Tournament;
        }
      }
    } catch {
      /* the next poll tries again */
    }
    this.render();
  }

  private async request(msg: Record<string, unknown>): Promise<Record<string, unknown> | null> {
    try {
      const answer = (await this.app.request(msg)) as unknown as Record<string, unknown>;
      this.error = null;
      return answer;
    } catch (e) {
      const err = e as { code?: string; message?: string };
      this.error = tournamentError(err.code ?? '') ?? errorText(err.code ?? 'error', err.message);
      this.render();
      return null;
    } finally {
      this.load();
    }
  }

  private async onSubmit(ev: Event): Promise<void> {
    const form = ev.target as HTMLFormElement;
    const kind = form.dataset.tform;
    if (!kind) return;
    ev.preventDefault();
    const fields: Record<string, string> = {};
    for (const [k, v] of new FormData(form).entries()) fields[k] = String(v);
    if (kind === 'create') {
      const made = await this.request(createMessage(fields));
      if (made && typeof made.tournament === 'string') location.hash = tournamentHash(made.tournament);
    } else if (kind === 'enter' && this.current) {
      const partner = (fields.partner ?? '').trim();
      await this.request({ type: 'tournament_enter', tournament: this.current.id, ...(partner ? { partner } : {}) });
    }
  }

  private async onClick(ev: Event): Promise<void> {
    const b = (ev.target as HTMLElement).closest<HTMLElement>('[data-tact]');
    if (!b) return;
    const t = this.current;
    const act = b.dataset.tact!;
    if (act === 'lang') {
      this.app.setLanguage(this.app.state.lang === 'ar' ? 'en' : 'ar');
      this.frame = '';
      this.render();
      return;
    }
    if (act === 'sit' || act === 'watch') {
      const seat = act === 'sit' ? Number(b.dataset.seat) : null;
      const table = b.dataset.table!;
      // leaving that table ("Leave", "Back to the bracket") comes back to this bracket, not the lobby
      const back = this.route?.screen === 'tournament' ? { table, hash: tournamentHash(this.route.id) } : null;
      const before = this.app.state.returnTo ?? null;
      this.app.setReturnTo(back);
      if (await this.app.join(table, seat)) location.hash = '#/';
      else this.app.setReturnTo(before);
      return;
    }
    if (act === 'botlevel') {
      this.app.setBotLevel(b.dataset.level);
      this.frame = '';
      this.render();
      return;
    }
    if (!t) return;
    const simple: Record<string, string> = {
      open: 'tournament_open',
      close: 'tournament_close',
      start: 'tournament_start',
      cancel: 'tournament_cancel',
      withdraw: 'tournament_withdraw',
      accept: 'tournament_accept',
    };
    if (simple[act]) await this.request({ type: simple[act], tournament: t.id });
    else if (act === 'botteam') {
      const bot = `bot:${this.app.state.botLevel ?? DEFAULT_LEVEL}`;
      await this.request({ type: 'tournament_enter', tournament: t.id, players: [bot, bot] });
    }
  }

  /** Draws the route: the frame (top bar, forms) when it changed, the live part when it changed. */
  render(): void {
    const r = this.route;
    if (!r) return;
    const me = this.me();
    const l = this.app.state.lang;
    const title = r.screen === 'tournament' && this.current ? esc(this.current.settings.name) : tt('tournaments');
    const frame = `<main class="screen lobby rscreen tscreen" data-testid="tournaments"><header class="topbar"><h1>${title}</h1><span class="spacer"></span>
      ${r.screen === 'tournament' ? `<a class="btn ghost small" href="#/tournaments">${tt('backToList')}</a>` : ''}
      <a class="btn ghost small" href="#/">${tt('backToLobby')}</a>
      <button class="lang" data-tact="lang" lang="${l === 'ar' ? 'en' : 'ar'}">${l === 'ar' ? 'English' : 'العربية'}</button></header>
      <div class="toast" role="alert" data-t="error" hidden></div>
      ${r.screen === 'tournaments' ? `<div class="lobby-cols">${me ? createFormHtml() : `<p class="muted">${tt('signInToCreate')}</p>`}<section class="panel"><h2>${tt('tournaments')}</h2><div data-t="body"></div></section></div>` : '<div data-t="body"></div>'}
      </main><!--${l}:${me ?? ''}-->`;
    if (frame !== this.frame) {
      this.frame = frame;
      this.body = '';
      this.el.innerHTML = frame;
    }
    const errorEl = this.el.querySelector<HTMLElement>('[data-t=error]');
    if (errorEl) {
      errorEl.hidden = !this.error;
      errorEl.textContent = this.error ?? '';
    }
    let body: string;
    if (r.screen === 'tournaments') body = this.list === null ? `<p class="muted">${tt('loading')}</p>` : listHtml(this.list);
    else if (this.missing) body = `<p role="alert">${tt('notFound')}</p>`;
    else body = this.current ? tournamentHtml(this.current, me, this.app.state.botLevel ?? DEFAULT_LEVEL) : `<p class="muted">${tt('loading')}</p>`;
    const bodyEl = this.el.querySelector<HTMLElement>('[data-t=body]');
    // Redrawn only when it changed, and not while the player types in its form.
    const typing = bodyEl?.contains(document.activeElement) && document.activeElement?.tagName === 'INPUT';
    if (bodyEl && body !== this.body && !typing) {
      this.body = body;
      bodyEl.innerHTML = body;
    }
  }
}
