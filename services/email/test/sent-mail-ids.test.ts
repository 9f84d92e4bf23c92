import { describe, expect, it } from 'vitest';
import { campaignMailId, trackingIdOfMailId } from '../src/features/delivery/sent-mail.repository.ts';

/** A campaign mail's Sent mail id is its tracking id's 16 bytes as a uuid, and back. */
describe('campaign mail ids in Sent mail', () => {
  it('round-trips a tracking id (22 base64url characters) through its uuid', () => {
    for (const trackingId of ['AAAAAAAAAAAAAAAAAAAAAA', '-_-_-_-_-_-_-_-_-_-_-w', 'q83vASNFZ4mrze8BI0VniQ']) {
      const id = campaignMailId(trackingId);
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(trackingIdOfMailId(id)).toBe(trackingId);
    }
  });
});
