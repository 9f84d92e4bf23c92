import { db } from './sql.ts';

/**
 * Campaigns (alias `c`) with the name and kind people know them by: a newsletter's companion
 * campaign shows the newsletter's name and is a newsletter (the delivery log and Sent mail).
 */
export function selectMailings() {
  return db
    .selectFrom('email_campaigns as c')
    .leftJoin('newsletters as n', 'n.id', 'c.newsletter_id')
    .select((eb) => [
      eb.fn.coalesce('n.name', 'c.name').as('name'),
      eb('c.newsletter_id', 'is not', null).as('newsletter'),
    ]);
}
