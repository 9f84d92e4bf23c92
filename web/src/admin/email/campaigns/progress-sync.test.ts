import type { CampaignProgress } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { listIsBehind } from './api.ts';

const progress = (status: CampaignProgress['status']): CampaignProgress => ({
  sendId: 5,
  kind: 'send',
  status,
  testMode: false,
  total: 5000,
  originalRecipients: 5000,
  sent: status === 'sent' ? 5000 : 600,
  failed: 0,
  unknown: 0,
  sending: 0,
  remaining: status === 'sent' ? 0 : 4400,
  rate: 0,
  startedAt: '2026-11-27T06:20:00.813Z',
  finishedAt: status === 'sent' ? '2026-11-27T06:20:04.073Z' : null,
});

describe('the campaign card follows its send', () => {
  it('reads the list again when a poll answers that a send the list calls sending has ended', () => {
    expect(listIsBehind('sending', progress('sent'), false)).toBe(true);
    expect(listIsBehind('sending', progress('cancelled'), false)).toBe(true);
    expect(listIsBehind('sending', progress('paused'), false)).toBe(true);
  });

  it('even when the card never saw it sending: resumed, then finished before the first poll (the browser run of 2026-11-27)', () => {
    // Paused: the card shows the list's figures, the poll's last answer says paused.
    expect(listIsBehind('paused', progress('paused'), false)).toBe(false);
    // Resumed: the list says sending; the poll's next answer already says sent.
    expect(listIsBehind('sending', progress('paused'), true)).toBe(false);
    expect(listIsBehind('sending', progress('sent'), false)).toBe(true);
  });

  it('waits while the send runs, or while an answer is on its way', () => {
    expect(listIsBehind('sending', progress('sending'), false)).toBe(false);
    expect(listIsBehind('sending', progress('sent'), true)).toBe(false);
    expect(listIsBehind('sending', undefined, false)).toBe(false);
    expect(listIsBehind('sent', progress('sent'), false)).toBe(false);
  });
});
