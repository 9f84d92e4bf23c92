import {
  SETTINGS_COPY_HOLDERS,
  type ServiceName,
  type SettingChangedEvent,
  SettingsApplyReply,
  type SettingsApplyRequest,
  SettingsCheckReply,
  type SettingsCheckRequest,
  settingsApplySubject,
  settingsCheckSubject,
} from '@parley/contracts';
import type { ServiceDeps } from '@parley/kit';
import { Value } from 'typebox/value';
import type { PlatformProbe } from '../diagnostics/probe.ts';

/**
 * Read-your-writes for the services that keep a copy of the settings (SETTINGS_COPY_HOLDERS:
 * the email service decides test mode and its transport from its copy). Right after a save
 * commits, each is handed the saved settings over request/reply (the payloads of their
 * settings.setting.changed events) and applies them before the save answers. One that does
 * not confirm in time (not running, no responder, too slow) is answered as pending: the save
 * stands, and its event brings the change later; the copy keeps the highest version per key,
 * so the request and the event leave the same copy in either order.
 */
export class CopySync {
  constructor(
    /** A probe whose deadline is SETTINGS_APPLY_TIMEOUT_MS. */
    private readonly probe: PlatformProbe,
    private readonly logger: ServiceDeps['logger'],
  ) {}

  /**
   * Asks `service` whether it can act on `changes` before they are saved: its problems, or
   * null when it did not answer (not running, too slow).
   */
  async check(
    service: ServiceName,
    changes: SettingsCheckRequest['changes'],
  ): Promise<SettingsCheckReply['problems'] | null> {
    const answer = await this.probe.ask<unknown>(service, settingsCheckSubject(service), { changes });
    if (answer.ok && Value.Check(SettingsCheckReply, answer.value)) return answer.value.problems;
    this.logger.warn(
      {
        service,
        keys: changes.map((c) => c.key),
        reason: answer.ok ? 'not a SettingsCheckReply' : answer.message,
      },
      'a service could not check a setting before its save',
    );
    return null;
  }

  /** Hands `changes` to every copy; answers the services that have not confirmed them. */
  async push(changes: SettingChangedEvent[]): Promise<ServiceName[]> {
    const request: SettingsApplyRequest = { changes };
    const pending = await Promise.all(
      SETTINGS_COPY_HOLDERS.map(async (service: ServiceName) => {
        const answer = await this.probe.ask<unknown>(service, settingsApplySubject(service), request);
        if (answer.ok && Value.Check(SettingsApplyReply, answer.value)) return null;
        this.logger.warn(
          {
            service,
            keys: changes.map((c) => c.key),
            reason: answer.ok ? 'an answer that is not SettingsApplyReply' : answer.message,
          },
          'a settings copy has not confirmed the save; its event will bring it',
        );
        return service;
      }),
    );
    return pending.filter((s): s is ServiceName => s !== null);
  }
}
