import {
  type BrandAnalysis,
  isSecretSettingKey,
  type SettingChangedEvent,
  type SettingEntry,
} from '@parley/contracts';
import { enqueueEvent, openSecret, sealSecret } from '@parley/kit';
import type pg from 'pg';
import type { SettingsDb } from '../db.ts';

/** A settings row as SQL returns it (value sealed for secrets). */
interface SettingRow {
  key: string;
  value: string;
  description: string | null;
  category: string;
  secret: boolean;
  version: number;
  updated_at: Date;
}

export interface SaveInput {
  key: string;
  value: string;
  /** undefined = keep the stored description (null for a new setting). */
  description?: string | null | undefined;
  /** The stored category, or this one for a new setting when the caller names none. */
  category?: string | undefined;
  defaultCategory: string;
}

export interface SaveResult {
  changed: boolean;
  setting: SettingEntry;
  /**
   * The setting as its settings.setting.changed event carries it: the event just enqueued, or
   * when nothing changed the stored state (the same as its last event), for the copies.
   */
  event: SettingChangedEvent;
}

const COLUMNS = `"key", "value", "description", "category", "secret", "version", "updated_at"`;

/** The API's view of a row: a secret shows that it is set, never its value. */
export function toEntry(row: SettingRow): SettingEntry {
  return {
    key: row.key,
    value: row.secret ? null : row.value,
    description: row.description,
    category: row.category,
    secret: row.secret,
    isSet: row.secret ? true : row.value.length > 0,
    version: row.version,
    updatedAt: row.updated_at.toISOString(),
  };
}

/** All database access of the settings service. */
export class SettingsRepository {
  constructor(
    private readonly db: SettingsDb,
    private readonly pool: pg.Pool,
    /** SETTINGS_ENCRYPTION_KEY, parsed. */
    private readonly sealKey: Buffer,
  ) {}

  /** Every setting; the screen's most frequent read: a named prepared statement on the pool. */
  async list(): Promise<SettingEntry[]> {
    const { rows } = await this.pool.query<SettingRow>({
      name: 'settings_list',
      text: `SELECT ${COLUMNS} FROM "settings" ORDER BY "category", "key"`,
    });
    return rows.map(toEntry);
  }

  /** Clear values of ordinary (non-secret) settings among `keys`; absent keys are missing. */
  async plainValues(keys: readonly string[]): Promise<Map<string, string>> {
    const rows = await this.db.setting.findMany({
      where: { key: { in: [...keys] }, secret: false },
      select: { key: true, value: true },
    });
    return new Map(rows.map((r) => [r.key, r.value]));
  }

  /**
   * Saves one setting and, when anything changed, its settings.setting.changed event in the
   * same transaction (version + 1). The row is locked for the comparison, so concurrent saves
   * of one key get distinct, increasing versions.
   */
  async save(input: SaveInput): Promise<SaveResult> {
    const { key, value } = input;
    const secret = isSecretSettingKey(key);
    return this.db.$transaction(async (tx) => {
      const lock = () =>
        tx.$queryRawUnsafe<SettingRow[]>(
          `SELECT ${COLUMNS} FROM "settings" WHERE "key" = $1 FOR UPDATE`,
          key,
        );
      let current = (await lock())[0];
      const stored = secret ? sealSecret(this.sealKey, value, key) : value;
      if (!current) {
        const inserted = await tx.$queryRawUnsafe<SettingRow[]>(
          `INSERT INTO "settings" ("id", "key", "value", "description", "category", "secret", "version", "updated_at")
           VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, 1, now())
           ON CONFLICT ("key") DO NOTHING RETURNING ${COLUMNS}`,
          key,
          stored,
          input.description ?? null,
          input.category ?? input.defaultCategory,
          secret,
        );
        const row = inserted[0];
        if (row) {
          const event = this.eventOf(row);
          await enqueueEvent(tx, 'settings.setting.changed', event);
          return { changed: true, setting: toEntry(row), event };
        }
        // Another save created the key meanwhile: it is committed now; update it like any other.
        current = (await lock())[0];
        if (!current) throw new Error(`setting ${key} vanished during its save`);
      }
      const description = input.description === undefined ? current.description : input.description;
      const category = input.category ?? current.category;
      const same =
        current.secret === secret &&
        this.plainOf(current) === value &&
        description === current.description &&
        category === current.category;
      if (same) return { changed: false, setting: toEntry(current), event: this.eventOf(current) };
      const updated = await tx.$queryRawUnsafe<SettingRow[]>(
        `UPDATE "settings" SET "value" = $2, "description" = $3, "category" = $4, "secret" = $5,
                "version" = "version" + 1, "updated_at" = now()
          WHERE "key" = $1 RETURNING ${COLUMNS}`,
        key,
        stored,
        description,
        category,
        secret,
      );
      const row = updated[0] as SettingRow;
      const event = this.eventOf(row);
      await enqueueEvent(tx, 'settings.setting.changed', event);
      return { changed: true, setting: toEntry(row), event };
    });
  }

  /** The clear value of a stored row (null when a secret cannot be opened with this key). */
  private plainOf(row: SettingRow): string | null {
    if (!row.secret) return row.value;
    try {
      return openSecret(this.sealKey, row.value, row.key);
    } catch {
      return null;
    }
  }

  /** The event of a row: a secret travels sealed (the row's own sealed value), never in clear. */
  private eventOf(row: SettingRow): SettingChangedEvent {
    return {
      key: row.key,
      category: row.category,
      description: row.description,
      value: row.secret ? null : row.value,
      secret: row.secret,
      ...(row.secret ? { sealedValue: row.value } : {}),
      deleted: false,
      version: row.version,
      updatedAt: row.updated_at.toISOString(),
    };
  }

  async saveAnalysis(analysis: BrandAnalysis): Promise<void> {
    await this.db.brandAnalysis.create({
      data: {
        url: analysis.url,
        provider: analysis.provider,
        analysis,
        createdAt: new Date(analysis.analyzedAt),
      },
    });
  }

  async latestAnalysis(): Promise<BrandAnalysis | null> {
    const row = await this.db.brandAnalysis.findFirst({ orderBy: { createdAt: 'desc' } });
    return row ? (row.analysis as unknown as BrandAnalysis) : null;
  }
}
