/// <reference types="vite/client" />
// Issue 28 in the browser, the parts without a page: the rules page's text (both presets, both
// languages, the worked examples of docs/rules.md), counted nouns, the leaderboard's note, the
// way back from a tournament's table, and a replay value chip apart from its rank.
import { describe, expect, it } from 'vitest';
import rulesMd from '../../docs/rules.md?raw';
import { counted, count } from '../src/plural';
import { PRESETS, parseRulesRoute, rulesHash, rulesHtml, rulesSections } from '../src/rules';
import { EXAMPLES, exampleText, type Preset } from '../src/rules_examples';
import { boardHtml } from '../src/profiles';
import { backFrom } from '../src/app';
import { valueChip } from '../src/replay_view';
import { setLang } from '../src/i18n';

const plain = (html: string) => html.replace(/<[^>]+>/g, '');

describe('counted nouns', () => {
  it('English: singular for one, plural otherwise', () => {
    expect(count(1, 'trick', 'en')).toBe('1 trick');
    expect(count(0, 'trick', 'en')).toBe('0 tricks');
    expect(count(7, 'trick', 'en')).toBe('7 tricks');
    expect(count(31, 'point', 'en')).toBe('31 points');
  });
  it('Arabic: one and two as words, 3–10 plural, 11 and more singular, Eastern digits', () => {
    expect(count(1, 'trick', 'ar')).toBe('لفة واحدة');
    expect(count(2, 'trick', 'ar')).toBe('لفتان');
    expect(count(2, 'trick', 'ar', true)).toBe('لفتين');
    expect(count(3, 'trick', 'ar')).toBe('٣ لفات');
    expect(count(9, 'trick', 'ar')).toBe('٩ لفات');
    expect(count(10, 'trick', 'ar')).toBe('١٠ لفات');
    expect(count(11, 'trick', 'ar')).toBe('١١ لفة');
    expect(count(13, 'trick', 'ar')).toBe('١٣ لفة');
    expect(count(100, 'trick', 'ar')).toBe('١٠٠ لفة');
    expect(count(31, 'point', 'ar')).toBe('٣١ نقطة');
    expect(count(8, 'deal', 'ar')).toBe('٨ توزيعات');
    expect(count(50, 'round', 'ar')).toBe('٥٠ جولة');
    expect(count(13, 'card', 'ar')).toBe('١٣ ورقة');
    expect(count(5, 'card', 'ar')).toBe('٥ أوراق');
    expect(count(1, 'card', 'en')).toBe('1 card');
    expect(count(2, 'spectator', 'ar')).toBe('متفرّجان');
    // never the definite plural after a number («٩ اللفات»)
    for (let n = 0; n <= 13; n++) expect(count(n, 'trick', 'ar')).not.toMatch(/ال/);
  });
  it('a noun without Arabic dual forms falls back to the number and the plural', () => {
    expect(counted(2, { one: 'x', other: 'xs' }, 'ar')).toBe('٢ xs');
  });
});

/** docs/rules.md's worked examples of a preset: "bid 9 take 7 → −9 and +6", "bid 13 made → +13". */
function docExamples(preset: Preset): { bid: number; taken: number; declarers: number; defenders: number }[] {
  const [common, classic] = rulesMd.split('## Preset `classic`');
  const text = (preset === 'classic' ? classic.split('## ')[0] : common.split('## Preset `levantine`')[1]).replace(/\s+/g, ' ');
  const out = [];
  for (const m of text.matchAll(/bid (\d+) (?:take (\d+)|made) → ([+−-]\d+)(?: and \+(\d+))?/g)) {
    const bid = Number(m[1]);
    out.push({ bid, taken: m[2] ? Number(m[2]) : 13, declarers: Number(m[3].replace('−', '-')), defenders: m[4] ? Number(m[4]) : 0 });
  }
  return out;
}

