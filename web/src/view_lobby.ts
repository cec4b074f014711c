// The screens before and around a match: sign-in, the lobby, the waiting room (and a finished
// table's). The table itself is view_table.ts.
import type { State } from './app';
import { rt } from './replay_i18n';
import { tt } from './tournament_i18n';
import { suitIcon } from './cards';
import { num, t, tableLabel, type Key } from './i18n';
import { positionOf } from './layout';
import type { Seat, TableSummary, TableView } from './protocol';
import { esc } from './util';
import { offlineEntry, offlineLobby } from './offline_view';
import { accountButtons, accountSignInForm } from './accounts';
import { inviteHtml } from './invite';
import { st } from './social_i18n';
import { signInNotice } from './status_view';
import { rulesHash, rw } from './rules';
import { rulesIcon } from './icons';
import { DEFAULT_LEVEL, levelPickerHtml, lw } from './bot_levels';
import { NAME_MAX_UNITS, langButton, nameHtml, playerHtml, ratedTag, seatChip } from './view_parts';
import { tableTopbar } from './view_table';
import { matchOverPanel } from './view_panels';
import { quickWaiting } from './quick';
import { playNowButton, quickBadge, quickLobby, quickStatus } from './view_quick';

export function signInScreen(s: State): string {
  return `<main class="screen signin">
    <div class="signin-card">
      <div class="logo">${suitIcon('S', 34)}${suitIcon('H', 34)}${suitIcon('C', 34)}${suitIcon('D', 34)}</div>
      <h1>${t('signInTitle')}</h1>
      ${signInNotice(s)}
      <form data-form="signin" autocomplete="off">
        <label>${t('yourName')}
          <input name="name" data-bind="nameInput" maxlength="${NAME_MAX_UNITS}" dir="auto" required value="${esc(s.nameInput)}" autofocus>
        </label>
        <button type="submit" class="primary" ${s.busy || s.conn !== 'open' ? 'disabled' : ''}>${t('signIn')}</button>
      </form>
      ${accountSignInForm(s)}
      ${offlineEntry(s)}
      ${langButton(s)}
      <p><a href="#/history" data-testid="history-link">${rt('publicMatches')}</a> · <a href="${rulesHash()}" data-testid="rules-link">${rw('rules', s.lang)}</a></p>
    </div>
  </main>`;
}

// ---- lobby ------------------------------------------------------------------------------
export function lobbyScreen(s: State): string {
  const f = s.form;
  const row = (tb: TableSummary) => `<li class="table-row table-${tb.state === 'finished' ? 'finished' : 'open'}" data-table="${esc(tb.table)}" data-state="${esc(tb.state)}">
      <div class="table-head"><b>${esc(tableLabel(tb.table))}</b>${quickBadge(tb.quick)} · ${t(tb.preset === 'classic' ? 'classic' : 'levantine')} · ${t(
        'target',
      )} ${num(tb.target)} · ${tb.turn_seconds ? `${num(tb.turn_seconds)}${t('secs')}` : '∞'}${ratedTag(tb.rated)} · <span class="state-${esc(tb.state)} ${tb.state === 'finished' ? 'tag' : ''}">${
        ['waiting', 'playing', 'finished'].includes(tb.state) ? t(`st_${tb.state}` as Key) : esc(tb.state)
      }</span></div>
      <div class="table-seats">${tb.seats
        .map((st, i) =>
          st
            ? seatChip(st)
            : tb.state !== 'playing'
              ? `<button class="small" data-act="join" data-table="${esc(tb.table)}" data-seat="${i}">${t('sit')} ${num(i + 1)}</button>`
              : seatChip(null),
        )
        .join('')}
        <button class="small ghost" data-act="watch" data-table="${esc(tb.table)}">${t('watch')}</button></div>
    </li>`;
  // finished tables apart, under their own heading and marked finished: not open tables
  const open = s.tables.filter((tb) => tb.state !== 'finished').map(row).join('');
  const finished = s.tables.filter((tb) => tb.state === 'finished').map(row).join('');
  return `<main class="screen lobby">
    <header class="topbar"><h1>${t('title')}</h1><span class="me">${nameHtml(s.name ?? '')}</span>
      <a class="btn ghost small" href="#/history" data-testid="history-link">${rt('history')}</a>
      <a class="btn ghost small" href="#/leaderboard" data-testid="leaderboard-link">${st('leaderboard')}</a>
      <a class="btn ghost small" href="#/tournaments" data-testid="tournaments-link">${tt('tournaments')}</a>
      <a class="btn ghost small" href="${rulesHash()}" data-testid="rules-link">${rulesIcon()} ${rw('rules', s.lang)}</a>
      ${accountButtons(s)}${langButton(s)}<button class="ghost small" data-act="signout">${t('signOut')}</button></header>
    <div class="lobby-cols">
      ${quickLobby(s)}
      <section class="panel create">
        <h2>${t('createTable')}</h2>
        <form data-form="create">
          <label>${t('preset')}
            <select data-bind="form.preset" name="preset">
              <option value="levantine" ${f.preset === 'levantine' ? 'selected' : ''}>${t('levantine')}</option>
              <option value="classic" ${f.preset === 'classic' ? 'selected' : ''}>${t('classic')}</option>
            </select></label>
          <label>${t('target')} <input type="text" inputmode="numeric" name="target" data-bind="form.target" data-num value="${num(f.target)}"></label>
          <label>${t('timer')} <input type="text" inputmode="numeric" name="timer" data-bind="form.timer" data-num value="${num(f.timer)}"></label>
          <label class="check"><input type="checkbox" name="private" data-bind="form.priv" ${f.priv ? 'checked' : ''}> ${t('privateTable')}</label>
          <label class="check"><input type="checkbox" name="bots" data-bind="form.bots" ${f.bots ? 'checked' : ''}> ${t('botsFree')}</label>
          ${f.bots ? levelPickerHtml(s.botLevel ?? DEFAULT_LEVEL) : ''}
          <label class="check"><input type="checkbox" name="casual" data-bind="form.casual" ${f.casual ? 'checked' : ''}> ${t('casualTable')}</label>
          <button type="submit" class="primary">${t('create')}</button>
        </form>
        ${offlineLobby(s)}
        <h2>${t('joinPrivate')}</h2>
        <form data-form="private" class="row">
          <input name="table" placeholder="${t('tableId')}" data-bind="joinId" value="${esc(s.joinId)}" size="6">
          <input name="code" placeholder="${t('code')}" data-bind="joinCode" value="${esc(s.joinCode)}" size="8">
          <button type="submit" data-mode="join">${t('join')}</button>
          <button type="submit" data-mode="watch" class="ghost">${t('watch')}</button>
        </form>
      </section>
      <section class="panel tables">
        <h2>${t('openTables')} <button class="small ghost" data-act="refresh">${t('refresh')}</button></h2>
        ${open ? `<ul class="table-list">${open}</ul>` : `<p class="muted">${t('noTables')}</p>`}
        ${finished ? `<h2>${t('finishedTables')}</h2><ul class="table-list finished-list">${finished}</ul>` : ''}
        ${
          s.listPrev.length || s.listNext !== null
            ? `<div class="row pager">${
                s.listPrev.length ? `<button class="small ghost" data-act="prevpage">${t('prevPage')}</button>` : ''
              }${s.listNext !== null ? `<button class="small ghost" data-act="nextpage">${t('nextPage')}</button>` : ''}</div>`
            : ''
        }
      </section>
    </div>
  </main>`;
}
// ---- waiting room -----------------------------------------------------------------------

