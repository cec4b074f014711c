// The History and replay screens on their own hash routes, beside the game (app.ts, view.ts):
//   #/history                  my matches and the recent public ones
//   #/replay/{id}[/{step}]     a stored match's replay at a step (shareable; reload opens it,
//                              also when not signed in: the HTTP API needs no sign-in)
//   #/replay                   a record file opened from disk (engine_adapter.ts)
// They draw into their own element (the game's stays mounted, hidden), so that the two never
// redraw each other. The step list and positions are replay_model.ts; HTML is replay_view.ts.
import { apiFetch, fetchAnalysis, type AnalysisState, type FetchFn } from './analysis';
import { EngineUnavailable, replayRecord } from './engine_adapter';
import { emptyHistory, historyHtml, loadMine, loadPublic, type HistoryState } from './history';
import { num, type Lang } from './i18n';
import { rt } from './replay_i18n';
import { analysisHtml, boardHtml, sheetHtml, stepCaption } from './replay_view';
import {
  buildModel,
  clampStep,
  positionAt,
  ReplayError,
  sliderFraction,
  sliderMax,
  stepFromSlider,
  stepOf,
  type MatchRecord,
  type MatchResult,
  type ReplayModel,
} from './replay_model';
import { esc } from './util';
import './replay.css';

export type Route = { screen: 'history' } | { screen: 'replay'; id: string | null; step: number | null } | null;

/**
 * The screen a location hash asks for (null: the game's own screens). The step in the address
 * counts from 1, as the page shows it ("Step 6/120" is `#/replay/{id}/6`); the route's `step`
 * is the model's index, from 0 (`/0`, from an older link, is the first step too).
 */
