import { DEFAULT_SCHEDULE, type ScheduleConfig } from '@parley/contracts';
import { ServiceEnv } from '@parley/kit/config';
import { type Static, Type } from 'typebox';

const HHMM = '^([01]\\d|2[0-3]):[0-5]\\d$';

export const BookingEnv = Type.Object({
  ...ServiceEnv,
  /** Sales team zone; slots are generated in it (default America/New_York). */
  BOOKING_TIME_ZONE: Type.Optional(Type.String({ minLength: 1 })),
  /** Working days, comma separated, 0 = Sunday (default 1,2,3,4,5). */
  BOOKING_WEEKDAYS: Type.Optional(Type.String({ pattern: '^[0-6](,[0-6])*$' })),
  BOOKING_FIRST_SLOT: Type.Optional(Type.String({ pattern: HHMM })),
  BOOKING_LAST_SLOT: Type.Optional(Type.String({ pattern: HHMM })),
  BOOKING_SLOT_MINUTES: Type.Optional(Type.Integer({ minimum: 5, maximum: 240 })),
  BOOKING_WINDOW_DAYS: Type.Optional(Type.Integer({ minimum: 1, maximum: 90 })),
  /** Public writes (bookings, contact requests) allowed per client IP per minute. */
  PUBLIC_WRITE_RATE_LIMIT: Type.Optional(Type.Integer({ minimum: 1 })),
});
export type BookingConfig = Static<typeof BookingEnv>;

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export function scheduleFrom(config: BookingConfig): ScheduleConfig {
  const timeZone = config.BOOKING_TIME_ZONE ?? DEFAULT_SCHEDULE.timeZone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw new Error(`BOOKING_TIME_ZONE: unknown time zone ${JSON.stringify(timeZone)}`);
  }
  return {
    ...DEFAULT_SCHEDULE,
    timeZone,
    weekdays: config.BOOKING_WEEKDAYS
      ? config.BOOKING_WEEKDAYS.split(',').map(Number)
      : DEFAULT_SCHEDULE.weekdays,
    firstSlotMinute: config.BOOKING_FIRST_SLOT
      ? minutes(config.BOOKING_FIRST_SLOT)
      : DEFAULT_SCHEDULE.firstSlotMinute,
    lastSlotMinute: config.BOOKING_LAST_SLOT
      ? minutes(config.BOOKING_LAST_SLOT)
      : DEFAULT_SCHEDULE.lastSlotMinute,
    slotMinutes: config.BOOKING_SLOT_MINUTES ?? DEFAULT_SCHEDULE.slotMinutes,
    windowDays: config.BOOKING_WINDOW_DAYS ?? DEFAULT_SCHEDULE.windowDays,
  };
}
