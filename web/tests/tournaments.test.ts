// The tournament screens' pure parts (src/tournaments.ts): routes, the create request, the
// bracket with byes, the table of results, record links, seats, escaping, both languages.
import { beforeEach, describe, expect, it } from 'vitest';
import { setLang } from '../src/i18n';
import { TKEYS, tournamentWords } from '../src/tournament_i18n';
import {
  bracketHtml,
  controlsHtml,
  createMessage,
  listHtml,
  mySeat,
  parseTournamentRoute,
  roundName,
  standingsHtml,
  tournamentHtml,
  type TMatch,
  type Tournament,
} from '../src/tournaments';

const match = (round: number, slot: number, teams: [number | null, number | null], extra: Partial<TMatch> = {}): TMatch => ({
  round, slot, teams, state: 'waiting', table: '', seats_by: 0, started: false, winner: -1, scores: [0, 0], record: '', bye: false,
  forfeited: [false, false], tiebreak: false, ...extra,
});

/** A knockout of 5 teams as the server sends it after round 1: seeds 1–3 had byes, 4 beat 5. */
function fiveTeams(): Tournament {
  const names = ['Layla', 'Omar', '<script>x</script>', 'Rana', 'bot:heuristic'];
  return {
    id: 'T1', organiser: 'Layla', state: 'running', rounds: 3, champion: null, singles: [],
    settings: { name: 'Cup <b>', format: 'knockout', preset: 'levantine', target: 31, turn_seconds: 30, seat_seconds: 120,
      no_show: 'forfeit', pairing: 'partners', size: 8, start: 0 },
    teams: names.map((n, i) => ({ players: [n, `${n}-2`], rating: 1600 - 10 * i, seed: i + 1 })) as Tournament['teams'],
    matches: [
      match(0, 0, [0, null], { state: 'done', bye: true, winner: 0 }),
      match(0, 1, [3, 4], { state: 'done', winner: 0, scores: [31, 12], record: 't1-1', table: 't1' }),
      match(0, 2, [1, null], { state: 'done', bye: true, winner: 0 }),
      match(0, 3, [2, null], { state: 'done', bye: true, winner: 0 }),
      match(1, 0, [0, 3], { state: 'playing', table: 't2' }),
      match(1, 1, [1, 2], { state: 'done', winner: 1, scores: [20, 20], record: 't3-1', table: 't3', tiebreak: true }),
      match(2, 0, [null, 2]),
    ],
  };
}

beforeEach(() => setLang('en'));

