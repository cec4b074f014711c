// Small inline SVG icons, drawn in the text's colour: they need no emoji font (Debian's
// Chromium without fonts-noto-color-emoji shows "🏆" as an empty box: issue 28).

const svg = (cls: string, label: string | null, body: string, size: number): string =>
  `<svg class="icon ${cls}" viewBox="0 0 24 24" width="${size}" height="${size}" ${
    label ? `role="img" aria-label="${label}"` : 'aria-hidden="true"'
  } fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;

/** A trophy cup (the champion's mark), gold; `label` names it for screen readers (else hidden). */
export const trophyIcon = (label: string | null = null, size = 18): string =>
  svg(
    'trophy',
    label,
    '<path d="M7 4h10v5a5 5 0 0 1-10 0z" fill="#f2c14e" stroke="#8a6100"/><path d="M7 6H4v1a3 3 0 0 0 3 3M17 6h3v1a3 3 0 0 1-3 3" stroke="#8a6100"/><path d="M12 14v3M8 20h8l-1-3H9z" fill="#f2c14e" stroke="#8a6100"/>',
    size,
  );

/** An open book: the rules. */
export const rulesIcon = (size = 18): string =>
  svg('book', null, '<path d="M3 5h6a3 3 0 0 1 3 3v12a2 2 0 0 0-2-2H3zM21 5h-6a3 3 0 0 0-3 3v12a2 2 0 0 1 2-2h7z"/>', size);
