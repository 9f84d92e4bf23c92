import { type Static, Type } from 'typebox';

const IsoDateTime = Type.String({ format: 'date-time' });

/** Longest setting key and category (spec: Settings entry). */
export const SETTING_KEY_MAX = 100;
export const SETTING_CATEGORY_MAX = 50;

/**
 * `settings.setting.changed`: one setting's new state. The stream of these events is the
 * settings store's changelog: a consumer rebuilds the current settings from it on first start
 * (its durable starts at the beginning of the stream) by keeping, per key, the event with the
 * highest `version`. Secrets never travel in clear: `value` is null and `sealedValue` holds the
 * value sealed with SETTINGS_ENCRYPTION_KEY (kit/src/secrets.ts, associated data = the key),
 * which only services that need the credential hold.
 */
export const SettingChangedEvent = Type.Object({
  key: Type.String({ minLength: 1, maxLength: SETTING_KEY_MAX }),
  category: Type.String({ maxLength: SETTING_CATEGORY_MAX }),
  description: Type.Union([Type.String(), Type.Null()]),
  /** The value in clear; null for a secret (see sealedValue) or a deleted setting. */
  value: Type.Union([Type.String(), Type.Null()]),
  secret: Type.Boolean(),
  /** A secret's value, sealed (v1.<iv>.<tag>.<data>); absent for ordinary settings. */
  sealedValue: Type.Optional(Type.String()),
  /** The setting was removed. */
  deleted: Type.Boolean(),
  /** Grows with every change of this key: keep the highest. */
  version: Type.Integer({ minimum: 1 }),
  updatedAt: IsoDateTime,
});
export type SettingChangedEvent = Static<typeof SettingChangedEvent>;