describe('tournaments', () => {
  it('parses its routes', () => {
    expect(parseTournamentRoute('#/tournaments')).toEqual({ screen: 'tournaments' });
    expect(parseTournamentRoute('#/tournaments/T12')).toEqual({ screen: 'tournament', id: 'T12' });
    expect(parseTournamentRoute('#/history')).toBeNull();
    expect(parseTournamentRoute('#/tournaments/T1/x')).toBeNull();
  });

  it('builds the create request with numbers', () => {
    expect(createMessage({ name: ' Cup ', format: 'round_robin', target: '7', size: '5', turn_seconds: '0', no_show: 'bots' })).toEqual({
      type: 'tournament_create', name: 'Cup', format: 'round_robin', preset: 'levantine', target: 7, turn_seconds: 0,
      seat_seconds: 120, no_show: 'bots', pairing: 'partners', size: 5,
    });
  });

  it('draws the bracket by round without the byes, with records and the tie-break', () => {
    const t = fiveTeams();
    const html = bracketHtml(t, 'Rana');
    const rounds = html.split('<section class="tround"').slice(1);
    expect(rounds.length).toBe(3);
    expect(rounds.map((r) => /<h3>([^<]*)<\/h3>/.exec(r)![1])).toEqual(['Quarter-finals', 'Semi-finals', 'Final']);
    expect(rounds[0].match(/class="tmatch"/g)!.length).toBe(1); // the byes are not drawn
    const links = [...html.matchAll(/href="([^"]*)" data-testid="record-link"/g)].map((m) => m[1]);
    expect(links).toEqual(['#/replay/t1-1', '#/replay/t3-1']);
    expect(html).toContain('tie-break');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script&gt;x&lt;/script&gt;');
    // Rana's team plays the semi-final at t2 as side 1, Rana its first player: seat 1.
    expect(/data-tact="sit" data-table="t2" data-seat="(\d)"/.exec(html)![1]).toBe('1');
    expect(roundName(t, 2)).toBe('Final');
  });

  it('maps a player to its reserved seat: side s, player p → seat s + 2p', () => {
    const t = fiveTeams();
    expect(mySeat(t, t.matches[4], 'Layla')).toBe(0);
    expect(mySeat(t, t.matches[4], 'Layla-2')).toBe(2);
    expect(mySeat(t, t.matches[4], 'Rana-2')).toBe(3);
    expect(mySeat(t, t.matches[4], 'Omar')).toBeNull();
  });

  it('shows the organiser its buttons and the champion once finished', () => {
    const t = fiveTeams();
    t.state = 'registration';
    expect(controlsHtml(t, 'Layla')).toContain('data-testid="start-tournament"');
    expect(controlsHtml(t, 'Omar')).not.toContain('start-tournament');
    t.state = 'finished';
    t.champion = 2;
    const html = tournamentHtml(t, null);
    expect(html).toContain('data-testid="champion"');
    expect(html).toContain('Cup &lt;b&gt;');
  });

  it('draws a round-robin table of results in the server order', () => {
    const t = fiveTeams();
    t.settings.format = 'round_robin';
    t.standings = [
      { team: 2, played: 4, won: 3, drawn: 0, lost: 1, points: 6, difference: 40 },
      { team: 0, played: 4, won: 2, drawn: 1, lost: 1, points: 5, difference: -3 },
    ];
    const html = standingsHtml(t, null);
    const rows = html.split('<tr>').slice(2); // the header row first
    expect(rows[0]).toContain('&lt;script&gt;x&lt;/script&gt;');
    expect(rows[0]).toContain('<td>6</td>');
    expect(rows[1]).toContain('Layla');
    expect(html).not.toContain('<script>');
  });

  it('tells bot teams apart, shows a live score, and asks an invited player to accept', () => {
    const t = fiveTeams();
    t.teams[4].players = ['bot:heuristic', 'bot:heuristic'];
    t.matches[4] = match(1, 0, [0, 4], { state: 'playing', table: 't2', live: [12, 5] });
    const html = bracketHtml(t, null);
    expect(html).toContain('Bot team 5');
    expect(html).toContain('data-level="medium"'); // bot:heuristic shows as its nearest level
    expect(html).not.toContain('heuristic (bot) &amp; heuristic (bot)');
    const live = [...html.matchAll(/data-testid="live-score">(.*?)<\/span><\/div>/g)].map((m) => m[1].replace(/<[^>]*>|[^0-9]/g, ''));
    expect(live).toEqual(['12', '5']);
    t.state = 'registration';
    t.invites = [{ players: ['Layla', 'Sami'], accepted: [true, false] }];
    const sami = controlsHtml(t, 'Sami');
    expect(sami).toContain('data-testid="accept-invite"');
    expect(sami).toContain('Layla');
    expect(sami).toContain('data-tform="enter"'); // or enter with someone else
    expect(controlsHtml(t, 'Rana-9')).not.toContain('accept-invite');
    // The inviter waits: entered, it may withdraw, not enter again.
    const layla = controlsHtml(t, 'Layla');
    expect(layla).not.toContain('data-tform="enter"');
    expect(layla).toContain('data-tact="withdraw"');
    setLang('ar');
    expect(tournamentHtml(t, 'Sami')).toContain('اقبل');
  });

  it('lists tournaments with their champion', () => {
    const html = listHtml([{ id: 'T2', name: 'League', format: 'round_robin', state: 'finished', organiser: 'x', teams: 3, size: 3, start: 0,
      champion: ['bot:heuristic', 'Omar'] }]);
    expect(html).toContain('#/tournaments/T2');
    expect(html).toContain('Bot · medium');
  });

  it('has every word in Arabic', () => {
    for (const k of TKEYS) expect(tournamentWords.ar[k], k).toBeTruthy();
    setLang('ar');
    expect(roundName(fiveTeams(), 2)).toBe('النهائي');
  });
});
