import {
  DeadLetterInfo,
  DeadLetterItem,
  DiagnosticResult,
  DiagnosticRunResponse,
  ServiceCheck,
} from '@parley/contracts';
import { describe, expect, it } from 'vitest';

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
