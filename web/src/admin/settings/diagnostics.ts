import type { DeadLettersResponse, DiagnosticRunResponse, PlatformStatus } from '@parley/contracts';
import { DIAGNOSTIC_TESTS } from '@parley/contracts/settings';

/** Run All Tests starts one test every 500 ms (spec §4, §9). */
export const RUN_ALL_STAGGER_MS = 500;

export type TestStatus = 'pending' | 'running' | 'success' | 'warning' | 'error';

/** A test card's state (spec §3 "Diagnostic test item"). */
export interface DiagnosticItem {
  id: string;
  name: string;
  description: string;
  category: string;
  status: TestStatus;
  result: string;
  details: string;
  /** Milliseconds. */
  duration: number | null;
  lastRun: string | null;
  checks: DiagnosticRunResponse['checks'];
}

export const initialItems = (): DiagnosticItem[] =>
  DIAGNOSTIC_TESTS.map((t) => ({
    ...t,
    status: 'pending',
    result: 'Not run yet',
    details: '',
    duration: null,
    lastRun: null,
    checks: [],
  }));

/** A failed call (spec §4): error, result 'Test failed', the message as details. */
export const failedItem = (item: DiagnosticItem, message: string, at: Date): DiagnosticItem => ({
  ...item,
  status: 'error',
  result: 'Test failed',
  details: message,
  duration: null,
  lastRun: at.toISOString(),
  checks: [],
});

export const answeredItem = (
  item: DiagnosticItem,
  answer: DiagnosticRunResponse,
  at: Date,
): DiagnosticItem => ({
  ...item,
  status: answer.status,
  result: answer.result,
  details: answer.details,
  duration: answer.duration,
  lastRun: at.toISOString(),
  checks: answer.checks,
});

/** `health-report-YYYY-MM-DD.json`, the date in the admin's own zone. */
export function healthReportName(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `health-report-${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}.json`;
}

export function countStatuses(items: DiagnosticItem[]): Record<TestStatus, number> {
  const counts: Record<TestStatus, number> = { pending: 0, running: 0, success: 0, warning: 0, error: 0 };
  for (const i of items) counts[i.status] += 1;
  return counts;
}

export interface HealthReport {
  generatedAt: string;
  summary: Record<TestStatus, number>;
  tests: DiagnosticItem[];
  platform: PlatformStatus | null;
  deadLetters: DeadLettersResponse | null;
}

export function healthReport(
  items: DiagnosticItem[],
  platform: PlatformStatus | null,
  deadLetters: DeadLettersResponse | null,
  at: Date,
): HealthReport {
  return {
    generatedAt: at.toISOString(),
    summary: countStatuses(items),
    tests: items,
    platform,
    deadLetters,
  };
}
