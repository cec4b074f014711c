// Offline play in the page: the driver (offline.ts) with the real WebAssembly engine, and the
// screens (the start screen's entry; the table view fed by the engine, without a server).
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadEngine, type Engine } from '../src/engine';
import { OfflineGame } from '../src/offline';
import type { OfflineRecord } from '../src/offline_store';
import { html } from '../src/view';
import { setLang } from '../src/i18n';
import { emptySheet } from '../src/sheet';
import type { State } from '../src/app';
import type { TableView } from '../src/protocol';
import { nodeEngineOptions } from './wasm_node.mjs';

let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine(nodeEngineOptions());
});
beforeEach(() => setLang('en'));

const state = (over: Partial<State> = {}): State => ({
  conn: 'connecting', lang: 'en', name: null, token: null, welcomed: false, busy: false, tables: [], listCursor: null, listPrev: [],
  listNext: null, listsAsked: 0, listsAnswered: 0, table: null, codes: {}, sheet: emptySheet('', 0), summary: null, matchOver: null, ratings: null,
  log: [], error: null, showLastTrick: false, showSheet: false, actedVersion: null, hint: null, sound: false,
  form: { preset: 'levantine', target: 31, timer: 30, priv: false, bots: true }, nameInput: '', joinId: '', joinCode: '', watching: null,
  ...over,
});

describe('OfflineGame', () => {
  it('plays a whole match: the human\'s first legal action on each turn, the bots by themselves', async () => {
    const seen: TableView[] = [];
    const errors: string[] = [];
    const done = new Promise<TableView>((resolve) => {
      const game: OfflineGame = new OfflineGame(
        engine,
        {
          table: (t) => {
            seen.push(t);
            if (t.state === 'finished') resolve(t);
            else if (t.legal.length) queueMicrotask(() => game.act(t.legal[0]));
          },
          error: (code) => errors.push(code),
        },
        { preset: 'classic', target: 5, name: 'Layla', botDelayMs: 0, summaryMs: 0 },
      );
      game.restart();
    });
    const last = await done;
    expect(errors).toEqual([]);
    expect(last.result?.status).toBe('won');
    expect(last.seats[0]?.name).toBe('Layla');
    expect(seen.flatMap((t) => t.events).filter((e) => e.event === 'match_over')).toHaveLength(1);
    // versions only go up: every message is a new state of the one table
    for (let i = 1; i < seen.length; i++) expect(seen[i].version).toBeGreaterThan(seen[i - 1].version);
  });

  it('reports a refused action with its code and changes nothing', () => {
    const shown: TableView[] = [];
    const errors: string[] = [];
    const game = new OfflineGame(engine, { table: (t) => shown.push(t), error: (c) => errors.push(c) }, {
      preset: 'levantine', target: 31, name: 'You', botDelayMs: 60_000,
    });
    game.restart();
    game.act({ card: shown[0].round!.hand![0] }); // in the auction
    expect(errors).toEqual([shown[0].round!.to_act === 0 ? 'auction_open' : 'out_of_turn']);
    expect(shown).toHaveLength(1);
    game.stop();
  });

  it('plays at the level picked, kept in the match\'s record (a resumed match keeps its level)', () => {
    const shown: TableView[] = [];
    const kept: (OfflineRecord | null)[] = [];
    const game = new OfflineGame(engine, { table: (t) => shown.push(t), error: () => {} }, {
      preset: 'levantine', target: 31, name: 'You', botDelayMs: 60_000, level: 'easy', store: (r) => kept.push(r),
    });
    game.restart();
    expect(shown[0].seats.slice(1).map((x) => x?.kind)).toEqual(['easy', 'easy', 'easy']);
    expect(kept[kept.length - 1]?.settings.level).toBe('easy');
    game.stop();
  });
});

describe('offline screens', () => {
  it('offers Play offline on the start screen, signed in or not, and in the lobby', () => {
    expect(html(state())).toContain('data-act="offline"');
    expect(html(state({ token: 'x' }))).toContain('data-act="offline"');
    expect(html(state({ conn: 'open', welcomed: true, name: 'Me', token: 'x' }))).toContain('data-act="offline"');
    setLang('ar');
    expect(html(state({ lang: 'ar' }))).toContain('العب دون اتصال');
  });

  it('offers the levels the offline engine has (easy, medium, hard), the one picked pressed, and says why not expert', () => {
    const out = html(state({ offlineLevel: 'easy' }));
    expect(out).toContain('data-testid="offline-levels"');
    expect(out).toMatch(/data-act="offlinelevel" data-level="easy"[^>]*aria-pressed="true"/);
    expect(out).toMatch(/data-act="offlinelevel" data-level="medium"[^>]*aria-pressed="false"/);
    expect(out).toMatch(/data-act="offlinelevel" data-level="hard"[^>]*aria-pressed="false"/);
    expect(out).not.toContain('data-testid="offline-level-expert"');
    expect(out).toContain('Expert bots play online only.');
    const lobby = html(state({ conn: 'open', welcomed: true, name: 'Me', token: 'x' }));
    expect(lobby).toContain('data-testid="offline-levels"');
    setLang('ar');
    const ar = html(state({ lang: 'ar' }));
    expect(ar).toContain('سهل');
    expect(ar).toContain('متوسط');
    expect(ar).toContain('صعب');
    expect(ar).toContain('الروبوت الخبير في اللعب على الإنترنت فقط.');
  });

  it('shows the engine\'s table without a server: seat 0\'s hand only, no connection bar', () => {
    const { match, table } = engine.startMatch({ seed: '7', target: 31 });
    const out = html(state({ offline: true, table }));
    match.dispose();
    expect(out).toContain('data-testid="hand"');
    expect(out).not.toContain('conn-bar');
    const cards = [...out.matchAll(/data-card="(\w\w)"/g)].map((m) => m[1]).sort();
    expect(cards).toEqual([...table.round!.hand!].sort());
    expect(cards).toHaveLength(13);
  });
});
