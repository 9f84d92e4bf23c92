/**
 * VTIMEZONE components (RFC 5545 §3.6.5) for any IANA zone, made from the zone rules the
 * platform's Intl carries (ICU's tz database, updated with Node): no zone is hard-coded.
 *
 * The zone's offset changes are found over a window around the event (the UTC year before
 * it to the year after it). Each kind of change (from one offset to another) that falls on
 * the same rule every year of the window (month, n-th or last weekday, local time) becomes
 * one STANDARD or DAYLIGHT with a yearly RRULE, as calendar programs write them; any other
 * change is an observance of its own with its single onset. A zone without changes gets one
 * STANDARD. So the offsets a calendar computes at the event are the ones Intl gives.
 */

const DAY = 86_400_000;
const STEP = DAY;
const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const UTC_NAMES = /^(Etc\/)?(UTC|UCT|GMT|GMT0|Greenwich|Universal|Zulu)$/i;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();
const nameFormatters = new Map<string, Intl.DateTimeFormat>();
const stampFormatters = new Map<string, Intl.DateTimeFormat>();

function cached(
  map: Map<string, Intl.DateTimeFormat>,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
) {
  let f = map.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, ...options });
    map.set(timeZone, f);
  }
  return f;
}

/** The zone's UTC offset at instant `t` (epoch ms), in minutes east of UTC. */
export function offsetMinutes(t: number, timeZone: string): number {
  const name = cached(offsetFormatters, timeZone, { timeZoneName: 'longOffset' })
    .formatToParts(t)
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(name ?? '');
  if (!m) throw new Error(`no offset for ${timeZone}: ${name}`);
  if (!m[1]) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]) + Number(m[4] ?? 0) / 60;
  return m[1] === '-' ? -minutes : minutes;
}

/** Local wall time in `timeZone` as YYYYMMDDTHHMMSS. */
export function localStamp(d: Date, timeZone: string): string {
  const f = cached(stampFormatters, timeZone, {
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p = Object.fromEntries(f.formatToParts(d).map((x) => [x.type, x.value]));
  return `${p.year}${p.month}${p.day}T${p.hour}${p.minute}${p.second}`;
}

/**
 * Whether the wall clock of `timeZone` shows the time of `d` twice (the hour repeated when
 * clocks go back). RFC 5545 reads such a local time as its first occurrence, but not every
 * reader does (ical.js takes the second), so such a time is best written in UTC.
 */
export function repeatedWallTime(d: Date, timeZone: string): boolean {
  const t = d.getTime();
  try {
    const wall = t + offsetMinutes(t, timeZone) * 60_000;
    for (const other of new Set([offsetMinutes(t - DAY, timeZone), offsetMinutes(t + DAY, timeZone)])) {
      const u = wall - other * 60_000;
      if (u !== t && offsetMinutes(u, timeZone) === other) return true;
    }
    return false;
  } catch {
    return false; // not a zone Intl knows (vtimezone gives null for it)
  }
}

interface Change {
  /** The first instant (epoch ms) of the new offset. */
  at: number;
  from: number;
  to: number;
}

/** The offset changes in [from, to), each found to the second. */
function changes(timeZone: string, from: number, to: number): Change[] {
  const out: Change[] = [];
  let t = from;
  let offset = offsetMinutes(t, timeZone);
  while (t < to) {
    const next = Math.min(t + STEP, to);
    const nextOffset = offsetMinutes(next, timeZone);
    if (nextOffset !== offset) {
      let lo = t; // has `offset`
      let hi = next; // has a different one
      while (hi - lo > 1000) {
        const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
        if (offsetMinutes(mid, timeZone) === offset) lo = mid;
        else hi = mid;
      }
      out.push({ at: hi, from: offset, to: offsetMinutes(hi, timeZone) });
      offset = offsetMinutes(hi, timeZone);
      t = hi;
      continue;
    }
    t = next;
  }
  return out;
}

/** ±HHMM[SS] of an offset in minutes. */
function utcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const total = Math.round(Math.abs(minutes) * 60);
  const hh = String(Math.floor(total / 3600)).padStart(2, '0');
  const mm = String(Math.floor((total % 3600) / 60)).padStart(2, '0');
  const ss = total % 60;
  return `${sign}${hh}${mm}${ss ? String(ss).padStart(2, '0') : ''}`;
}

/** The wall clock at an onset, in the offset before it (RFC 5545: DTSTART is in TZOFFSETFROM). */
function onsetWall(change: Change): Date {
  return new Date(change.at + Math.round(change.from * 60_000));
}

const wallStamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, '');

