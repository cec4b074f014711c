// The rules page (issue 28): each preset's rules (docs/rules.md) in English and Arabic, in a
// dialog over whatever the person was looking at (the lobby, a table, a waiting room), on its
// own hash route so that a phone's Back button closes it and a link opens it:
//   #/rules            the rules of the table shown (else of the lobby's chosen preset)
//   #/rules/{preset}   levantine | classic
// Closing goes back to where the person was (history.back() when this page opened it) and gives
// the focus back to what had it. While open, everything else on the page is inert.
import type { App } from './app';
import type { Lang } from './i18n';
import { sectionsAr } from './rules_ar';
import { sectionsEn, type Section } from './rules_en';
import type { Preset } from './rules_examples';
import { esc } from './util';
import './rules.css';

const WORDS = {
  en: {
    rules: 'Rules',
    title: 'Rules of Tarneeb',
    presets: 'Rules of',
    levantine: 'Levantine',
    classic: 'Classic',
    isDefault: 'the default',
    thisTable: 'this table’s rules',
    close: 'Close',
    language: 'العربية',
    contents: 'Contents',
  },
  ar: {
    rules: 'القوانين',
    title: 'قوانين الطرنيب',
    presets: 'قوانين',
    levantine: 'شامي',
    classic: 'كلاسيكي',
    isDefault: 'الافتراضية',
    thisTable: 'قوانين هذه الطاولة',
    close: 'إغلاق',
    language: 'English',
    contents: 'المحتويات',
  },
} satisfies Record<Lang, Record<string, string>>;

export type RulesWord = keyof (typeof WORDS)['en'];
export const rw = (k: RulesWord, l: Lang): string => WORDS[l][k];

export const PRESETS: Preset[] = ['levantine', 'classic'];

/** The rules route a hash names: `{ preset: null }` for #/rules (the context's preset), else null. */
export function parseRulesRoute(hash: string): { preset: Preset | null } | null {
  const m = /^#?\/rules(?:\/([a-z]+))?\/?$/.exec(hash);
  if (!m) return null;
  const p = m[1] as Preset | undefined;
  return { preset: p && PRESETS.includes(p) ? p : null };
}

export const rulesHash = (p?: Preset): string => (p ? `#/rules/${p}` : '#/rules');

/** The sections of a preset's rules in a language (target: the table's, when the rules are its). */
export function rulesSections(p: Preset, l: Lang, target: number | null = null): Section[] {
  return l === 'ar' ? sectionsAr(p, target) : sectionsEn(p, target);
}

/** The dialog's HTML: title, language, the two presets, the sections. */
export function rulesHtml(p: Preset, l: Lang, opts: { target?: number | null; tablePreset?: Preset | null } = {}): string {
  const sections = rulesSections(p, l, opts.tablePreset === p ? (opts.target ?? null) : null);
  const tab = (x: Preset) =>
    `<button type="button" class="rules-tab" data-rules="preset" data-preset="${x}" aria-pressed="${x === p}">${rw(x, l)}${
      x === 'levantine' ? ` <small>(${rw('isDefault', l)})</small>` : ''
    }${opts.tablePreset === x ? ` <small class="tag">${rw('thisTable', l)}</small>` : ''}</button>`;
  return `<div class="rules-overlay" data-rules="backdrop">
    <div class="rules-dialog" role="dialog" aria-modal="true" aria-labelledby="rules-title" data-testid="rules" data-preset="${p}" lang="${l}" dir="${
      l === 'ar' ? 'rtl' : 'ltr'
    }">
      <header class="rules-head">
        <h1 id="rules-title">${rw('title', l)}</h1>
        <button type="button" class="rules-lang" data-rules="lang" lang="${l === 'ar' ? 'en' : 'ar'}">${rw('language', l)}</button>
        <button type="button" class="rules-close" data-rules="close" data-testid="rules-close" aria-label="${rw('close', l)}">${rw('close', l)}</button>
      </header>
      <div class="rules-tabs" role="group" aria-label="${rw('presets', l)}">${PRESETS.map(tab).join('')}</div>
      <div class="rules-body">
        <h2 class="rules-preset" data-testid="rules-preset">${rw('presets', l)}: ${rw(p, l)}</h2>
        <nav class="rules-toc" aria-label="${rw('contents', l)}">${sections
          .map((s) => `<a href="#/rules/${p}" data-rules="goto" data-section="${s.id}">${s.title}</a>`)
          .join('')}</nav>
        ${sections
          .map(
            (s) => `<section class="rules-section" data-section="${s.id}" aria-labelledby="rules-${s.id}"><h3 id="rules-${s.id}">${s.title}</h3>${
              s.intro ? `<p>${s.intro}</p>` : ''
            }<ul>${s.items.map((i) => `<li>${i}</li>`).join('')}</ul></section>`,
          )
          .join('')}
      </div>
    </div>
  </div>`;
}

