import type { SettingChangedEvent } from '@parley/contracts';
import { openSecret } from '@parley/kit';
import { sql } from 'kysely';
import type pg from 'pg';
import { db, execute, rows } from '../../shared/sql.ts';

/**
 * The email service's copy of the settings (SMTP, brand, support address, test mode),
 * built from `settings.setting.changed`: per key the event with the highest version wins,
 * so redeliveries and out-of-order deliveries leave the right value, and a new database
 * rebuilds the copy from the stream. Secrets stay sealed in the table and are opened only
 * when used. The settings service also hands a save to one replica over request/reply before
 * the save answers (src/features/delivery/index.ts): the same payloads, applied the same way.
 */

export interface SettingsView {
  get(key: string): string | undefined;
  /** Settings with a value (secrets opened), for fingerprints. */
  readonly values: ReadonlyMap<string, string>;
}

const CACHE_MS = 2000;

export class SettingsCopy {
  private cached: { at: number; view: SettingsView } | null = null;
  /** Grows with every invalidation: a read that began before one must not refill the cache. */
  private generation = 0;

  constructor(
    private readonly pool: pg.Pool,
    private readonly encryptionKey: Buffer,
    private readonly onWarn: (msg: string, key: string) => void,
  ) {}

  /** Applies one event; true when it changed the copy (a newer version). */
  async apply(e: SettingChangedEvent): Promise<boolean> {
    const changed = await execute(
      this.pool,
      db
        .insertInto('mail_settings')
        .values({
          key: e.key,
          category: e.category,
          value: e.deleted || e.secret ? null : e.value,
          sealed_value: e.secret && !e.deleted ? (e.sealedValue ?? null) : null,
          secret: e.secret,
          deleted: e.deleted,
          version: e.version,
          updated_at: e.updatedAt,
        })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet((eb) => ({
              category: eb.ref('excluded.category'),
              value: eb.ref('excluded.value'),
              sealed_value: eb.ref('excluded.sealed_value'),
              secret: eb.ref('excluded.secret'),
              deleted: eb.ref('excluded.deleted'),
              version: eb.ref('excluded.version'),
              updated_at: eb.ref('excluded.updated_at'),
              received_at: sql`now()`,
            }))
            .whereRef('mail_settings.version', '<', 'excluded.version'),
        ),
    );
    if (changed) this.invalidate();
    return changed > 0;
  }

  /**
   * The current settings for the hot paths (every message composed or delivered); read again
   * at most every 2 s, so a change another replica applied may show up to 2 s late here.
   */
  async view(): Promise<SettingsView> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.view;
    return this.load();
  }

  /**
   * The settings as the database has them now, for the decisions that must follow a save at
   * once (who a launch goes to under test mode, the transport of a test email or diagnostics):
   * whichever replica applied the save, it is in the shared table. Refreshes the cache.
   */
  async fresh(): Promise<SettingsView> {
    return this.load();
  }

  private async load(): Promise<SettingsView> {
    const generation = this.generation;
    const settings = await rows(
      this.pool,
      db
        .selectFrom('mail_settings')
        .select(['key', 'value', 'sealed_value', 'secret'])
        .where('deleted', '=', false),
    );
    const values = new Map<string, string>();
    for (const r of settings) {
      if (r.secret) {
        if (!r.sealed_value) continue;
        try {
          values.set(r.key, openSecret(this.encryptionKey, r.sealed_value, r.key));
        } catch {
          // Sealed with another key (SETTINGS_ENCRYPTION_KEY differs between services).
          this.onWarn('a sealed setting could not be opened; check SETTINGS_ENCRYPTION_KEY', r.key);
        }
      } else if (r.value !== null) {
        values.set(r.key, r.value);
      }
    }
    const view: SettingsView = { values, get: (k) => values.get(k)?.trim() || undefined };
    if (generation === this.generation) this.cached = { at: Date.now(), view };
    return view;
  }

  invalidate(): void {
    this.generation++;
    this.cached = null;
  }
}

/** Test mode as the settings say: on, and the saved test addresses (at most 5). */
export function testModeOf(view: SettingsView): { enabled: boolean; addresses: string[] } {
  let addresses: string[] = [];
  try {
    const parsed = JSON.parse(view.get('test_email_addresses') ?? '[]');
    if (Array.isArray(parsed))
      addresses = parsed.filter((a): a is string => typeof a === 'string' && a.includes('@')).slice(0, 5);
  } catch {
    // Unreadable JSON: no test addresses.
  }
  return { enabled: view.get('test_environment_enabled') === 'true', addresses };
}
