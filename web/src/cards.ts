// Cards: parsing, ordering of a hand, SVG faces.
import type { Card, Suit } from './protocol';

export const SUITS: Suit[] = ['S', 'H', 'D', 'C'];
export const RANKS = ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3', '2'];

export const suitOf = (c: Card): Suit => c[1] as Suit;
export const rankOf = (c: Card): string => c[0];
/** 14 for an ace down to 2. */
export const rankValue = (c: Card): number => 14 - RANKS.indexOf(rankOf(c));
export const isRed = (s: Suit): boolean => s === 'H' || s === 'D';
export const rankLabel = (c: Card): string => (rankOf(c) === 'T' ? '10' : rankOf(c));

function permutations<T>(xs: T[]): T[][] {
  if (xs.length <= 1) return [xs.slice()];
  const out: T[][] = [];
  xs.forEach((x, i) => {
    for (const rest of permutations([...xs.slice(0, i), ...xs.slice(i + 1)])) out.push([x, ...rest]);
  });
  return out;
}

/**
 * The order of the suits in a hand: colours alternate wherever the suits held allow it
 * (black, red, black, red), the trump (when named) first, otherwise S H C D.
 */
export function suitOrder(present: Suit[], trump: Suit | null = null): Suit[] {
  const base: Suit[] = ['S', 'H', 'C', 'D'];
  const suits = base.filter((s) => present.includes(s));
  const alternates = (p: Suit[]) => p.every((s, i) => i === 0 || isRed(s) !== isRed(p[i - 1]));
  const perms = permutations(suits).filter(alternates);
  const pick =
    (trump && perms.find((p) => p[0] === trump)) || perms[0] || suits;
  return pick;
}

/** A hand sorted by suit (alternating colours), high to low in each suit. */
export function sortHand(hand: Card[], trump: Suit | null = null): Card[] {
  const order = suitOrder([...new Set(hand.map(suitOf))], trump);
  return hand
    .slice()
    .sort((a, b) => order.indexOf(suitOf(a)) - order.indexOf(suitOf(b)) || rankValue(b) - rankValue(a));
}

/** Cards held per suit. */
export function suitLengths(hand: Card[]): Record<Suit, number> {
  const n: Record<Suit, number> = { S: 0, H: 0, D: 0, C: 0 };
  for (const c of hand) n[suitOf(c)]++;
  return n;
}

// ---- SVG ----------------------------------------------------------------------------

/** Suit shapes in a 100 x 100 box. */
export const SUIT_PATHS: Record<Suit, string> = {
  H: '<path d="M50 88 C14 60 2 40 12 22 C22 6 44 8 50 28 C56 8 78 6 88 22 C98 40 86 60 50 88 Z"/>',
  D: '<path d="M50 4 L88 50 L50 96 L12 50 Z"/>',
  S:
    '<path d="M50 6 C30 30 8 44 10 64 C12 80 34 84 46 70 C45 80 40 88 32 94 L68 94 C60 88 55 80 54 70 C66 84 88 80 90 64 C92 44 70 30 50 6 Z"/>',
  C:
    '<circle cx="50" cy="28" r="20"/><circle cx="27" cy="60" r="20"/><circle cx="73" cy="60" r="20"/>' +
    '<path d="M45 50 L55 50 L62 95 L38 95 Z"/>',
};

export const suitColour = (s: Suit): string => (isRed(s) ? '#c8102e' : '#1a1a1a');

/** A small suit symbol as an inline SVG. */
export function suitIcon(s: Suit, size = 16): string {
  return `<svg class="suit-icon" width="${size}" height="${size}" viewBox="0 0 100 100" fill="${suitColour(
    s,
  )}" aria-hidden="true">${SUIT_PATHS[s]}</svg>`;
}

/** The card's own direction: the corner indices are laid out left to right whatever the page's
 * direction, so that an Arabic (right-to-left) page does not anchor "10" at its end and clip it. */
const CARD_DIR = 'direction="ltr" style="direction:ltr;unicode-bidi:isolate"';

/** A card face as SVG (viewBox 100 x 140). */
export function cardSvg(c: Card): string {
  const s = suitOf(c);
  const col = suitColour(s);
  const r = rankLabel(c);
  const pip = (x: number, y: number, k: number, rot = 0) =>
    `<g transform="translate(${x} ${y}) rotate(${rot}) scale(${k}) translate(-50 -50)">${SUIT_PATHS[s]}</g>`;
  const face = 'AKQJ'.includes(rankOf(c));
  const centre = face
    ? `<text x="50" y="92" text-anchor="middle" font-size="56" font-weight="700" font-family="Georgia, 'DejaVu Serif', serif">${r}</text>${pip(
        50,
        112,
        0.16,
      )}`
    : pip(50, 74, 0.42);
  return (
    `<svg class="card-svg" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" ${CARD_DIR} role="img" aria-hidden="true">` +
    `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fff" stroke="#999" stroke-width="2"/>` +
    `<g fill="${col}">` +
    `<text x="9" y="28" font-size="${r.length > 1 ? 22 : 26}" font-weight="700" font-family="Arial, 'DejaVu Sans', sans-serif" letter-spacing="-1">${r}</text>` +
    pip(18, 42, 0.17) +
    `<g transform="rotate(180 50 70)"><text x="9" y="28" font-size="${r.length > 1 ? 22 : 26}" font-weight="700" font-family="Arial, 'DejaVu Sans', sans-serif" letter-spacing="-1">${r}</text>${pip(
      18,
      42,
      0.17,
    )}</g>` +
    centre +
    `</g></svg>`
  );
}

/** The back of a card. */
export function cardBackSvg(key: string | number = 0): string {
  const id = `card-back-${key}`; // one per back shown: a pattern inside a hidden SVG paints nothing elsewhere
  return (
    `<svg class="card-svg" viewBox="0 0 100 140" xmlns="http://www.w3.org/2000/svg" ${CARD_DIR} aria-hidden="true">` +
    `<defs><pattern id="${id}" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">` +
    `<rect width="10" height="10" fill="#1d4e89"/><rect width="5" height="10" fill="#24609f"/></pattern></defs>` +
    `<rect x="1.5" y="1.5" width="97" height="137" rx="9" fill="#fff" stroke="#999" stroke-width="2"/>` +
    `<rect x="8" y="8" width="84" height="124" rx="5" fill="url(#${id})"/></svg>`
  );
}
