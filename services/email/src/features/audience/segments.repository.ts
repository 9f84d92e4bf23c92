import {
  SEGMENT_MESSAGES,
  type Segment,
  type SegmentCount,
  type SegmentRule,
  type SendSegment,
} from '@parley/contracts';
import { badRequest } from '@parley/kit';
import { sql } from 'kysely';
import type pg from 'pg';
import { db, execute, firstRow, type Queryable, rows } from '../../shared/sql.ts';
import { segmentCondition } from './segment-sql.ts';

type SegmentRow = { id: number; name: string; rule: unknown; created_at: Date; updated_at: Date };

const toSegment = (r: SegmentRow): Segment => ({
  id: r.id,
  name: r.name,
  rule: r.rule as SegmentRule,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

const COLUMNS = ['id', 'name', 'rule', 'created_at', 'updated_at'] as const;

/** Saved segments and their live counts (docs/adr/0070-segments.md). */
export class SegmentsRepository {
  constructor(private readonly pool: pg.Pool) {}

  async list(): Promise<Segment[]> {
    const found = await rows(
      this.pool,
      db.selectFrom('email_segments').select(COLUMNS).orderBy(sql`lower(name)`).orderBy('id'),
    );
    return found.map(toSegment);
  }

  async get(id: number, on: Queryable = this.pool): Promise<Segment | null> {
    const r = await firstRow(on, db.selectFrom('email_segments').select(COLUMNS).where('id', '=', id));
    return r ? toSegment(r) : null;
  }

  /** The segments of these ids that exist, in the order asked. */
  async many(ids: number[], on: Queryable = this.pool): Promise<Segment[]> {
    if (!ids.length) return [];
    const found = await rows(on, db.selectFrom('email_segments').select(COLUMNS).where('id', 'in', ids));
    const byId = new Map(found.map((r) => [r.id, toSegment(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /**
   * The segments a send names, as it keeps them ({id, name, rule} now); 400 when one of them no
   * longer exists (the admin's choice is out of date: nothing is sent).
   */
  async forSend(ids: number[]): Promise<SendSegment[]> {
    const found = await this.many([...new Set(ids)]);
    if (found.length !== new Set(ids).size) throw badRequest(SEGMENT_MESSAGES.gone);
    return found.map(({ id, name, rule }) => ({ id, name, rule }));
  }

  /** Throws PostgreSQL's 23505 when the name is taken (regardless of case). */
  async create(name: string, rule: SegmentRule): Promise<Segment> {
    const r = await firstRow(
      this.pool,
      db
        .insertInto('email_segments')
        .values({ name, rule: JSON.stringify(rule), updated_at: new Date() })
        .returning(COLUMNS),
    );
    return toSegment(r as SegmentRow);
  }

  async update(id: number, name: string, rule: SegmentRule): Promise<Segment | null> {
    const r = await firstRow(
      this.pool,
      db
        .updateTable('email_segments')
        .set({ name, rule: JSON.stringify(rule), updated_at: new Date() })
        .where('id', '=', id)
        .returning(COLUMNS),
    );
    return r ? toSegment(r) : null;
  }

  async delete(id: number): Promise<boolean> {
    return (await execute(this.pool, db.deleteFrom('email_segments').where('id', '=', id))) > 0;
  }

  /**
   * Who the rule matches now: matching contacts of any status, and the recipients a send to it
   * would have (active, one per address, less the suppression list), as a send resolves them
   * (campaigns/audience.repository.ts). One parallel scan of the contacts' facts, grouped by
   * shared address: the contacts whose address no other book holds fall in one group (each
   * live one is a recipient), each address held in two books or more (email_shared_addresses,
   * few) in a group of its own (a recipient when one of its contacts is live). The two lists
   * are hash-joined, not probed per row.
   */
  async count(rule: SegmentRule): Promise<SegmentCount> {
    const live = sql<boolean>`f.status = 'active' AND s.address IS NULL`;
    const r = await firstRow(
      this.pool,
      db
        .selectFrom((qc) =>
          qc
            .selectFrom('email_contact_facts as f')
            .leftJoin('email_shared_addresses as sh', 'sh.address', 'f.email_key')
            .leftJoin('email_suppressions as s', 's.address', 'f.email_key')
            .where(segmentCondition(rule))
            .groupBy('sh.address')
            .select([
              'sh.address as shared',
              sql<number>`count(*)`.as('n'),
              sql<number>`count(*) FILTER (WHERE ${live})`.as('live'),
            ])
            .as('g'),
        )
        .select([
          sql<number>`coalesce(sum(g.n), 0)::integer`.as('contacts'),
          sql<number>`(coalesce(sum(g.live) FILTER (WHERE g.shared IS NULL), 0)
            + count(*) FILTER (WHERE g.shared IS NOT NULL AND g.live > 0))::integer`.as('recipients'),
        ]),
    );
    return { contacts: r?.contacts ?? 0, recipients: r?.recipients ?? 0 };
  }
}
