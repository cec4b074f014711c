// Table chat in the browser (issue 15, docs/protocol.md "Chat"): a panel beside the game with
// the table's lines, quick phrases (sent as ids, shown in the reader's language) and a text
// field. It draws into its own element with DOM calls and `textContent` only: a line is text,
// never HTML (a line such as `<img src=x onerror=…>` shows as those characters). The panel is
// built once and only its list is redrawn, so typing is never interrupted by table messages.
//
// Mute is per player and kept by this browser only (localStorage `tarneeb.muted`): the muted
// player's lines are not shown here; the server still delivers them, and nobody else is told.
import type { ChatLine, ServerMessage, TableView } from './protocol';
import type { Lang } from './i18n';
import { PHRASE_IDS, phraseText, st } from './social_i18n';
import { load, save } from './util';

/** Lines kept per table in the page, at most (the server sends at most 50 + 20 on arrival). */
export const MAX_LINES = 200;

/** A line's text, at most: in characters as a person sees them (grapheme clusters), as the
 * server counts them (chat.hpp kChatMaxLength), and in UTF-8 bytes (kChatMaxBytes). */
export const MAX_CHAT_LENGTH = 200;
export const MAX_CHAT_BYTES = 4096;

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const utf8 = new TextEncoder();

/** The characters of a text as a person sees them: grapheme clusters (👨‍👩‍👧‍👦 is one). */
export function chatLength(text: string): number {
  let n = 0;
  for (const _ of graphemes.segment(text)) n++;
  return n;
}

/** The longest start of `text`, whole characters, within MAX_CHAT_LENGTH and MAX_CHAT_BYTES
 * (`text` itself when it fits): what the chat field keeps of what is typed or pasted. */
export function fitChat(text: string): string {
  let n = 0;
  let bytes = 0;
  for (const { segment, index } of graphemes.segment(text)) {
    bytes += utf8.encode(segment).length;
    if (++n > MAX_CHAT_LENGTH || bytes > MAX_CHAT_BYTES) return text.slice(0, index);
  }
  return text;
}

/** What the panel needs of the application. */
export interface ChatHost {
  state: { table: TableView | null; lang: Lang; offline?: boolean; name: string | null };
  sendChat(line: { text: string } | { phrase: string }): Promise<boolean>;
}

/** Adds lines to a table's list: ordered by `seq`, each once, at most MAX_LINES (the newest). */
export function mergeLines(list: ChatLine[], add: ChatLine[]): ChatLine[] {
  const bySeq = new Map<number, ChatLine>();
  for (const l of list) bySeq.set(l.seq, l);
  for (const l of add) bySeq.set(l.seq, l);
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq).slice(-MAX_LINES);
}

/** The words a line shows: its text, or its quick phrase in the reader's language. */
export function lineText(line: ChatLine, l: Lang): string {
  return line.phrase !== undefined ? phraseText(line.phrase, l) : (line.text ?? '');
}

const LS = typeof localStorage !== 'undefined' ? localStorage : undefined;

export class ChatPanel {
  private lines = new Map<string, ChatLine[]>();
  private muted = new Set<string>(load<string[]>(LS, 'tarneeb.muted', []));
  private shownTable: string | null = null;
  private shownLang: Lang | null = null;
  private dirty = true;
  private readonly list: HTMLOListElement;
  private readonly note: HTMLParagraphElement;
  private readonly input: HTMLInputElement;
  private readonly sendBtn: HTMLButtonElement;
  private readonly title: HTMLButtonElement;
  private readonly body: HTMLDivElement;
  /** The panel is open (remembered); closed, only its title shows, with the count of unread lines. */
  private open = load<boolean>(LS, 'tarneeb.chatOpen', (globalThis.innerWidth ?? 1024) >= 900);
  private unread = 0;
  private readonly phrases: HTMLDivElement;
  private readonly mutedBar: HTMLDivElement;

