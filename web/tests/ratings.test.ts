// The match-over panel's rating changes (src/ratings_view.ts; the server's `ratings` message).
import { afterEach, describe, expect, it } from 'vitest';
import { setLang } from '../src/i18n';
import type { RatingsMessage } from '../src/protocol';
import { ratingsHtml, signedChange } from '../src/ratings_view';

const msg: RatingsMessage = {
  type: 'ratings',
  table: 't4',
  match: 't4-1',
  seats: [
    { name: 'Layla', before: 1500, after: 1516 },
    { name: 'Omar', before: 1500, after: 1484 },
    { name: 'Rana', before: 1523.6, after: 1539.2 },
    null,
  ],
};

afterEach(() => setLang('en'));

describe('rating changes at match over', () => {
  it('lists each rated person with before, after and the signed change, marking the viewer', () => {
    setLang('en');
    const html = ratingsHtml(msg, 't4', 1);
    expect(html).toContain('<bdi>Layla</bdi>: 1500 → 1516 (<bdi dir="ltr">+16</bdi>)');
    expect(html).toContain('<li class="me" data-testid="rating-change"><bdi>Omar</bdi>: 1500 → 1484 (<bdi dir="ltr">-16</bdi>)');
    expect(html).toContain('1524 → 1539');
    expect(html.match(/data-testid="rating-change"/g)).toHaveLength(3);
    expect(html).toContain('Rating');
  });
  it('writes Eastern digits and the Arabic heading in Arabic', () => {
    setLang('ar');
    const html = ratingsHtml(msg, 't4', null);
    expect(html).toContain('١٥٠٠ → ١٥١٦');
    expect(html).toContain('+١٦');
    expect(html).toContain('التصنيف');
    expect(signedChange(1500, 1484)).toBe('\u2212١٦');
  });
  it('shows nothing for another table or with no rated seat', () => {
    expect(ratingsHtml(msg, 't5', 0)).toBe('');
    expect(ratingsHtml(null, 't4', 0)).toBe('');
    expect(ratingsHtml({ ...msg, seats: [null, null, null, null] }, 't4', 0)).toBe('');
  });
  it('escapes names', () => {
    const html = ratingsHtml({ ...msg, seats: [{ name: '<b>x</b>', before: 1500, after: 1500 }, null, null, null] }, 't4', 0);
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(html).toContain('(<bdi dir="ltr">0</bdi>)');
  });
});
