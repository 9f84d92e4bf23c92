import { CAMPAIGN_MESSAGES } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api.ts';
import { sendErrorToast } from './api.ts';

const refusal = (message: string) => new ApiError(429, { error: 'Too Many Requests', message }, '');

describe('the toast of a refused send', () => {
  it('titles the hourly limit, at the spec’s limit and at one an operator set', () => {
    for (const message of [
      `${CAMPAIGN_MESSAGES.frequency}: try again in 12 minutes`,
      'Maximum 10 campaigns per hour: try again in 1 minute',
    ])
      expect(sendErrorToast(refusal(message))).toEqual({
        variant: 'destructive',
        title: 'Campaign Frequency Limit',
        description: message,
      });
  });

  it('does not take another refusal for the hourly limit', () => {
    expect(sendErrorToast(refusal('Something else went wrong')).title).toBe('Error');
  });
});
