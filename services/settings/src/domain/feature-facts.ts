/**
 * Feature discovery's facts: what the activity projection (and the settings store) know, as
 * counts and dates, and the time windows they are counted over. The rules that read them are
 * in feature-rules.ts.
 */

export const DAY_MS = 86_400_000;
/** "Recent" for every rule: the last 30 days. */
export const RECENT_DAYS = 30;
/** A brand analysis older than this is stale (websites change by the season). */
export const BRAND_STALE_DAYS = 90;
/**
 * A booking still 'confirmed' this long after its slot began has been left without a
 * follow-up status (the 30-minute slot plus half an hour to write it down).
 */
export const FOLLOW_UP_AFTER_MS = 60 * 60_000;

/** What the projection (and the settings store) know, as counts and dates. */
export interface ActivityFacts {
  bookings: {
    /** Every booking known (any status). */
    total: number;
    /** Booked in the last 30 days. */
    recent: number;
    /** Still 'confirmed' though the slot began more than FOLLOW_UP_AFTER_MS ago. */
    awaitingFollowUp: number;
  };
  calls: {
    /** Public demo calls that ended (any outcome). */
    demo: number;
    /** Outbound calls placed by admins that ended. */
    admin: number;
    lastCallAt: Date | null;
  };
  posts: {
    /** Posts whose latest status is published. */
    published: number;
    publishedRecently: number;
    lastPublishedAt: Date | null;
    /** Published posts no newsletter was made from. */
    withoutNewsletter: number;
  };
  audience: {
    /** Address books not deleted. */
    addressBooks: number;
    /** Contacts in them (each book's count after its newest import). */
    contacts: number;
    lastImportAt: Date | null;
  };
  campaigns: {
    /** Campaigns sent live at least once. */
    sentLive: number;
    /** Campaigns sent in test mode only. */
    testOnly: number;
    lastSentAt: Date | null;
    /** Campaigns sent live in the last 30 days. */
    sentRecently: number;
  };
  /** Newsletters sent live at least once; sent in test mode only. */
  newsletters: { sent: number; testOnly: number; lastSentAt: Date | null };
  brand: { websiteSaved: boolean; lastAnalysisAt: Date | null };
}

export const NO_ACTIVITY: ActivityFacts = {
  bookings: { total: 0, recent: 0, awaitingFollowUp: 0 },
  calls: { demo: 0, admin: 0, lastCallAt: null },
  posts: { published: 0, publishedRecently: 0, lastPublishedAt: null, withoutNewsletter: 0 },
  audience: { addressBooks: 0, contacts: 0, lastImportAt: null },
  campaigns: { sentLive: 0, testOnly: 0, lastSentAt: null, sentRecently: 0 },
  newsletters: { sent: 0, testOnly: 0, lastSentAt: null },
  brand: { websiteSaved: false, lastAnalysisAt: null },
};

/** The instants the facts are counted against (the repository needs them). */
export function windowsAt(now: Date): { recentSince: Date; followUpBefore: Date } {
  return {
    recentSince: new Date(now.getTime() - RECENT_DAYS * DAY_MS),
    followUpBefore: new Date(now.getTime() - FOLLOW_UP_AFTER_MS),
  };
}
