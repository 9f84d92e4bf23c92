import { describe, expect, it } from 'vitest';
import type { ScriptPlayback } from '../../../lib/use-script-playback.ts';
import { callState, formatSeconds, intensity, statsStatus, statusLabel } from './call-state.ts';

const noop = () => {};
const playback = (p: Partial<ScriptPlayback>): ScriptPlayback => ({
  phase: 'idle',
  index: 0,
  completed: 0,
  clock: null,
  fetching: false,
  play: noop,
  pause: noop,
  reset: noop,
  restart: noop,
  ...p,
});

describe('the simulated call state', () => {
  it('reads ready, generating, active, paused and ended from the playback', () => {
    const ready = callState(playback({}), 9);
    expect([statusLabel(ready), statsStatus(ready), intensity(ready), ready.progress]).toEqual([
      'Ready to Call',
      'Ready',
      0.2,
      0,
    ]);
    const generating = callState(playback({ phase: 'playing', fetching: true, index: 1, completed: 1 }), 9);
    expect([
      statusLabel(generating),
      statsStatus(generating),
      intensity(generating),
      generating.progress,
    ]).toEqual(['Generating Voice', 'Active', 0.9, 11]);
    const active = callState(playback({ phase: 'playing', index: 4, completed: 4 }), 9);
    expect([statusLabel(active), intensity(active), active.progress]).toEqual(['Call Active', 0.7, 44]);
    const paused = callState(playback({ phase: 'stopped', index: 4, completed: 4 }), 9);
    expect([statusLabel(paused), statsStatus(paused), paused.started]).toEqual([
      'Call Paused',
      'Paused',
      true,
    ]);
    const ended = callState(playback({ phase: 'ended', index: 8, completed: 9 }), 9);
    expect([statusLabel(ended), statsStatus(ended), ended.progress, ended.stepIndex]).toEqual([
      'Call Ended',
      'Complete',
      100,
      8,
    ]);
    expect(callState(playback({}), 0).progress).toBe(0);
  });

  it('formats the duration as m:ss', () => {
    expect(formatSeconds(75)).toBe('1:15');
    expect(formatSeconds(9)).toBe('0:09');
  });
});
