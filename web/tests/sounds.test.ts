import { describe, expect, it, vi } from 'vitest';
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

describe('autoplay rules', () => {
  it('makes no AudioContext and plays nothing before the first gesture, then plays', async () => {
    vi.resetModules();
    const made: FakeContext[] = [];
    class FakeContext {
      currentTime = 0;
      state = 'running';
      destination = {};
      started = 0;
      constructor() {
        made.push(this);
      }
      createOscillator() {
        const ctx = this;
        return { type: '', frequency: { value: 0 }, connect: (g: unknown) => g, start: () => void ctx.started++, stop: () => {} };
      }
      createGain() {
        return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d: unknown) => d };
      }
    }
    vi.stubGlobal('AudioContext', FakeContext);
    try {
      const sounds = await import('../src/sounds');
      const target = new EventTarget();
      sounds.listenForGesture(target);
      sounds.play('turn');
      expect(made).toHaveLength(0);
      expect(sounds.gestureSeen()).toBe(false);
      target.dispatchEvent(new Event('keydown'));
      expect(sounds.gestureSeen()).toBe(true);
      sounds.play('turn');
      expect(made).toHaveLength(1);
      expect(made[0].started).toBe(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('the sound setting', () => {
  it('is on by default (nothing stored yet)', async () => {
    const { initialState } = await import('../src/app_state');
    expect(initialState('en').sound).toBe(true);
  });
});
