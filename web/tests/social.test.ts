// Issue 15 in the browser, the parts without a page: chat lines (merge, phrase words),
// invitation links, the leaderboard/profile routes and the rating chart.
import { describe, expect, it } from 'vitest';
import { MAX_CHAT_BYTES, MAX_CHAT_LENGTH, MAX_LINES, chatLength, fitChat, lineText, mergeLines } from '../src/chat';
import { inviteHtml, inviteUrl, parseInvite, withoutInvite } from '../src/invite';
import { parseSocialRoute, playerHash, ratingChartSvg, tournamentsHtml } from '../src/profiles';
import type { ChatLine } from '../src/protocol';
import { PHRASE_IDS, phraseText } from '../src/social_i18n';

const line = (seq: number, extra: Partial<ChatLine> = {}): ChatLine => ({
  seq,
  from: 'Layla',
  seat: 0,
  channel: 'players',
  text: `line ${seq}`,
  at: 0,
  ...extra,
});

describe('chat lines', () => {
  it('merges by seq, once each, in order, keeping the newest MAX_LINES', () => {
    const a = mergeLines([line(2), line(1)], [line(3), line(2)]);
    expect(a.map((x) => x.seq)).toEqual([1, 2, 3]);
    const many = mergeLines([], Array.from({ length: MAX_LINES + 10 }, (_, i) => line(i + 1)));
    expect(many).toHaveLength(MAX_LINES);
    expect(many[0].seq).toBe(11);
  });
  it('shows a quick phrase in the reader language and text as it is', () => {
    expect(lineText(line(1, { text: undefined, phrase: 'yalla' }), 'ar')).toBe('يلا');
    expect(lineText(line(1, { text: undefined, phrase: 'yalla' }), 'en')).toBe('Come on!');
    expect(lineText(line(1, { text: undefined, phrase: 'afye' }), 'ar')).toBe('الله يعطيك العافية');
    expect(lineText(line(1, { text: '<img src=x onerror=alert(1)>' }), 'en')).toBe('<img src=x onerror=alert(1)>');
    expect(phraseText('not_known', 'en')).toBe('not_known');
  });
  it('knows the server phrase ids (chat.hpp quick_phrases)', () => {
    expect(PHRASE_IDS).toEqual(['yalla', 'afye', 'well_played', 'good_luck', 'thanks', 'sorry', 'hurry', 'one_more']);
  });
});

// Issue 27: the field counted UTF-16 units (maxLength 400) and the server code points, so 36
// family emoji could be typed and 29 were refused. Both count grapheme clusters now.
describe('chat length', () => {
  const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}\u200D\u{1F466}';
  it('counts what a person sees, as the server does', () => {
    expect(chatLength(family)).toBe(1);
    expect(chatLength(family.repeat(36))).toBe(36);
    expect(chatLength('e\u0301'.repeat(3))).toBe(3);
    expect(chatLength('يلا نلعب')).toBe(8);
    expect(chatLength('\u2764\uFE0F')).toBe(1);
  });
  it('keeps 200 characters and no more, whole ones', () => {
    expect(MAX_CHAT_LENGTH).toBe(200);
    expect(fitChat(family.repeat(36))).toBe(family.repeat(36));
    expect(fitChat('a'.repeat(200))).toBe('a'.repeat(200));
    expect(fitChat('a'.repeat(201))).toBe('a'.repeat(200));
    const hearts = '\u2764\uFE0F'.repeat(201);
    expect(chatLength(fitChat(hearts))).toBe(200);
    expect(fitChat(hearts)).toBe('\u2764\uFE0F'.repeat(200));
    // The bytes too (kChatMaxBytes): 200 family emoji are 5,000 bytes.
    const many = fitChat(family.repeat(200));
    expect(new TextEncoder().encode(many).length).toBeLessThanOrEqual(MAX_CHAT_BYTES);
    expect(chatLength(many)).toBe(Math.floor(MAX_CHAT_BYTES / 25));
    expect(many).toBe(family.repeat(Math.floor(MAX_CHAT_BYTES / 25)));
  });
});

describe('invitation links', () => {
  const loc = { origin: 'https://play.example', pathname: '/' };
  it('round-trips a private table and its code', () => {
    const url = inviteUrl(loc, 't7', 'K3X9Q2');
    expect(url).toBe('https://play.example/?join=t7.K3X9Q2');
    expect(parseInvite(new URL(url).search)).toEqual({ table: 't7', code: 'K3X9Q2' });
    expect(parseInvite('?join=t12')).toEqual({ table: 't12' });
  });
  it('ignores malformed links', () => {
    for (const s of ['', '?join=', '?join=x7.ABC', '?join=t7.', '?join=t7.AB<C', '?join=t7.ABC.D', '?other=t7'])
      expect(parseInvite(s)).toBeNull();
  });
  it('drops the join parameter and escapes the box', () => {
    expect(withoutInvite('https://h/?lang=ar&join=t7.ABC#/x')).toBe('https://h/?lang=ar#/x');
    const html = inviteHtml(loc, 't7', 'ABC"<', { invite: 'Invite', copy: 'Copy', hint: 'x' });
    expect(html).not.toContain('ABC"<');
    expect(html).toContain('data-testid="invite-copy"');
  });
});

describe('leaderboard and profile screens', () => {
  it('routes', () => {
    expect(parseSocialRoute('#/leaderboard')).toEqual({ screen: 'leaderboard' });
    expect(parseSocialRoute(playerHash('ليلى'))).toEqual({ screen: 'player', name: 'ليلى' });
    expect(parseSocialRoute('#/player/%E0%A4%A')).toBeNull();
    expect(parseSocialRoute('#/history')).toBeNull();
  });
  it('draws one point per rating, scaled between the lowest and highest', () => {
    const svg = ratingChartSvg(
      [
        { match: 't1-1', rating: 1516 },
        { match: 't2-1', rating: 1500.3 },
        { match: 't3-1', rating: 1532 },
      ],
      'en',
      480,
      160,
    );
    expect(svg).toContain('data-points="3"');
    expect((svg.match(/<circle/g) ?? []).length).toBe(3);
    const pts = /<polyline points="([^"]+)"/.exec(svg)![1].split(' ').map((p) => p.split(',').map(Number));
    // the highest rating is at the top (y = 10), the lowest at the bottom (y = 160 - 16)
    expect(pts[2][1]).toBeCloseTo(10);
    expect(pts[1][1]).toBeCloseTo(144);
    expect(pts[0][0]).toBeLessThan(pts[1][0]);
    expect(ratingChartSvg([], 'en')).toBe('');
    expect(ratingChartSvg([{ match: '<x>', rating: 1500 }], 'en')).not.toContain('<x>');
  });
});

describe('profile tournaments', () => {
  it('links each tournament to its page, with the partner and a champions tag, as text', () => {
    const html = tournamentsHtml(
      [
        { id: 'T3', name: '<b>Cup</b>', format: 'knockout', state: 'finished', partner: 'Omar', champion: true },
        { id: 'T1', name: '', format: 'round_robin', state: 'running', partner: null, champion: false },
      ],
      'en',
    );
    expect(html).toContain('href="#/tournaments/T3"');
    expect(html).toContain('&lt;b&gt;Cup&lt;/b&gt;');
    expect(html).toContain('<bdi>Omar</bdi>');
    expect(html.match(/champions/g)?.length).toBe(1);
    expect(html).toContain('<bdi>T1</bdi>');
    expect(tournamentsHtml([], 'ar')).toContain('لا بطولات بعد.');
  });
});
