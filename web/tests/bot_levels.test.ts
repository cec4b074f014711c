import { describe, expect, it } from 'vitest';
import {
  LEVELS,
  LEVEL_KEYS,
  botShown,
  botText,
  isLevel,
  levelOfKind,
  levelPickerHtml,
  lw,
  parseBotName,
  recordNameHtml,
  recordNameText,
  tournamentBotShown,
} from '../src/bot_levels';

const bot = (name: string, kind?: string) => ({ name, bot: true, connected: true, ...(kind ? { kind } : {}) });

describe('bot levels', () => {
  it('has every text in English and Arabic, none empty', () => {
    for (const k of LEVEL_KEYS) {
      expect(lw(k, 'en')).not.toBe('');
      expect(lw(k, 'ar')).not.toBe('');
      expect(lw(k, 'ar')).not.toBe(lw(k, 'en'));
    }
  });
  it('maps levels to themselves and engine names to their nearest level', () => {
    expect(LEVELS).toEqual(['easy', 'medium', 'hard', 'expert']);
    for (const l of LEVELS) expect(levelOfKind(l)).toBe(l);
    expect(levelOfKind('heuristic')).toBe('medium');
    expect(levelOfKind('pimc')).toBe('expert');
    expect(levelOfKind('random')).toBeNull();
    expect(levelOfKind('stockfish')).toBeNull();
    expect(levelOfKind(undefined)).toBeNull();
    expect(isLevel('hard')).toBe(true);
    expect(isLevel('Hard')).toBe(false);
    expect(isLevel(3)).toBe(false);
  });
  it('reads a built-in bot name the server gives, and nothing else', () => {
    expect(parseBotName('heuristic 2')).toEqual({ kind: 'heuristic', number: 2 });
    expect(parseBotName('expert 4')).toEqual({ kind: 'expert', number: 4 });
    expect(parseBotName('Layla')).toBeNull();
    expect(parseBotName('heuristic 5')).toBeNull();
    expect(parseBotName('stockfish 2')).toBeNull();
  });
});

describe('a bot as shown at a table', () => {
  it('names a level bot as a player with its level, in both languages', () => {
    const b = botShown(bot('hard 3', 'hard'), 'en')!;
    expect(b).toEqual({ name: 'Bot 3', level: 'hard' });
    expect(botText(b, 'en')).toBe('Bot 3 · hard');
    const ar = botShown(bot('hard 3', 'hard'), 'ar')!;
    expect(botText(ar, 'ar')).toBe('روبوت ٣ · صعب');
  });
  it('shows an engine name from an older table as its nearest level, random as a plain bot', () => {
    expect(botText(botShown(bot('heuristic 2', 'heuristic'), 'en')!, 'en')).toBe('Bot 2 · medium');
    expect(botText(botShown(bot('pimc 4'), 'ar')!, 'ar')).toBe('روبوت ٤ · خبير');
    expect(botText(botShown(bot('random 1', 'random'), 'en')!, 'en')).toBe('Bot 1');
  });
  it('keeps an outside engine by its own name, with a bot badge', () => {
    const b = botShown(bot('outside 3', 'stockfish'), 'en')!;
    expect(b).toEqual({ name: 'outside 3', level: null, engine: true });
    expect(botText(b, 'en')).toBe('outside 3 · Bot');
  });
  it('shows a person as no bot', () => {
    expect(botShown({ name: 'Layla', bot: false, connected: true })).toBeNull();
    expect(botShown(null)).toBeNull();
  });
});

describe('a bot in records and tournaments', () => {
  it('shows old records with engine names as their level, people by their names', () => {
    expect(recordNameText('heuristic 1', 'en')).toBe('Bot 1 · medium');
    expect(recordNameText('random 3', 'ar')).toBe('روبوت ٣');
    expect(recordNameText('easy 2', 'ar')).toBe('روبوت ٢ · سهل');
    expect(recordNameText('Huda', 'en')).toBe('Huda');
    expect(recordNameHtml('<b>x</b>', 'en')).toBe('<bdi>&lt;b&gt;x&lt;/b&gt;</bdi>');
    expect(recordNameHtml('pimc 2', 'en')).toContain('data-level="expert"');
  });
  it('shows a tournament bot by its level', () => {
    expect(botText(tournamentBotShown('bot:heuristic', 'en')!, 'en')).toBe('Bot · medium');
    expect(botText(tournamentBotShown('bot:easy', 'ar')!, 'ar')).toBe('روبوت · سهل');
    expect(tournamentBotShown('Omar')).toBeNull();
  });
});

describe('the level picker', () => {
  it('offers the four levels, the chosen one pressed, localised', () => {
    const en = levelPickerHtml('hard', 'en');
    for (const l of LEVELS) expect(en).toContain(`data-level="${l}"`);
    expect(en.match(/aria-pressed="true"/g)).toHaveLength(1);
    expect(en).toMatch(/data-level="hard"[^>]*aria-pressed="true"/);
    const ar = levelPickerHtml('easy', 'ar', 'tact');
    expect(ar).toContain('خبير');
    expect(ar).toContain('data-tact="botlevel"');
    expect(ar).toContain('aria-label="مستوى الروبوت"');
  });
});