/** BYMONTH/BYDAY of a yearly rule that every onset follows, or null. */
function yearlyRule(onsets: Change[], lastYear: number): string | null {
  if (onsets.length < 2) return null;
  const walls = onsets.map(onsetWall);
  const first = walls[0]!;
  // One onset in each year from the first to the window's last: the rule is what happened.
  if (walls.some((w, i) => w.getUTCFullYear() !== first.getUTCFullYear() + i)) return null;
  if (first.getUTCFullYear() + walls.length - 1 !== lastYear) return null;
  const time = (w: Date) => w.toISOString().slice(11, 19);
  const same = walls.every(
    (w) =>
      w.getUTCMonth() === first.getUTCMonth() &&
      w.getUTCDay() === first.getUTCDay() &&
      time(w) === time(first),
  );
  if (!same) return null;
  const nth = (w: Date) => Math.ceil(w.getUTCDate() / 7);
  const isLast = (w: Date) => {
    const daysInMonth = new Date(Date.UTC(w.getUTCFullYear(), w.getUTCMonth() + 1, 0)).getUTCDate();
    return w.getUTCDate() + 7 > daysInMonth;
  };
  let n: number | null = null;
  if (walls.every((w) => nth(w) === nth(first))) n = nth(first);
  else if (walls.every(isLast)) n = -1;
  if (n === null) return null;
  return `FREQ=YEARLY;BYMONTH=${first.getUTCMonth() + 1};BYDAY=${n}${WEEKDAYS[first.getUTCDay()]}`;
}

function shortName(t: number, timeZone: string): string | null {
  const name = cached(nameFormatters, timeZone, { timeZoneName: 'short' })
    .formatToParts(t)
    .find((p) => p.type === 'timeZoneName')?.value;
  // en-US has letters for some zones only ("EST"); "GMT+11" is no name, so none is written.
  return name && /^[A-Z][A-Za-z]{1,5}$/.test(name) ? name : null;
}

function observance(
  kind: 'STANDARD' | 'DAYLIGHT',
  change: Change,
  dtstart: string,
  timeZone: string,
  rrule: string | null,
) {
  const name = shortName(change.at, timeZone);
  return [
    `BEGIN:${kind}`,
    `TZOFFSETFROM:${utcOffset(change.from)}`,
    `TZOFFSETTO:${utcOffset(change.to)}`,
    ...(name ? [`TZNAME:${name}`] : []),
    `DTSTART:${dtstart}`,
    ...(rrule ? [`RRULE:${rrule}`] : []),
    `END:${kind}`,
  ];
}

const cache = new Map<string, string[] | null>();

/**
 * The VTIMEZONE lines of `timeZone` covering [start, end], or null when times are best
 * written in UTC: the zone is UTC itself, or unknown to the platform.
 */
export function vtimezone(timeZone: string, start: Date, end: Date): string[] | null {
  const firstYear = start.getUTCFullYear() - 1;
  const lastYear = end.getUTCFullYear() + 1;
  const key = `${timeZone}\n${firstYear}\n${lastYear}`;
  if (cache.has(key)) return cache.get(key) ?? null;
  let lines: string[] | null;
  try {
    lines = build(timeZone, firstYear, lastYear, start.getTime());
  } catch {
    lines = null; // not a zone Intl knows
  }
  if (cache.size > 256) cache.clear();
  cache.set(key, lines);
  return lines;
}

function build(timeZone: string, firstYear: number, lastYear: number, startMs: number): string[] | null {
  const from = Date.UTC(firstYear, 0, 1);
  const to = Date.UTC(lastYear + 1, 0, 1);
  const found = changes(timeZone, from, to);
  if (!found.length && UTC_NAMES.test(timeZone) && offsetMinutes(from, timeZone) === 0) return null;
  const body: string[] = [];
  if (!found.length || found[0]!.at > startMs) {
    // The offset before the first change (the only one, for a zone without changes).
    const offset = offsetMinutes(from, timeZone);
    const since = { at: from, from: offset, to: offset };
    const dtstart = found.length ? wallStamp(onsetWall(since)) : '19700101T000000';
    body.push(...observance('STANDARD', since, dtstart, timeZone, null));
  }
  const groups = new Map<string, Change[]>();
  for (const c of found) {
    const k = `${c.from}>${c.to}`;
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  for (const onsets of groups.values()) {
    const kind = onsets[0]!.to > onsets[0]!.from ? 'DAYLIGHT' : 'STANDARD';
    const rule = yearlyRule(onsets, lastYear);
    if (rule) body.push(...observance(kind, onsets[0]!, wallStamp(onsetWall(onsets[0]!)), timeZone, rule));
    else for (const c of onsets) body.push(...observance(kind, c, wallStamp(onsetWall(c)), timeZone, null));
  }
  return ['BEGIN:VTIMEZONE', `TZID:${timeZone}`, `X-LIC-LOCATION:${timeZone}`, ...body, 'END:VTIMEZONE'];
}
