import type { Booking, BookingStatus, ContactBody, ContactRequest } from '@parley/contracts';
import { enqueueEvent, isUniqueViolation } from '@parley/kit';
import type pg from 'pg';
import type { BookingDb } from '../db.ts';
import type { NewBooking } from '../domain/booking-rules.ts';
import type { Booking as BookingRow, ContactRequest as ContactRow } from '../generated/prisma/client.ts';
import { CompanySize as CompanySizeEnum } from '../generated/prisma/enums.ts';

export class SlotTakenError extends Error {
  override name = 'SlotTakenError';
}

export function toBooking(row: BookingRow): Booking {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    company: row.company,
    timeSlot: row.timeSlot.toISOString(),
    timeZone: row.timeZone,
    status: row.status,
    notes: row.notes,
    guests: (row.guests ?? []) as Booking['guests'],
    createdAt: row.createdAt.toISOString(),
  };
}

const COMPANY_SIZE_TO_DB = {
  '1-50': CompanySizeEnum.size_1_50,
  '51-200': CompanySizeEnum.size_51_200,
  '201-1000': CompanySizeEnum.size_201_1000,
  '1000+': CompanySizeEnum.size_1000_plus,
} as const;
const COMPANY_SIZE_FROM_DB = Object.fromEntries(Object.entries(COMPANY_SIZE_TO_DB).map(([k, v]) => [v, k]));

export function toContactRequest(row: ContactRow): ContactRequest {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    email: row.email,
    company: row.company,
    companySize: row.companySize ? (COMPANY_SIZE_FROM_DB[row.companySize] ?? null) : null,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
  };
}

/** All database access of the booking service. */
export class BookingRepository {
  constructor(
    private readonly db: BookingDb,
    private readonly pool: pg.Pool,
  ) {}

  /**
   * Start instants (epoch ms) of slots held by a non-cancelled booking in [from, to).
   * The hottest public read: a named prepared statement on the pool, skipping the ORM.
   */
  async takenSlots(from: Date, to: Date): Promise<Set<number>> {
    const { rows } = await this.pool.query<{ t: Date }>({
      name: 'booking_taken_slots',
      text: `SELECT "time_slot" AS t FROM "bookings" WHERE "time_slot" >= $1 AND "time_slot" < $2 AND "status" <> 'cancelled'`,
      values: [from, to],
    });
    return new Set(rows.map((r) => r.t.getTime()));
  }

  /**
   * Creates the booking and its `booking.created` event in one transaction. The partial
   * unique index on active slots makes a concurrent second booking fail here.
   */
  async create(input: NewBooking): Promise<Booking> {
    try {
      return await this.db.$transaction(async (tx) => {
        const row = await tx.booking.create({ data: { ...input, guests: input.guests } });
        const booking = toBooking(row);
        await enqueueEvent(tx, 'booking.booking.created', booking);
        return booking;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new SlotTakenError();
      throw err;
    }
  }

  async list(): Promise<Booking[]> {
    const rows = await this.db.booking.findMany({ orderBy: [{ timeSlot: 'asc' }, { createdAt: 'asc' }] });
    return rows.map(toBooking);
  }

  /**
   * Returns null when the booking does not exist. The row is locked before it is read, so
   * concurrent changes apply one after the other and each event names the status it really
   * replaced.
   */
  async updateStatus(id: string, status: BookingStatus): Promise<Booking | null> {
    try {
      return await this.db.$transaction(async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM "bookings" WHERE "id" = ${id}::uuid FOR UPDATE`;
        const current = await tx.booking.findUnique({ where: { id } });
        if (!current) return null;
        if (current.status === status) return toBooking(current);
        const row = await tx.booking.update({ where: { id }, data: { status } });
        const booking = toBooking(row);
        await enqueueEvent(tx, 'booking.booking.status_changed', { booking, previousStatus: current.status });
        return booking;
      });
    } catch (err) {
      // Re-activating a cancelled booking whose slot was taken meanwhile.
      if (isUniqueViolation(err)) throw new SlotTakenError();
      throw err;
    }
  }

  async createContactRequest(body: ContactBody): Promise<ContactRequest> {
    return this.db.$transaction(async (tx) => {
      const size = body.companySize ? COMPANY_SIZE_TO_DB[body.companySize] : null;
      const row = await tx.contactRequest.create({
        data: {
          firstName: body.firstName.trim(),
          lastName: body.lastName.trim(),
          email: body.email.trim(),
          company: body.company.trim(),
          companySize: size,
          message: body.message?.trim() || null,
        },
      });
      const request = toContactRequest(row);
      await enqueueEvent(tx, 'booking.contact.submitted', request);
      return request;
    });
  }

  async listContactRequests(
    limit: number,
    offset: number,
  ): Promise<{ items: ContactRequest[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.db.contactRequest.findMany({ orderBy: { createdAt: 'desc' }, take: limit, skip: offset }),
      this.db.contactRequest.count(),
    ]);
    return { items: rows.map(toContactRequest), total };
  }
}
