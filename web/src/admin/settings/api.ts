import type {
  BrandCrawlResponse,
  BrandSettingsResponse,
  DeadLettersResponse,
  DiagnosticRunResponse,
  MailTransportStatus,
  PlatformStatus,
  ReplayDeadLettersBody,
  ReplayDeadLettersResponse,
  SaveSettingResponse,
  SettingEntry,
} from '@parley/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage, errorStatus } from '../../lib/api.ts';
import { adminQueryRetry, adminRequest } from '../lib/api.ts';
import { mergePending, type SaveOutcome } from './save-outcome.ts';

/**
 * The settings screen's calls (spec §7; the chosen paths are in the gateway's route table):
 * the settings store, platform status, brand intelligence, diagnostics and dead letters
 * (settings service), and the email service's test mails.
 */

export const SETTINGS_PATH = '/api/admin/settings';
export const STATUS_PATH = '/api/admin/settings/status';
export const BRAND_SETTINGS_PATH = '/api/admin/brand/settings';
export const BRAND_CRAWL_PATH = '/api/admin/brand/crawl';
export const DIAGNOSTICS_PATH = '/api/admin/diagnostics';
export const DEAD_LETTERS_PATH = '/api/admin/diagnostics/dead-letters';
export const TEST_EMAIL_PATH = '/api/admin/settings/test-email';
export const TEST_TRACKING_PATH = '/api/admin/email/test-tracking';
export const CHANGE_PASSWORD_PATH = '/api/admin/change-password';
export const TRANSPORT_PATH = '/api/admin/email/transport';

/** Every setting by key. */
export function useSettings() {
  return useQuery<SettingEntry[], Error, Map<string, SettingEntry>>({
    queryKey: [SETTINGS_PATH],
    select: (list) => new Map(list.map((s) => [s.key, s])),
    ...adminQueryRetry,
  });
}

export const saveSetting = (key: string, value: string) =>
  adminRequest<SaveSettingResponse>('POST', SETTINGS_PATH, { key, value });

/** A failed save: which key, and the server's message (it names the key). */
export class SaveError extends Error {
  constructor(
    readonly key: string,
    readonly reason: unknown,
  ) {
    super(errorMessage(reason) ?? 'Failed to save settings');
  }
}

/**
 * Saves fields one call each, in order (spec §5: only non-empty fields, one call per field);
 * stops at the first refusal. The settings and the brand view are read again afterwards.
 * Answers which services had not applied the saves yet (the toast says so: savedToast).
 */
export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (entries: Array<[key: string, value: string]>): Promise<SaveOutcome> => {
      try {
        const answers: SaveSettingResponse[] = [];
        for (const [key, value] of entries) {
          try {
            answers.push(await saveSetting(key, value));
          } catch (err) {
            throw new SaveError(key, err);
          }
        }
        // Saved; the services that had not applied a field yet are named (save-outcome.ts).
        return { pending: mergePending(answers) };
      } finally {
        void queryClient.invalidateQueries({ queryKey: [SETTINGS_PATH] });
        void queryClient.invalidateQueries({ queryKey: [BRAND_SETTINGS_PATH] });
        void queryClient.invalidateQueries({ queryKey: [TRANSPORT_PATH] });
      }
    },
  });
}

/** Where mail goes now and which transports the email service can use (SMTP tab). */
export function useMailTransport() {
  return useQuery<MailTransportStatus>({ queryKey: [TRANSPORT_PATH], staleTime: 0, ...adminQueryRetry });
}

export function usePlatformStatus() {
  return useQuery<PlatformStatus>({ queryKey: [STATUS_PATH], ...adminQueryRetry });
}

export function useBrandSettings() {
  return useQuery<BrandSettingsResponse>({ queryKey: [BRAND_SETTINGS_PATH], ...adminQueryRetry });
}

export function useBrandCrawl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => adminRequest<BrandCrawlResponse>('POST', BRAND_CRAWL_PATH),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: [BRAND_SETTINGS_PATH] }),
  });
}

export const runDiagnostic = (testId: string) =>
  adminRequest<DiagnosticRunResponse>('POST', `${DIAGNOSTICS_PATH}/${encodeURIComponent(testId)}`);

export function useDeadLetters() {
  return useQuery<DeadLettersResponse>({ queryKey: [DEAD_LETTERS_PATH], ...adminQueryRetry });
}

export function useReplayDeadLetters() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReplayDeadLettersBody) =>
      adminRequest<ReplayDeadLettersResponse>('POST', `${DEAD_LETTERS_PATH}/replay`, body),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: [DEAD_LETTERS_PATH] }),
  });
}

/** The email service's answer to the test mails (spec §7: {success, message}). */
export interface TestMailAnswer {
  success?: boolean;
  message?: string;
}

export const sendTestEmails = (emails: string[]) =>
  adminRequest<TestMailAnswer | undefined>('POST', TEST_EMAIL_PATH, { emails });

export const sendTestTracking = (email: string) =>
  adminRequest<TestMailAnswer | undefined>('POST', TEST_TRACKING_PATH, { email });

/**
 * The gateway's 503 for a service that is not deployed (its JSON message), or null: the
 * test-mail cards say the email service is not running instead of a bare error.
 */
export function serviceUnavailable(err: unknown): string | null {
  if (errorStatus(err) !== 503) return null;
  return errorMessage(err) ?? 'The service is not available.';
}
