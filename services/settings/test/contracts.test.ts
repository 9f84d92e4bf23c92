import {
  DeadLetterInfo,
  DeadLetterItem,
  DiagnosticResult,
  DiagnosticRunResponse,
  SETTINGS_COPY_HOLDERS,
  ServiceCheck,
} from '@parley/contracts';
import { describe, expect, it } from 'vitest';
// Every service's events.ts (plain lists, tests only, by path).
import { CONSUMES as blog } from '../../blog/src/events.ts';
import { CONSUMES as booking } from '../../booking/src/events.ts';
import { CONSUMES as email } from '../../email/src/events.ts';
import { CONSUMES as identity } from '../../identity/src/events.ts';
import { CONSUMES as voice } from '../../voice/src/events.ts';
import { CONSUMES as settings } from '../src/events.ts';

// settings.ts repeats two bus shapes because events.ts imports it (see the note there).
describe('API shapes repeated from the bus contracts', () => {
  it('DeadLetterItem is DeadLetterInfo', () => {
    expect(JSON.parse(JSON.stringify(DeadLetterItem))).toEqual(JSON.parse(JSON.stringify(DeadLetterInfo)));
  });

  it('a diagnostic answer carries every field of DiagnosticResult, with the same schema', () => {
    const bus = JSON.parse(JSON.stringify(DiagnosticResult.properties));
    for (const schema of [DiagnosticRunResponse, ServiceCheck]) {
      const api = JSON.parse(JSON.stringify(schema.properties));
      for (const [field, s] of Object.entries(bus)) expect(api[field], field).toEqual(s);
    }
  });
});

describe('the copies of the settings', () => {
  it('a save waits for every service that keeps one (every consumer of settings.setting.changed)', () => {
    const consumes: Record<string, readonly string[]> = { blog, booking, email, identity, voice, settings };
    const holders = Object.keys(consumes).filter((s) => consumes[s]?.includes('settings.setting.changed'));
    expect(holders.sort()).toEqual([...SETTINGS_COPY_HOLDERS].sort());
  });
});
