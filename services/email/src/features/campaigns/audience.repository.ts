import type { OptionalMergeField, SendSegment } from '@parley/contracts';
import { inTransaction } from '@parley/kit';
import { type AliasableExpression, type Expression, sql } from 'kysely';
import type pg from 'pg';
import { db, execute, firstRow, type Row } from '../../shared/sql.ts';
import { anySegment } from '../audience/segment-sql.ts';

/**
 * A send's audience in SQL: who a launch (or a scheduled send's dispatch) writes as its
 * recipients, set-based, with their tracking rows; how many live recipients an audience has;
 * the pre-send check's figures. The union of the active contacts of the chosen books, the
 * chosen active contacts and (a newsletter's) every active contact or those of chosen
 * companies, one per address, minus the suppression list: all in liveRecipients.
 */

/** Who a send goes to, as the recipient SQL reads it. */
export interface Audience {
  addressBookIds: number[];
  contactIds: number[];
  /** A newsletter's audience: every active contact of every book ... */
  allContacts?: boolean;
  /** ... and/or those whose company, trimmed and lower-cased, is one of these (given lower-trimmed). */
  companies?: string[];
  /** ... and/or the active contacts any of these segments' rules match (docs/adr/0070-segments.md). */
  segments?: SendSegment[];
}

/** A recipient's tracking id: 22 URL-safe base64 characters of a random UUID. */
const TRACKING_ID = sql<string>`rtrim(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), '=')`;

/** btrim(company), and lower(btrim(company)): the key of the companies index (newsletters migration). */
export const trimmedCompany = (company: Expression<string | null>) => sql<string>`btrim(${company})`;
export const companyKey = (company: Expression<string | null>) => sql<string>`lower(btrim(${company}))`;

/** The active contacts, with the columns a recipient is written from. */
const activeContacts = () =>
  db
    .selectFrom('email_contacts as c')
    .select([
      'c.id',
      'c.email',
      'c.email_key',
      'c.first_name',
      'c.last_name',
      'c.company',
      'c.address_book_id',
      'c.custom_fields',
    ])
    .where('c.status', '=', sql.lit('active'));

/**
 * The live recipients, set-based: active contacts of the books ∪ chosen active contacts ∪ (a
 * newsletter's audience) every active contact ∪ the active contacts of the chosen companies
 * (lower(btrim(company)), an index of the newsletters migration) ∪ the active contacts the
 * segments' rules match, per address, less
 * suppressions. The branches a send does not use are constant-false (custom plans: never run).
 */
function liveRecipients(a: Audience) {
  const companies = a.companies ?? [];
  const union = activeContacts()
    .where((eb) => eb('c.address_book_id', '=', eb.fn.any(eb.val(a.addressBookIds))))
    .unionAll(activeContacts().where((eb) => eb('c.id', '=', eb.fn.any(eb.val(a.contactIds.map(String))))))
    .unionAll(activeContacts().where(sql<boolean>`${a.allContacts === true}::boolean`))
    .unionAll(
      activeContacts()
        .where(sql<boolean>`cardinality(${companies}::text[]) > 0`)
        .where((eb) => eb(companyKey(eb.ref('c.company')), '=', eb.fn.any(eb.val(companies))))
        .where((eb) => eb(trimmedCompany(eb.ref('c.company')), '<>', sql.lit(''))),
    )
    .unionAll(
      activeContacts().where((eb) =>
        a.segments?.length
          ? eb(
              'c.id',
              'in',
              eb
                .selectFrom('email_contact_facts as f')
                .select('f.contact_id')
                .where(anySegment(a.segments.map((x) => x.rule))),
            )
          : sql<boolean>`false`,
      ),
    );
  return db
    .selectFrom(union.as('u'))
    .distinctOn('u.email_key')
    .select([
      'u.id',
      'u.email',
      'u.email_key',
      'u.first_name',
      'u.last_name',
      'u.company',
      'u.address_book_id',
      'u.custom_fields',
    ])
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('email_suppressions as s')
            .select('s.address')
            .whereRef('s.address', '=', 'u.email_key'),
        ),
      ),
    )
    .orderBy('u.email_key')
    .orderBy('u.id');
}

/** How many live recipients an audience has now (deduplicated, less suppressions). */
export async function countLive(client: pg.PoolClient | pg.Pool, audience: Audience): Promise<number> {
  const r = await firstRow(
    client,
    db
      .selectFrom(liveRecipients(audience).as('l'))
      .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n')),
  );
  return r?.n ?? 0;
}

/** The merge rule's white space: space, tab, CR, LF and no-break space. */
const WHITE_SPACE = ' \t\r\n\u00a0';

/**
 * The pre-send check's figures for an audience now: how many live recipients it has and how
 * many of them lack each optional merge field, in ONE aggregate over the send's own recipient
 * query (the same rows a launch would write: one per address, less suppressions). "Lacks" is
 * the merge rule's: null or only white space.
 */
