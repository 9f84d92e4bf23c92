import { type Static, Type } from 'typebox';

/**
 * Events of the email service's campaign and newsletter sends (published by the email
 * service; the settings service's feature discovery counts them). One event per send: a
 * campaign or newsletter sent again (a resend) publishes another event with the same id.
 *
 * Ids travel as text so the email service may number campaigns and newsletters as it likes
 * (an integer id is sent in decimal); the aggregate key is the campaign's or newsletter's id.
 */

const IsoDateTime = Type.String({ format: 'date-time' });
const Count = Type.Integer({ minimum: 0 });
const Id = Type.String({ minLength: 1, maxLength: 100 });

/** `email.campaign.sent`: a campaign went out (live, or to the test addresses in test mode). */
export const CampaignSentEvent = Type.Object({
  campaignId: Id,
  name: Type.String(),
  /** Recipients chosen for this send (after suppressions). */
  recipients: Count,
  /** Messages accepted by the transport. */
  sent: Count,
  /** Messages the transport refused. */
  failed: Count,
  /** True when test mode sent it to the saved test addresses only. */
  test: Type.Boolean(),
  sentAt: IsoDateTime,
});
export type CampaignSentEvent = Static<typeof CampaignSentEvent>;

/** `email.newsletter.sent`: a newsletter (a blog post turned into a mail) went out. */
export const NewsletterSentEvent = Type.Object({
  newsletterId: Id,
  name: Type.String(),
  /** The blog post it was made from (the blog service's post id). */
  blogPostId: Type.String({ minLength: 1 }),
  recipients: Count,
  sent: Count,
  failed: Count,
  sentAt: IsoDateTime,
});
export type NewsletterSentEvent = Static<typeof NewsletterSentEvent>;