export function waitingRoom(s: State, tv: TableView): string {
  const seated = tv.you !== null;
  // A quick-play table waiting for people (issue 28): the server fills and starts it; its people
  // get "Play now" instead of the bots, the level and Start, and it has no code to share.
  const quick = quickWaiting(tv);
  const controls = seated && !quick;
  // The server sends the code to the private table's creator (join_code, issue 14): a reload keeps it.
  const code = quick ? null : (s.codes[tv.table] ?? tv.join_code ?? tv.code);
  const full = tv.seats.every((x) => x);
  const level = s.botLevel ?? DEFAULT_LEVEL;
  const seatBox = (seat: Seat) => {
    const st = tv.seats[seat];
    const pos = positionOf(seat, tv.you);
    let body: string;
    if (!st) {
      body = `<span class="muted">${t('free')}</span>
        ${quick && seated ? '' : `<button class="small" data-act="join" data-table="${esc(tv.table)}" data-seat="${seat}">${t('sit')}</button>`}
        ${controls ? `<button class="small" data-act="addbot" data-seat="${seat}" data-testid="add-bot-${seat}">${t('addBot')} · ${lw(level)}</button>` : ''}`;
    } else {
      body = `<b>${playerHtml(st)}</b>${seat === tv.you ? ` <span class="tag">${t('you')}</span>` : ''}${
        st.bot && controls ? ` <button class="small ghost" data-act="removebot" data-seat="${seat}">${t('removeBot')}</button>` : ''
      }`;
    }
    return `<div class="wseat wseat-${pos}" data-seat-box="${seat}">${body}</div>`;
  };
  const footer = !seated
    ? `<p class="muted">${t('waitingPlayers')}</p>`
    : quick
      ? playNowButton()
      : `<button class="primary big" data-act="start" ${full ? '' : 'disabled'}>${t('start')}</button>
        ${full ? '' : `<p class="muted">${t('needFour')}</p>`}`;
  return `<main class="screen waiting">
    ${tableTopbar(s, tv)}
    <section class="panel waiting-panel">
      <h2>${t('tableId')} ${esc(tableLabel(tv.table))}${quickBadge(tv.quick)} · ${t(tv.preset === 'classic' ? 'classic' : 'levantine')} · ${t('target')} ${num(tv.target)}${ratedTag(tv.rated)}</h2>
      ${code ? `<p class="code">${t('shareCode')}: <b dir="ltr">${esc(code)}</b></p>` : ''}
      ${code ? inviteHtml(globalThis.location ?? { origin: '', pathname: '/' }, tv.table, code, { invite: st('invite'), copy: st('copy'), hint: st('inviteHint') }) : ''}
      ${controls && !full ? levelPickerHtml(level) : ''}
      ${quick ? quickStatus(tv, Date.now()) : ''}
      <div class="wtable">${([0, 1, 2, 3] as Seat[]).map(seatBox).join('')}<div class="wcentre">${suitIcon('S', 28)}${suitIcon('H', 28)}</div></div>
      ${footer}
    </section>
  </main>`;
}

export function finishedScreen(s: State, tv: TableView): string {
  // a finished table without a round (not expected) or after the match: the waiting room plus the result
  return waitingRoom(s, tv) + (s.matchOver ? matchOverPanel(tv, s) : '');
}