export async function missingFieldCounts(
  pool: pg.Pool,
  audience: Audience,
): Promise<{ recipients: number; missing: Record<OptionalMergeField, number> }> {
  const r = await inTransaction(pool, async (client) => {
    // The sort of one row per address stays in memory, as for a launch.
    await client.query(`SET LOCAL work_mem = '64MB'`);
    return firstRow(
      client,
      db.selectFrom(liveRecipients(audience).as('l')).select((eb) => {
        // btrim, not a regular expression: half the time at 100,000 contacts.
        const blank = (col: 'l.first_name' | 'l.last_name' | 'l.company') =>
          eb.cast<number>(
            eb.fn
              .countAll()
              .filterWhere(sql<string>`btrim(coalesce(${eb.ref(col)}, ''), ${WHITE_SPACE})`, '=', ''),
            'integer',
          );
        return [
          eb.cast<number>(eb.fn.countAll(), 'integer').as('n'),
          blank('l.first_name').as('first_name'),
          blank('l.last_name').as('last_name'),
          blank('l.company').as('company'),
        ];
      }),
    );
  });
  return {
    recipients: r?.n ?? 0,
    missing: { firstName: r?.first_name ?? 0, lastName: r?.last_name ?? 0, company: r?.company ?? 0 },
  };
}

/**
 * Writes a send's recipients (its live audience, or in test mode the test addresses when the
 * audience has anyone) and answers how many, with how many the live audience has.
 */
export async function resolveRecipients(
  client: pg.PoolClient,
  sendId: number,
  campaignId: number,
  req: Audience,
  testMode: boolean,
  testAddresses: string[],
): Promise<{ total: number; original: number }> {
  if (testMode) {
    // The test addresses stand in for a live audience (none when the audience is empty).
    const original = await countLive(client, req);
    const total = await writeRecipients(
      client,
      testRecipients(original > 0 ? testAddresses : []),
      sendId,
      campaignId,
      true,
    );
    return { total, original };
  }
  const total = await writeRecipients(client, liveRecipients(req), sendId, campaignId, false);
  return { total, original: total };
}

/** Test mode's recipients: each test address once, tied to no contact. */
function testRecipients(addresses: string[]) {
  return db
    .selectFrom(sql<{ a: string }>`unnest(${addresses}::text[])`.as('a'))
    .distinctOn((eb) => sql`lower(${eb.ref('a.a')})`)
    .select((eb) => [
      sql<string | null>`NULL::bigint`.as('id'),
      'a.a as email',
      sql<string>`lower(${eb.ref('a.a')})`.as('email_key'),
      sql<string | null>`NULL::text`.as('first_name'),
      sql<string | null>`NULL::text`.as('last_name'),
      sql<string | null>`NULL::text`.as('company'),
      sql<number | null>`NULL::integer`.as('address_book_id'),
      sql<unknown>`'{}'::jsonb`.as('custom_fields'),
    ]);
}

/** The rows a send's recipients are written from: a live recipient's, or a test address's (no contact). */
type LiveRow = Row<ReturnType<typeof liveRecipients>>;
type RecipientSource = Omit<LiveRow, 'id' | 'address_book_id'> & {
  id: LiveRow['id'] | null;
  address_book_id: LiveRow['address_book_id'] | null;
};

/**
 * Writes a send's recipients from `source` (one row per address) and their tracking rows in
 * one statement: the source, with each recipient's tracking id, is read once (materialized)
 * and feeds both inserts; a tracking row keeps its contact's book (analytics' segments). The
 * sorts of 100,000 rows stay in memory. Returns how many recipients were written.
 */
async function writeRecipients(
  client: pg.PoolClient,
  source: AliasableExpression<RecipientSource>,
  sendId: number,
  campaignId: number,
  testMode: boolean,
): Promise<number> {
  await client.query(`SET LOCAL work_mem = '64MB'`);
  // test_mode on the tracking rows: the reports count live mail only unless asked (an indexed
  // column beside campaign_id, so the live filter costs them nothing).
  return execute(
    client,
    db
      .with(
        (cte) => cte('l').materialized(),
        (qc) => qc.selectFrom(source.as('s')).selectAll('s').select(TRACKING_ID.as('tracking_id')),
      )
      .with('r', (qc) =>
        qc
          .insertInto('email_campaign_recipients')
          .columns([
            'send_id',
            'contact_id',
            'email',
            'email_key',
            'first_name',
            'last_name',
            'company',
            'attributes',
            'tracking_id',
          ])
          .expression(
            qc
              .selectFrom('l')
              .select((eb) => [
                eb.val(sendId).as('send_id'),
                'l.id',
                'l.email',
                'l.email_key',
                'l.first_name',
                'l.last_name',
                'l.company',
                sql<unknown>`nullif(${eb.ref('l.custom_fields')}, '{}'::jsonb)`.as('attributes'),
                'l.tracking_id',
              ])
              .orderBy('l.id'),
          ),
      )
      .insertInto('email_tracking')
      .columns(['tracking_id', 'campaign_id', 'contact_id', 'email', 'test_mode', 'address_book_id'])
      .expression((eb) =>
        eb
          .selectFrom('l')
          .select((s) => [
            'l.tracking_id',
            s.val(String(campaignId)).as('campaign_id'),
            s.cast<string>('l.id', 'text').as('contact_id'),
            'l.email_key',
            s.val(testMode).as('test_mode'),
            'l.address_book_id',
          ]),
      ),
  );
}