export function parseRoute(hash: string): Route {
  const h = hash.replace(/^#/, '');
  if (h === '/history') return { screen: 'history' };
  const m = /^\/replay(?:\/([^/]+)(?:\/(\d+))?)?\/?$/.exec(h);
  if (!m) return null;
  return { screen: 'replay', id: m[1] ? decodeURIComponent(m[1]) : null, step: m[2] !== undefined ? Math.max(0, Number(m[2]) - 1) : null };
}

/** The shareable hash of a stored match's replay at a step (the model's index, from 0; the address counts from 1). */
export const replayHash = (id: string, step: number): string => `#/replay/${encodeURIComponent(id)}/${step + 1}`;

/** What the screens need of the game's application: the signed-in name and the language. */
export interface Host {
  state: { name: string | null; lang: Lang; welcomed?: boolean };
  setLanguage(l: Lang): void;
}

interface ReplayState {
  id: string | null; // null: a local record file
  fileName: string | null;
  model: ReplayModel | null;
  step: number;
  loading: boolean;
  error: string | null;
  analysis: Map<number, AnalysisState>;
  /** Analysis asked for once: each deal stepped into is then analysed too. */
  analysisOn: boolean;
}

/** Loads a stored match: its record, players and result (from the server; the engine when the server sends no result). */
export async function loadStoredMatch(fetchFn: FetchFn, id: string): Promise<ReplayModel> {
  const r = await fetchFn(`/api/matches/${encodeURIComponent(id)}`);
  if (r.status === 404) throw new ReplayError('bad_record', rt('matchNotFound'));
  const body = (await r.json()) as MatchRecord & { error?: string };
  if (r.status !== 200) throw new Error(String(body?.error ?? r.status));
  const result: MatchResult = body.result ?? (await replayRecord(JSON.stringify(body)));
  return buildModel(body, result);
}

/** Reads a record file's text: checks it is a record, replays it with the engine. */
export async function loadRecordText(text: string): Promise<ReplayModel> {
  let rec: MatchRecord;
  try {
    rec = JSON.parse(text) as MatchRecord;
  } catch {
    throw new ReplayError('bad_record', rt('badRecord'));
  }
  if (!rec || rec.format !== 'tarneeb-record/1' || !Array.isArray(rec.deals)) throw new ReplayError('bad_record', rt('badRecord'));
  return buildModel(rec, await replayRecord(text));
}

function errorText(e: unknown): string {
  if (e instanceof EngineUnavailable) return rt('engineUnavailable');
  if (e instanceof ReplayError) {
    if (e.code === 'no_tricks') return rt('noTricks');
    if (e.code === 'rejected') return `${rt('rejected')}: ${e.message}`;
    return e.message;
  }
  return `${rt('loadFailed')}: ${(e as Error)?.message ?? e}`;
}

export class Screens {
  private route: Route = null;
  private history: HistoryState = emptyHistory();
  private historyFor: string | null | undefined = undefined;
  private replay: ReplayState = this.emptyReplay();
  private lastFrame = '';
  /** The HTML last put in each part of the replay (a part is redrawn only when it changes: focus stays). */
  private parts = new Map<string, string>();

  constructor(
    private el: HTMLElement,
    private game: HTMLElement,
    private host: Host,
    private fetchFn: FetchFn = apiFetch,
  ) {
    globalThis.addEventListener?.('hashchange', () => this.onRoute());
    el.addEventListener('click', (ev) => this.onClick(ev));
    el.addEventListener('input', (ev) => this.onInput(ev));
    el.addEventListener('change', (ev) => this.onChange(ev));
    document.addEventListener('keydown', (ev) => this.onKey(ev));
    this.onRoute();
  }

  private emptyReplay(): ReplayState {
    return { id: null, fileName: null, model: null, step: 0, loading: false, error: null, analysis: new Map(), analysisOn: false };
  }

  active(): boolean {
    return this.route !== null;
  }

  private onRoute(): void {
    this.route = parseRoute(location.hash);
    this.el.hidden = !this.route;
    this.game.hidden = !!this.route;
    const r = this.route;
    if (r?.screen === 'history') {
      this.loadHistory(true); // each visit lists the matches finished since
    } else if (r?.screen === 'replay' && r.id !== null) {
      if (this.replay.id !== r.id || (!this.replay.model && !this.replay.loading)) this.openStored(r.id, r.step);
      else if (r.step !== null && this.replay.model) this.replay.step = clampStep(this.replay.model, r.step);
    } else if (r?.screen === 'replay' && this.replay.id !== null) {
      this.replay = this.emptyReplay(); // #/replay: the record file opener
    }
    this.lastFrame = '';
    this.render();
  }

  // ---- loading --------------------------------------------------------------------------

  private loadHistory(force = false): void {
    const name = this.host.state.welcomed === false ? null : this.host.state.name;
    if (!force && this.historyFor === name && this.history.pubLoaded) return;
    this.historyFor = name;
    this.history = { ...emptyHistory(), loading: true };
    if (name) {
      loadMine(this.fetchFn, name).then(
        (rows) => this.patchHistory({ mine: rows }),
        (e: Error) => this.patchHistory({ mineError: e.message }),
      );
    }
    this.morePublic();
  }

  private morePublic(): void {
    this.patchHistory({ loading: true });
    const before = this.history.pubLoaded ? this.history.next : null;
    loadPublic(this.fetchFn, before).then(
      ({ rows, next }) => this.patchHistory({ pub: [...this.history.pub, ...rows], next, pubLoaded: true, loading: false }),
      (e: Error) => this.patchHistory({ pubError: e.message, pubLoaded: true, loading: false }),
    );
  }

  private patchHistory(p: Partial<HistoryState>): void {
    this.history = { ...this.history, ...p };
    this.render();
  }

  private openStored(id: string, step: number | null): void {
    this.replay = { ...this.emptyReplay(), id, loading: true };
    loadStoredMatch(this.fetchFn, id).then(
      (model) => {
        if (this.replay.id !== id) return;
        const last = sliderMax(model);
        this.replay = { ...this.replay, model, loading: false, step: step === null ? last : clampStep(model, step) };
        this.lastFrame = '';
        this.render();
      },
      (e) => {
        if (this.replay.id !== id) return;
        this.replay = { ...this.replay, loading: false, error: errorText(e) };
        this.render();
      },
    );
  }

  private async openFile(file: File): Promise<void> {
    if (this.route?.screen !== 'replay' || this.route.id !== null) location.hash = '#/replay';
    this.replay = { ...this.emptyReplay(), fileName: file.name, loading: true };
    this.render();
    try {
      const model = await loadRecordText(await file.text());
      this.replay = { ...this.replay, model, loading: false, step: sliderMax(model) };
    } catch (e) {
      this.replay = { ...this.replay, loading: false, error: errorText(e) };
    }
    this.lastFrame = '';
    this.render();
  }

  private analyse(deal: number): void {
    const id = this.replay.id;
    if (id === null) return;
    const set = (s: AnalysisState) => {
      if (this.replay.id !== id) return;
      this.replay.analysis.set(deal, s);
      this.renderStep();
    };
    this.replay.analysisOn = true;
    set({ status: 'pending', phase: 'queued' });
    fetchAnalysis(id, deal, set, { fetchFn: this.fetchFn, cancelled: () => this.replay.id !== id });
  }

  // ---- steps ----------------------------------------------------------------------------

  private go(step: number): void {
    const m = this.replay.model;
    if (!m) return;
    const k = clampStep(m, step);
    if (k === this.replay.step) return;
    this.replay.step = k;
    if (this.replay.id !== null) history.replaceState(null, '', replayHash(this.replay.id, k));
    this.renderStep();
  }

  // ---- events ---------------------------------------------------------------------------

  private onClick(ev: Event): void {
    const el = (ev.target as HTMLElement).closest<HTMLElement>('[data-ract]');
    if (!el || (el as HTMLButtonElement).disabled) return;
    const m = this.replay.model;
    const step = this.replay.step;
    switch (el.dataset.ract) {
      case 'lang':
        this.host.setLanguage(el.dataset.lang === 'ar' ? 'ar' : 'en');
        break;
      case 'more':
        this.morePublic();
        break;
      case 'first':
        this.go(0);
        break;
      case 'prev':
        this.go(step - 1);
        break;
      case 'next':
        this.go(step + 1);
        break;
      case 'last':
        if (m) this.go(sliderMax(m));
        break;
      case 'goto':
        this.go(Number(el.dataset.step));
        break;
      case 'analyse':
        if (m) this.analyse(m.steps[step].deal);
        break;
    }
  }

  private onInput(ev: Event): void {
    const el = ev.target as HTMLInputElement;
    if (el.dataset.ract === 'slider' && this.replay.model) this.go(stepFromSlider(this.replay.model, el.value));
  }

  private onChange(ev: Event): void {
    const el = ev.target as HTMLInputElement | HTMLSelectElement;
    if (el.dataset.ract === 'deal' && this.replay.model) this.go(this.replay.model.dealStarts[Number(el.value)] ?? 0);
    if (el.dataset.ract === 'file' && el instanceof HTMLInputElement && el.files?.[0]) this.openFile(el.files[0]);
  }

  private onKey(ev: KeyboardEvent): void {
    if (this.route?.screen !== 'replay' || !this.replay.model || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.target as HTMLElement;
    // the slider moves itself with the keys (its input event steps); fields keep theirs
    if (t.matches?.('input, select, textarea')) return;
    const m = this.replay.model;
    const k = this.replay.step;
    const to =
      ev.key === 'ArrowRight' ? k + 1 : ev.key === 'ArrowLeft' ? k - 1 : ev.key === 'Home' ? 0 : ev.key === 'End' ? sliderMax(m) : null;
    if (to === null) return;
    ev.preventDefault();
    this.go(to);
  }

  // ---- rendering ------------------------------------------------------------------------

  private topbar(title: string): string {
    const l = this.host.state.lang;
    return `<header class="topbar"><h1>${title}</h1><span class="spacer"></span>
      <a class="btn ghost small" href="#/history">${rt('history')}</a>
      <a class="btn ghost small" href="#/">${rt('backToLobby')}</a>
      <label class="btn ghost small file">${rt('openRecord')}<input type="file" accept=".json,application/json" data-ract="file" aria-describedby="file-hint"></label>
      <span id="file-hint" class="sr">${rt('openRecordHint')}</span>
      <button class="lang" data-ract="lang" data-lang="${l === 'ar' ? 'en' : 'ar'}" lang="${l === 'ar' ? 'en' : 'ar'}">${
        l === 'ar' ? 'English' : 'العربية'
      }</button></header>`;
  }

  /** Draws the screen of the route (the whole frame when it changed, else only the step). */
  render(): void {
    const r = this.route;
    if (!r) return;
    let frame: string;
    if (r.screen === 'history') {
      if (this.historyFor !== (this.host.state.welcomed === false ? null : this.host.state.name)) this.loadHistory();
      frame = `<main class="screen lobby rscreen">${this.topbar(rt('history'))}${historyHtml(this.history, this.host.state.welcomed === false ? null : this.host.state.name)}</main>`;
    } else frame = this.replayFrame();
    frame += `<!--${this.host.state.lang}-->`;
    if (frame !== this.lastFrame) {
      this.lastFrame = frame;
      this.el.innerHTML = frame;
      this.parts.clear();
    }
    if (r.screen === 'replay') this.renderStep();
  }

  private replayFrame(): string {
    const rp = this.replay;
    const m = rp.model;
    const title = rp.id !== null ? `${rt('replay')} <bdi>${esc(rp.id)}</bdi>` : `${rt('replay')}${rp.fileName ? ` · <bdi>${esc(rp.fileName)}</bdi>` : ''}`;
    let body: string;
    if (rp.loading) body = `<p class="rmsg" role="status">${rt('loading')}</p>`;
    else if (rp.error) body = `<p class="rmsg error" role="alert" data-testid="replay-error">${esc(rp.error)}</p>`;
    else if (!m) body = `<p class="rmsg">${rt('openRecordHint')}: ${rt('openRecord')}</p>`;
    else {
      const deals = m.result.deals
        .map((_, d) => `<option value="${d}">${rt('deal')} ${num(d + 1)}</option>`)
        .join('');
      body = `<div class="rcontrols" role="group" aria-label="${rt('step')}">
          <span class="rbtns" dir="ltr"><button class="small" data-ract="first" aria-label="${rt('first')}" title="${rt('first')}">|◀</button>
          <button class="small" data-ract="prev" aria-label="${rt('prev')}" title="${rt('prev')}">◀</button>
          <button class="small" data-ract="next" aria-label="${rt('next')}" title="${rt('next')}">▶</button>
          <button class="small" data-ract="last" aria-label="${rt('last')}" title="${rt('last')}">▶|</button></span>
          <label class="rdeal">${rt('deal')} <select data-ract="deal">${deals}</select></label>
          <span class="rstep" data-r="stepno"></span>
          <span class="muted hint">${rt('keysHint')}</span>
        </div>
        <div class="rslider" dir="ltr"><input type="range" min="0" max="${sliderMax(m)}" step="1" data-ract="slider" aria-label="${rt('timeline')}">
          <span class="rmarkers" data-r="markers" aria-hidden="true"></span></div>
        <p class="rcaption" data-r="caption" aria-live="polite" data-testid="replay-caption"></p>
        <div class="rmain"><div class="rboard" data-r="board" data-testid="replay-board"></div>
          <aside class="rside"><div data-r="sheet"></div><div data-r="analysis"></div></aside></div>`;
    }
    return `<main class="screen rscreen replay" data-testid="replay">${this.topbar(title)}${body}</main>`;
  }

  /** Updates what depends on the step only (the controls stay, so a dragged slider keeps its drag). */
  private renderStep(): void {
    const m = this.replay.model;
    if (!m || this.route?.screen !== 'replay') return;
    const pos = positionAt(m, this.replay.step);
    const rd = m.result.deals[pos.deal];
    if (this.replay.analysisOn && this.replay.id !== null && !this.replay.analysis.has(pos.deal) && rd.trump !== null && rd.made !== null) {
      this.analyse(pos.deal); // draws again once the state is set
      return;
    }
    const a = this.replay.analysis.get(pos.deal) ?? null;
    const q = <T extends Element>(s: string) => this.el.querySelector<T>(s);
    const set = (s: string, html: string) => {
      const e = q<HTMLElement>(s);
      if (!e || this.parts.get(s) === html) return;
      this.parts.set(s, html);
      e.innerHTML = html;
    };
    set('[data-r=board]', boardHtml(m, pos, a));
    set('[data-r=sheet]', sheetHtml(m, pos));
    set('[data-r=analysis]', analysisHtml(m, pos, a, this.replay.id !== null));
    set('[data-r=caption]', stepCaption(m, pos));
    set('[data-r=stepno]', `${rt('step')} ${num(pos.step + 1)}/${num(m.steps.length)}`);
    const slider = q<HTMLInputElement>('[data-ract=slider]');
    if (slider) {
      if (slider.value !== String(pos.step)) slider.value = String(pos.step);
      slider.setAttribute('aria-valuetext', stepCaption(m, pos).replace(/<[^>]+>/g, ''));
    }
    const sel = q<HTMLSelectElement>('[data-ract=deal]');
    if (sel && sel.value !== String(pos.deal)) sel.value = String(pos.deal);
    for (const [act, off] of [['first', pos.step === 0], ['prev', pos.step === 0], ['next', pos.step === sliderMax(m)], ['last', pos.step === sliderMax(m)]] as const) {
      const b = q<HTMLButtonElement>(`[data-ract=${act}]`);
      if (b) b.disabled = off;
    }
    // the turning point of each analysed deal, as a mark along the slider
    const marks = [...this.replay.analysis.entries()]
      .map(([deal, s]) => (s.status === 'ready' && s.data.turning_point ? stepOf(m, deal, s.data.turning_point.index) : null))
      .filter((k): k is number => k !== null)
      .map((k) => `<span class="rmark" data-step="${k}" style="left:${(sliderFraction(m, k) * 100).toFixed(2)}%" title="${rt('turningPoint')}"></span>`)
      .join('');
    set('[data-r=markers]', marks);
  }
}
