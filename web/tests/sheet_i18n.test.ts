import { describe, expect, it } from 'vitest';
import { applyEvents, emptySheet } from '../src/sheet';
import { KEYS, dir, initialLang, num, t, suitName } from '../src/i18n';
import type { GameEvent } from '../src/protocol';

const scored = (points: [number, number], scores: [number, number]): GameEvent => ({
  event: 'round_scored', contract: { seat: 1, bid: 8 }, made: points[1] > 0, tricks: [5, 8], points, scores,
});

describe('score sheet', () => {
  it('adds one line per scored round', () => {
    let s = emptySheet('t1', 1);
    s = applyEvents(s, 't1', 1, [{ event: 'card', seat: 0, card: '2C' }, scored([0, 8], [0, 8])]);
    s = applyEvents(s, 't1', 1, [scored([6, -9], [6, -1])]);
    expect(s.lines.map((l) => l.round)).toEqual([1, 2]);
    expect(s.lines[1].scores).toEqual([6, -1]);
  });
  it('ignores a repeated event and starts over for a new match or table', () => {
    let s = applyEvents(emptySheet('t1', 1), 't1', 1, [scored([0, 8], [0, 8])]);
    s = applyEvents(s, 't1', 1, [scored([0, 8], [0, 8])]);
    expect(s.lines).toHaveLength(1);
    expect(applyEvents(s, 't1', 2, []).lines).toHaveLength(0);
    expect(applyEvents(s, 't2', 1, []).lines).toHaveLength(0);
    expect(applyEvents(s, 't1', 1, [{ event: 'match_started', match: 2 }]).lines).toHaveLength(0);
  });
});

describe('languages', () => {
  it('uses the game words and right-to-left in Arabic', () => {
    expect(t('trump', 'ar')).toBe('الحكم');
    expect(t('chooseTrump', 'ar')).toContain('حكم');
    expect(t('trick', 'ar')).toContain('لفة');
    expect(dir('ar')).toBe('rtl');
    expect(dir('en')).toBe('ltr');
    expect(suitName('H', 'en')).toBe('Hearts');
  });
  it('says حكم for trump and لفة for a trick in every Arabic text; طرنيب only names the game', () => {
    const trumpKeys = ['trump', 'chooseTrump', 'namesTrump'] as const;
    for (const k of trumpKeys) expect(t(k, 'ar')).toContain('الحكم');
    const trickKeys = ['trick', 'tricks', 'lastTrick', 'noLastTrick'] as const;
    for (const k of trickKeys) expect(t(k, 'ar')).toMatch(/لفة|لفات/);
    const named = KEYS.filter((k) => t(k, 'ar').includes('طرنيب'));
    expect(named).toEqual(['title', 'signInTitle']);
    const all = KEYS.map((k) => t(k, 'ar'));
    expect(all.filter((x) => /لفّ/.test(x))).toEqual([]); // one spelling
  });
  it('writes Eastern Arabic digits in Arabic', () => {
    expect(num(13, 'ar')).toBe('١٣');
    expect(num(7, 'en')).toBe('7');
  });
  it('picks the starting language', () => {
    expect(initialLang(null, null, 'ar-SY')).toBe('ar');
    expect(initialLang(null, null, 'en-GB')).toBe('en');
    expect(initialLang('ar', null, 'en')).toBe('ar');
    expect(initialLang('ar', 'en', 'en')).toBe('en');
  });
});
