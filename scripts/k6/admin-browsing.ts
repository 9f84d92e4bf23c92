// The admin back office. With ADMIN_EMAIL and ADMIN_PASSWORD, setup() signs in once and every
// virtual user browses the API calls of the admin pages with that session; without them it
// checks, quickly, that admin routes refuse anonymous requests with 401.
//   k6 run -e ADMIN_EMAIL=admin@example.com -e ADMIN_PASSWORD=... scripts/k6/admin-browsing.ts
import { check, sleep } from 'k6';
import http from 'k6/http';
import {
  adminSession,
  BASE_URL,
  checkReady,
  profile,
  SUMMARY_TREND_STATS,
  THINK_SECONDS,
  tagged,
  thresholds,
} from './lib.ts';

export { handleSummary } from './lib.ts';

const EMAIL = __ENV.ADMIN_EMAIL ?? '';
const PASSWORD = __ENV.ADMIN_PASSWORD ?? '';
const SIGNED_IN = EMAIL !== '' && PASSWORD !== '';

/** API calls the admin pages make (read-only). */
const ADMIN_READS = ['/api/admin/me', '/api/bookings', '/api/contact-requests'];
/** Admin routes an anonymous request must not pass. */
const PROTECTED = ['/api/admin/me', '/api/bookings', '/api/admin/users'];

export const options = {
  summaryTrendStats: SUMMARY_TREND_STATS,
  scenarios: { admin: profile({ exec: 'admin', vus: 5, smokeIterations: 2 }) },
  thresholds: SIGNED_IN ? thresholds({ admin: [300, 800] }) : thresholds({ 'admin-unauth': [100, 250] }),
};

interface SetupData {
  cookie: string;
}

export function setup(): SetupData {
  checkReady();
  return { cookie: adminSession() };
}

export function admin(data: SetupData): void {
  if (data.cookie) {
    for (const path of ADMIN_READS) {
      const res = http.get(`${BASE_URL}${path}`, tagged('admin', { headers: { Cookie: data.cookie } }));
      check(res, { [`${path} answers 200`]: (r) => r.status === 200 });
      sleep(THINK_SECONDS / 2);
    }
  } else {
    for (const path of PROTECTED) {
      const res = http.get(
        `${BASE_URL}${path}`,
        tagged('admin-unauth', { responseCallback: http.expectedStatuses(401) }),
      );
      check(res, {
        [`${path} refuses anonymous (401)`]: (r) => r.status === 401,
        [`${path} answers with a JSON error`]: (r) =>
          (r.headers['Content-Type'] ?? '').includes('application/json'),
      });
    }
  }
  sleep(THINK_SECONDS);
}