/** The rules dialog on the page: opened by its route, drawn again when the language changes. */
export class RulesScreen {
  private open = false;
  /** The page came to the rules from another of its own screens: closing goes back in history. */
  private cameFrom: string | null = null;
  private lastHash = location.hash;
  private frame = '';
  private focusBack: HTMLElement | null = null;
  private inerted: HTMLElement[] = [];

  constructor(
    private el: HTMLElement,
    private app: App,
  ) {
    el.hidden = true;
    globalThis.addEventListener?.('hashchange', () => this.onRoute());
    el.addEventListener('click', (ev) => this.onClick(ev));
    el.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') {
        ev.preventDefault();
        this.close();
      }
    });
    this.onRoute();
  }

  private onRoute(): void {
    const route = parseRulesRoute(location.hash);
    const before = this.lastHash;
    this.lastHash = location.hash;
    if (route && !this.open) {
      this.open = true;
      // opened from another screen of this page (not by loading the page on #/rules): Back returns there
      this.cameFrom = before !== location.hash && !parseRulesRoute(before) ? before : null;
      this.focusBack = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
      this.setInert(true);
    } else if (!route && this.open) {
      this.open = false;
      this.setInert(false);
    }
    this.render();
    if (route && this.el.contains(document.activeElement) === false) this.el.querySelector<HTMLElement>('[data-rules=close]')?.focus();
    if (!route) this.restoreFocus();
  }

  /** Everything on the page but the dialog is inert while it is open (a modal dialog). */
  private setInert(on: boolean): void {
    if (on) {
      this.inerted = [...document.body.children].filter(
        (c): c is HTMLElement => c instanceof HTMLElement && c !== this.el && !c.inert && c.tagName !== 'SCRIPT',
      );
      for (const c of this.inerted) c.inert = true;
    } else {
      for (const c of this.inerted) c.inert = false;
      this.inerted = [];
    }
  }

  private restoreFocus(): void {
    const back = this.focusBack;
    this.focusBack = null;
    if (back?.isConnected) back.focus();
    else document.querySelector<HTMLElement>('[data-act=rules], [data-testid=rules-link]')?.focus();
  }

  /** Closes the dialog: back where the person was (the entry before the rules), else the page's start. */
  close(): void {
    if (!this.open) return;
    if (this.cameFrom !== null) history.back();
    else location.hash = '#/';
  }

  private preset(): Preset {
    const r = parseRulesRoute(location.hash);
    const tv = this.app.state.table;
    return r?.preset ?? (tv?.preset === 'classic' ? 'classic' : tv ? 'levantine' : this.app.state.form.preset);
  }

  private onClick(ev: Event): void {
    const target = ev.target as HTMLElement;
    const el = target.closest<HTMLElement>('[data-rules]');
    if (!el) return;
    const act = el.dataset.rules;
    if (act === 'backdrop' && target !== el) return; // a click inside the dialog, not on the backdrop
    if (act === 'close' || act === 'backdrop') this.close();
    else if (act === 'lang') {
      this.app.setLanguage(this.app.state.lang === 'ar' ? 'en' : 'ar');
      this.el.querySelector<HTMLElement>('[data-rules=lang]')?.focus();
    }
    else if (act === 'preset') {
      history.replaceState(history.state, '', rulesHash(el.dataset.preset as Preset));
      this.lastHash = location.hash;
      this.render();
      this.el.querySelector<HTMLElement>(`[data-preset="${el.dataset.preset}"]`)?.focus();
    } else if (act === 'goto') {
      ev.preventDefault();
      this.el.querySelector<HTMLElement>(`section[data-section="${el.dataset.section}"]`)?.scrollIntoView({ block: 'start' });
    }
  }

  render(): void {
    if (!this.open) {
      this.el.hidden = true;
      if (this.frame) this.el.innerHTML = this.frame = '';
      return;
    }
    const tv = this.app.state.table;
    const tablePreset: Preset | null = tv ? (tv.preset === 'classic' ? 'classic' : 'levantine') : null;
    const html = rulesHtml(this.preset(), this.app.state.lang, { target: tv?.target ?? null, tablePreset });
    this.el.hidden = false;
    if (html === this.frame) return;
    this.frame = html;
    this.el.innerHTML = html;
  }
}

/** The rules button of a table's top bar (an open book, the word on wider screens). */
export function rulesButton(l: Lang, icon: string): string {
  return `<button class="small ghost rules-btn" data-act="rules" data-testid="rules-button" title="${esc(rw('rules', l))}">${icon}<span class="label">${rw(
    'rules',
    l,
  )}</span></button>`;
}

