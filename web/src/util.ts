export function esc(s: unknown): string {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A number kept left-to-right inside right-to-left text (e.g. "−7"). */
export const ltr = (s: string): string => `<bdi dir="ltr">${s}</bdi>`;

export function load<T>(store: Storage | undefined, key: string, fallback: T): T {
  try {
    const v = store?.getItem(key);
    return v ? (JSON.parse(v) as T) : fallback;
  } catch {
    return fallback;
  }
}

export function save(store: Storage | undefined, key: string, v: unknown): void {
  try {
    if (v === null || v === undefined) store?.removeItem(key);
    else store?.setItem(key, JSON.stringify(v));
  } catch {
    /* storage full or disabled: nothing to do */
  }
}
