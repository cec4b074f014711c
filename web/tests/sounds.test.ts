import { describe, expect, it } from 'vitest';
import { soundsFor } from '../src/sounds';
import type { GameEvent, TableView } from '../src/protocol';

const tv = (toAct: number, legal: TableView['legal']): TableView =>
  ({ you: 1, round: { to_act: toAct }, legal }) as unknown as TableView;

describe('table sounds', () => {
  it('sound a card, a trick won and a scored round from the events', () => {
    const events = [
      { event: 'card', seat: 0, card: 'AS' },
      { event: 'trick_won', seat: 0, trick: 1, tricks: [1, 0] },
      { event: 'round_scored' },
    ] as unknown as GameEvent[];
    expect(soundsFor(events, tv(2, []), false)).toEqual(['card', 'trick', 'round']);
    expect(soundsFor([], tv(2, []), false)).toEqual([]);
  });
  it('sound the player’s turn once, when it begins', () => {
    expect(soundsFor([], tv(1, [{ card: 'AS' }]), false)).toEqual(['turn']);
    expect(soundsFor([], tv(1, [{ card: 'AS' }]), true)).toEqual([]);
  });
});
