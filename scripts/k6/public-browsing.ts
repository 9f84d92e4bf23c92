// A visitor reading the public site: the home page, the blog list, then the available demo
// slots of the next days (what the booking modal asks for).
//   k6 run -e SCENARIO=smoke -e BASE_URL=http://localhost:3000 scripts/k6/public-browsing.ts
import { check, group, sleep } from 'k6';
import http from 'k6/http';
import {
  BASE_URL,
  checkReady,
  IS_SMOKE,
  nextDates,
  profile,
  SUMMARY_TREND_STATS,
  THINK_SECONDS,
  tagged,
  thresholds,
} from './lib.ts';

export { handleSummary } from './lib.ts';

const DAYS = IS_SMOKE ? 3 : 7;

export const options = {
  summaryTrendStats: SUMMARY_TREND_STATS,
  scenarios: { browse: profile({ exec: 'browse', vus: 20, smokeIterations: 3 }) },
  thresholds: thresholds({ home: [300, 800], blog: [300, 800], slots: [250, 600] }),
};

export function setup(): void {
  checkReady();
}

export function browse(): void {
  group('home page', () => {
    const res = http.get(`${BASE_URL}/`, tagged('home'));
    check(res, {
      'home answers 200': (r) => r.status === 200,
      'home is HTML': (r) => (r.headers['Content-Type'] ?? '').includes('text/html'),
    });
  });
  group('blog', () => {
    const res = http.get(`${BASE_URL}/api/blog`, tagged('blog'));
    check(res, {
      'blog answers 200': (r) => r.status === 200,
      'blog answers JSON': (r) => (r.headers['Content-Type'] ?? '').includes('application/json'),
    });
  });
  group('available slots', () => {
    for (const date of nextDates(DAYS)) {
      const res = http.get(`${BASE_URL}/api/bookings/available?date=${date}`, tagged('slots'));
      check(res, {
        'slots answer 200': (r) => r.status === 200,
        'slots are a list': (r) => Array.isArray((r.json() as { availableSlots?: unknown }).availableSlots),
      });
      sleep(THINK_SECONDS / 4);
    }
  });
  sleep(THINK_SECONDS);
}
