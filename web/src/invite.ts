// Invitation links (issue 15): the creator of a private table shares `/?join=TABLE.CODE`
// (a public table's link has no code: `/?join=TABLE`). Opening the link signs in as usual (the
// stored token, or the name form), then joins the table: a free seat while the table is not
// playing, else as a spectator (App.acceptInvite). The code is the table's join code
// (docs/protocol.md "created"), so the link is as secret as the code.
import { esc } from './util';

export interface Invite {
  table: string;
  code?: string;
}

const INVITE = /^(t[0-9]{1,12})(?:\.([A-Za-z0-9]{1,16}))?$/;

/** The invitation in a page's query string (`?join=t7.K3X9Q2`), or null when there is none or it is malformed. */
export function parseInvite(search: string): Invite | null {
  const v = new URLSearchParams(search).get('join');
  const m = v ? INVITE.exec(v.trim()) : null;
  if (!m) return null;
  return m[2] ? { table: m[1], code: m[2].toUpperCase() } : { table: m[1] };
}

/** The link to share for `table` (and its join code), on this page's origin and path. */
export function inviteUrl(loc: Pick<Location, 'origin' | 'pathname'>, table: string, code?: string | null): string {
  return `${loc.origin}${loc.pathname}?join=${encodeURIComponent(code ? `${table}.${code}` : table)}`;
}

/** The page's address without its `join` parameter (so a reload does not join again). */
export function withoutInvite(href: string): string {
  const u = new URL(href);
  u.searchParams.delete('join');
  return u.toString();
}

/** The invitation box of a private table's waiting room: the link, selectable, and a copy button. */
export function inviteHtml(loc: Pick<Location, 'origin' | 'pathname'>, table: string, code: string, words: { invite: string; copy: string; hint: string }): string {
  const url = inviteUrl(loc, table, code);
  return `<div class="invite" data-testid="invite">
    <label>${esc(words.invite)} <input readonly dir="ltr" data-testid="invite-link" value="${esc(url)}"></label>
    <button type="button" class="small" data-act="copyinvite" data-url="${esc(url)}" data-testid="invite-copy">${esc(words.copy)}</button>
    <p class="muted">${esc(words.hint)}</p>
  </div>`;
}
