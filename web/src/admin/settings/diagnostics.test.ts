import { describe, expect, it } from 'vitest';
import { answeredItem, failedItem, healthReport, healthReportName, initialItems } from './diagnostics.ts';
import { isUsableTestAddress, parseSavedAddresses } from './testing-rules.ts';

describe('diagnostics state', () => {
  it('starts with the six spec tests, pending', () => {
    const items = initialItems();
    expect(items.map((i) => i.id)).toEqual([
      'database-connection',
      'email-smtp',
      'voice-api',
      'twilio-integration',
      'openai-api',
      'api-endpoints',
    ]);
    expect(items.every((i) => i.status === 'pending' && i.lastRun === null)).toBe(true);
  });

  it('a failed call is an error with result "Test failed" and the message as details', () => {
    const at = new Date('2026-11-25T10:00:00Z');
    const item = failedItem(initialItems()[0]!, 'Something went wrong', at);
    expect(item).toMatchObject({
      status: 'error',
      result: 'Test failed',
      details: 'Something went wrong',
      lastRun: at.toISOString(),
    });
  });

  it('keeps the answer and counts statuses in the report', () => {
    const at = new Date(2026, 10, 5, 23, 30);
    const [a, b] = initialItems();
    const items = [
      answeredItem(a!, { status: 'success', result: 'ok', details: 'd', duration: 12, checks: [] }, at),
      answeredItem(b!, { status: 'warning', result: 'w', details: 'd', duration: 3, checks: [] }, at),
      ...initialItems().slice(2),
    ];
    const report = healthReport(items, null, null, at);
    expect(report.summary).toEqual({ pending: 4, running: 0, success: 1, warning: 1, error: 0 });
    expect(report.tests[0]?.duration).toBe(12);
    expect(healthReportName(at)).toBe('health-report-2026-11-05.json');
  });
});

describe('saved test addresses', () => {
  it('reads the saved JSON list, tells none from unreadable', () => {
    expect(parseSavedAddresses('["a@b.co","c@d.io"]')).toEqual(['a@b.co', 'c@d.io']);
    expect(parseSavedAddresses(undefined)).toBeNull();
    expect(parseSavedAddresses('[]')).toBeNull();
    expect(parseSavedAddresses('{oops')).toBe('unreadable');
    expect(parseSavedAddresses('[1,2]')).toBe('unreadable');
  });
});

describe('test address rows', () => {
  it('count when non-empty and containing an @', () => {
    expect(['a@b.co', ' x@y ', '', '   ', 'nope', '@'].map(isUsableTestAddress)).toEqual([
      true,
      true,
      false,
      false,
      false,
      true,
    ]);
  });
});