describe('the rules page', () => {
  it('has every worked example of docs/rules.md, with the same scores', () => {
    expect(docExamples('levantine')).toHaveLength(5);
    expect(docExamples('classic').length).toBeGreaterThan(0);
    for (const p of PRESETS) for (const e of docExamples(p)) expect(EXAMPLES[p]).toContainEqual(e);
  });
  it('scores every example by the preset’s rule (docs/rules.md "Scoring")', () => {
    for (const p of PRESETS)
      for (const e of EXAMPLES[p]) {
        const made = e.taken >= e.bid;
        expect(e.declarers).toBe(made ? (p === 'levantine' ? e.bid : e.taken) : -e.bid);
        expect(e.defenders).toBe(made ? 0 : 13 - e.taken);
      }
  });
  it('says each example in words, in both languages', () => {
    const set = EXAMPLES.levantine[1];
    expect(plain(exampleText(set, 'en'))).toBe('Bid 9, took 7 tricks: set. Declaring team −9, defenders +6 (for their 6 tricks).');
    expect(plain(exampleText(set, 'ar'))).toBe('طلب ٩ وأكل ٧ لفات: انكسر. فريق صاحب الطلب −٩، والفريق الآخر +٦ (أكل ٦ لفات).');
    expect(plain(exampleText(EXAMPLES.classic[0], 'en'))).toMatch(/^Bid 8, took 11 tricks: made\. Declaring team \+11/);
    expect(plain(exampleText(EXAMPLES.levantine[3], 'ar'))).toMatch(/^طلب ٧ ولم يأكل أي لفة: انكسر/);
  });
  it('has the same sections in both languages; each preset its own auction and scoring', () => {
    for (const p of PRESETS) {
      const ids = (l: 'en' | 'ar') => rulesSections(p, l).map((s) => s.id);
      expect(ids('ar')).toEqual(ids('en'));
      expect(rulesSections(p, 'ar').map((s) => s.items.length)).toEqual(rulesSections(p, 'en').map((s) => s.items.length));
    }
    const lev = plain(rulesHtml('levantine', 'en'));
    const cls = plain(rulesHtml('classic', 'en'));
    expect(lev).toMatch(/An equal bid is never allowed/);
    expect(lev).toMatch(/the next dealer deals/);
    expect(cls).toMatch(/may equal the highest bid/);
    expect(cls).toMatch(/the same dealer deals again/);
    expect(lev).toMatch(/7 to 13/);
    expect(lev).toMatch(/it scores its bid/);
    expect(cls).toMatch(/it scores the tricks it took/);
  });
  it('writes Arabic with Eastern digits, Arabic punctuation and no Latin semicolon', () => {
    for (const p of PRESETS) {
      const ar = plain(rulesHtml(p, 'ar')).replace('A K Q J 10 9 8 7 6 5 4 3 2', '');
      expect(ar).not.toMatch(/[0-9;]/);
      expect(ar).toMatch(/٣١ نقطة/);
    }
  });
  it('gives a table’s target with its own rules only', () => {
    expect(plain(rulesHtml('levantine', 'en', { target: 41, tablePreset: 'levantine' }))).toMatch(/reach or pass 41 points wins \(this table’s target/);
    expect(plain(rulesHtml('classic', 'en', { target: 41, tablePreset: 'levantine' }))).toMatch(/reach or pass 31 points wins/);
    expect(plain(rulesHtml('levantine', 'ar', { target: 41, tablePreset: 'levantine' }))).toMatch(/يصل إلى ٤١ نقطة/);
  });
  it('reads and writes its routes', () => {
    expect(parseRulesRoute('#/rules')).toEqual({ preset: null });
    expect(parseRulesRoute('#/rules/classic')).toEqual({ preset: 'classic' });
    expect(parseRulesRoute('#/rules/levantine/')).toEqual({ preset: 'levantine' });
    expect(parseRulesRoute('#/rules/nope')).toEqual({ preset: null });
    expect(parseRulesRoute('#/replay/1')).toBeNull();
    expect(parseRulesRoute('')).toBeNull();
    expect(rulesHash('classic')).toBe('#/rules/classic');
    expect(rulesHash()).toBe('#/rules');
  });
});

describe('the leaderboard (defect 5)', () => {
  const rows = [{ name: 'Guest1', rating: 1516, matches: 1, wins: 1, registered: false }];
  it('tells a registered player who is not on it why, and no longer says accounts are not open', () => {
    setLang('en');
    const html = boardHtml({ data: rows, error: null }, { name: 'Layla', registered: true }, 'en');
    expect(html).toContain('data-testid="board-me"');
    expect(plain(html)).toMatch(/You are registered: you will appear here after your first rated match/);
    expect(plain(html)).toMatch(/No registered player has played a rated match yet/);
    expect(plain(html)).not.toMatch(/not open/);
    expect(plain(boardHtml({ data: rows, error: null }, { name: 'Layla', registered: true }, 'ar'))).toMatch(/أنت مسجَّل/);
  });
  it('marks the player’s own row and says nothing more when listed', () => {
    const html = boardHtml({ data: rows, error: null }, { name: 'Guest1', registered: false }, 'en');
    expect(html).not.toContain('board-me');
    expect(html).toContain('<tr data-player="Guest1" class="me">');
  });
});

describe('issue 28 odds and ends', () => {
  it('goes back to the screen that opened a table, for that table only', () => {
    const r = { table: 't5', hash: '#/tournaments/T1' };
    expect(backFrom(r, 't5')).toBe('#/tournaments/T1');
    expect(backFrom(r, 't6')).toBeNull();
    expect(backFrom(null, 't5')).toBeNull();
  });
  it('keeps a replay value apart from the rank: never «7٦»', () => {
    setLang('ar');
    const chip = valueChip(6);
    expect(plain(`7${chip}`)).toBe('7\u2009٦');
    expect(chip).toContain('<bdi>');
    setLang('en');
  });
});