  constructor(
    private el: HTMLElement,
    private host: ChatHost,
  ) {
    el.className = 'chat panel';
    el.dataset.testid = 'chat';
    el.hidden = true;
    this.title = el.appendChild(document.createElement('h2')).appendChild(document.createElement('button'));
    this.title.type = 'button';
    this.title.className = 'chat-toggle ghost small';
    this.title.dataset.testid = 'chat-toggle';
    this.body = el.appendChild(document.createElement('div'));
    this.body.className = 'chat-body';
    this.note = this.body.appendChild(document.createElement('p'));
    this.note.className = 'chat-note muted';
    this.mutedBar = this.body.appendChild(document.createElement('div'));
    this.mutedBar.className = 'chat-muted';
    this.list = this.body.appendChild(document.createElement('ol'));
    this.list.className = 'chat-lines';
    this.list.dataset.testid = 'chat-lines';
    this.list.setAttribute('aria-live', 'polite');
    this.phrases = this.body.appendChild(document.createElement('div'));
    this.phrases.className = 'chat-phrases';
    for (const id of PHRASE_IDS) {
      const b = this.phrases.appendChild(document.createElement('button'));
      b.type = 'button';
      b.className = 'small ghost';
      b.dataset.phrase = id;
    }
    const form = this.body.appendChild(document.createElement('form'));
    form.className = 'chat-form';
    this.input = form.appendChild(document.createElement('input'));
    this.input.name = 'text';
    this.input.dir = 'auto';
    this.input.autocomplete = 'off';
    // No maxLength (it counts UTF-16 units: 36 family emoji fill 400): the field keeps what
    // fits as the server counts (fitChat), whatever is typed or pasted.
    this.input.addEventListener('input', () => {
      const fit = fitChat(this.input.value);
      if (fit !== this.input.value) this.input.value = fit;
    });
    this.input.dataset.testid = 'chat-input';
    this.sendBtn = form.appendChild(document.createElement('button'));
    this.sendBtn.type = 'submit';
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const text = this.input.value;
      if (!text.trim() || fitChat(text) !== text) return;
      void this.host.sendChat({ text }).then((ok) => {
        if (ok && this.input.value === text) this.input.value = '';
      });
    });
    el.addEventListener('click', (ev) => {
      const b = (ev.target as HTMLElement).closest<HTMLElement>('button');
      if (!b) return;
      if (b === this.title) this.toggleOpen();
      else if (b.dataset.phrase) void this.host.sendChat({ phrase: b.dataset.phrase });
      else if (b.dataset.mute !== undefined) this.toggleMute(b.dataset.mute);
    });
    globalThis.addEventListener?.('hashchange', () => this.render());
  }

  /** The server's chat messages (App routes `chat` and `chat_history` here). */
  onMessage(m: ServerMessage): void {
    if (m.type === 'chat') {
      const line: ChatLine = { seq: m.seq, from: m.from, seat: m.seat, channel: m.channel, at: m.at };
      if (m.phrase !== undefined) line.phrase = m.phrase;
      else line.text = m.text ?? '';
      this.lines.set(m.table, mergeLines(this.lines.get(m.table) ?? [], [line]));
      if (!this.open && !this.muted.has(line.from)) {
        this.unread++;
        this.shownLang = null;
      }
    } else if (m.type === 'chat_history') {
      this.lines.set(m.table, mergeLines(this.lines.get(m.table) ?? [], m.lines));
    } else return;
    this.dirty = true;
    this.render();
  }

  toggleOpen(): void {
    this.open = !this.open;
    save(LS, 'tarneeb.chatOpen', this.open);
    if (this.open) this.unread = 0;
    this.shownLang = null; // the title's count changes
    this.render();
    // opened at the newest line (the list was hidden: its scroll position meant nothing)
    if (this.open) this.list.scrollTop = this.list.scrollHeight;
  }

  toggleMute(name: string): void {
    if (this.muted.has(name)) this.muted.delete(name);
    else this.muted.add(name);
    save(LS, 'tarneeb.muted', [...this.muted]);
    this.dirty = true;
    this.render();
  }

  /** Shows the panel at a server table (not offline, not on another screen) and redraws what changed. */
  render(): void {
    const s = this.host.state;
    const tv = s.offline ? null : s.table;
    const hidden = !tv || location.hash.startsWith('#/');
    this.el.hidden = hidden;
    // the page makes room for the panel (social.css): a column beside the table or a strip under it
    document.body.classList.toggle('with-chat', !hidden);
    document.body.classList.toggle('chat-open', !hidden && this.open);
    if (!tv || hidden) return;
    const l = s.lang;
    if (this.shownLang !== l) {
      this.shownLang = l;
      this.dirty = true;
      this.title.textContent = this.unread && !this.open ? `${st('chat', l)} (${this.unread})` : st('chat', l);
      this.title.setAttribute('aria-expanded', String(this.open));
      this.body.hidden = !this.open;
      this.el.classList.toggle('closed', !this.open);
      this.input.placeholder = st('chatPlaceholder', l);
      this.input.setAttribute('aria-label', st('chat', l));
      this.sendBtn.textContent = st('send', l);
      this.phrases.setAttribute('aria-label', st('quickPhrases', l));
      for (const b of this.phrases.querySelectorAll<HTMLButtonElement>('button')) b.textContent = phraseText(b.dataset.phrase!, l);
    }
    const spectator = tv.you === null;
    this.note.hidden = !spectator;
    this.note.textContent = spectator ? st('spectatorsNote', l) : '';
    if (this.shownTable !== tv.table) {
      this.shownTable = tv.table;
      this.dirty = true;
    }
    if (!this.dirty) return;
    this.dirty = false;
    this.drawMuted(l);
    const lines = (this.lines.get(tv.table) ?? []).filter((x) => !this.muted.has(x.from));
    // new lines are followed unless the reader scrolled up to read older ones (a closed list follows)
    const atBottom = !this.open || this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    this.list.replaceChildren(
      ...(lines.length
        ? lines.map((x) => this.lineItem(x, l))
        : [Object.assign(document.createElement('li'), { className: 'chat-empty muted', textContent: st('noChat', l) })]),
    );
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
  }

  private lineItem(x: ChatLine, l: Lang): HTMLLIElement {
    const li = document.createElement('li');
    li.className = `chat-line chat-${x.channel}`;
    li.dataset.seq = String(x.seq);
    li.dataset.from = x.from;
    const who = li.appendChild(document.createElement('button'));
    who.type = 'button';
    who.className = 'chat-from';
    who.dataset.mute = x.from;
    who.title = `${st('mute', l)} ${x.from}`;
    const name = who.appendChild(document.createElement('bdi'));
    name.textContent = x.from;
    if (x.channel === 'spectators') {
      const tag = li.appendChild(document.createElement('span'));
      tag.className = 'tag';
      tag.textContent = st('spectatorsChannel', l);
    }
    const text = li.appendChild(document.createElement('span'));
    text.className = 'chat-text';
    text.dir = 'auto';
    text.textContent = lineText(x, l);
    if (x.phrase !== undefined) text.classList.add('chat-phrase');
    return li;
  }

  private drawMuted(l: Lang): void {
    const names = [...this.muted];
    this.mutedBar.hidden = names.length === 0;
    this.mutedBar.replaceChildren(
      ...names.map((n) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'small ghost';
        b.dataset.mute = n;
        const bdi = document.createElement('bdi');
        bdi.textContent = n;
        b.append(`${st('unmute', l)} `, bdi);
        return b;
      }),
    );
  }
}
