import { readFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import AxeBuilder from '@axe-core/playwright';
import type { SettingEntry } from '@parley/contracts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signInAsAdmin, toasts, unique } from './support/admin.ts';
import { expect, type Page, test } from './support/test.ts';

/**
 * General settings (/admin/settings) end to end against the real platform: every tab, the
 * toasts of spec §8, the health report download, and the screen at 375 px.
 *
 * The settings service's crawl refuses loopback addresses; the success path of Brand
 * Intelligence reads a fixture website this test serves on the one endpoint the platform's
 * test-only allow-list lets through: SETTINGS_CRAWL_ALLOW_PRIVATE=127.0.0.1:<port>, set for
 * the platform and the tests by scripts/e2e.ts.
 *
 * The spec leaves the platform usable for the other specs: the transport ends on the local
 * mailbox (an SMTP host is saved, then not used), test mode ends off, the password is changed back.
 */

const SETTINGS = '/admin/settings';

async function openSettings(page: Page, tab: string): Promise<void> {
  await page.goto(SETTINGS);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await page.getByRole('tab', { name: tab }).click();
  await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
}

/** A row of the Testing tab's address list (its remove button has a similar name). */
const row = (page: Page, n: number) => page.getByRole('textbox', { name: `Test email ${n}`, exact: true });

async function savedSettings(page: Page): Promise<Map<string, SettingEntry>> {
  const res = await page.request.get('/api/admin/settings');
  expect(res.status()).toBe(200);
  return new Map(((await res.json()) as SettingEntry[]).map((s) => [s.key, s]));
}

/** The crawl fixture (services/settings/test/fixtures/site); the home page waits until released. */
function fixtureSite(port: number) {
  const dir = new URL('../../services/settings/test/fixtures/site/', import.meta.url);
  const file = (name: string) => readFileSync(new URL(name, dir), 'utf8');
  let release: () => void = () => {};
  let held = new Promise<void>((resolve) => (release = resolve));
  const send = (res: ServerResponse, type: string, body: string) => {
    res.writeHead(200, { 'content-type': type });
    res.end(body);
  };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') void held.then(() => send(res, 'text/html; charset=utf-8', file('index.html')));
    else if (path === '/styles/main.css') send(res, 'text/css', file('main.css'));
    else if (path === '/styles/extra.css') send(res, 'text/css', file('extra.css'));
    else if (path === '/about') send(res, 'text/html', file('about.html'));
    else {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not found</h1>');
    }
  });
  return {
    listen: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
    /** Lets the held home page answer. */
    release: () => release(),
    hold: () => {
      held = new Promise<void>((resolve) => (release = resolve));
    },
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The allow-listed endpoint (see the header); the crawl success test needs it. */
function allowListedEndpoint(): { host: string; port: number } {
  const entry = process.env.SETTINGS_CRAWL_ALLOW_PRIVATE?.split(',')[0]?.trim();
  const m = entry ? /^127\.0\.0\.1:(\d+)$/.exec(entry) : null;
  if (!m)
    throw new Error(
      'SETTINGS_CRAWL_ALLOW_PRIVATE=127.0.0.1:<port> must be set for the platform and the tests (scripts/e2e.ts)',
    );
  return { host: '127.0.0.1', port: Number(m[1]) };
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test('SMTP: saves non-empty fields one call each, keeps the password secret, refuses a bad port, warns on a mismatch', async ({
  page,
}) => {
  const before = await savedSettings(page);
  await openSettings(page, 'SMTP');
  await expect(page.getByRole('heading', { name: 'SMTP Configuration' })).toBeVisible();
  // The default port until one is saved.
  await expect(page.getByLabel('SMTP Port')).toHaveValue(before.get('smtp_port')?.value ?? '587');
  const warning = page.getByTestId('smtp-address-warning');
  await expect(warning).toContainText('must be the same authenticated address');

  // A bad port: 'Update failed' with the server's message, on the field.
  await page.getByLabel('SMTP Port').fill('70000');
  await page.getByRole('button', { name: 'Save SMTP Settings' }).click();
  await expect(toasts(page)).toContainText('Update failed');
  await expect(toasts(page)).toContainText('smtp_port must be a whole number from 1 to 65535');
  await expect(page.getByLabel('SMTP Port')).toHaveAttribute('aria-invalid', 'true');
  expect((await savedSettings(page)).get('smtp_port')?.value).toBe(before.get('smtp_port')?.value);

  // A mismatch between the username and the from address is called out.
  const from = `sales+${unique()}@parley.test`;
  await page.getByLabel('SMTP Username').fill(`other-${from}`);
  await page.getByLabel('From Email').fill(from);
  await expect(warning).toHaveAttribute('role', 'alert');
  await expect(warning).toContainText('These two differ now.');
  await page.getByLabel('SMTP Username').fill(from);
  await expect(warning).not.toContainText('These two differ now.');

  // No host yet: the empty field is not sent; the transport stays as it is (the local mailbox).
  const password = `smtp-${unique()}-secret`;
  await page.getByLabel('SMTP Port').fill('2525');
  await page.getByLabel('SMTP Password').fill(password);
  await page.getByLabel('From Name').fill('Parley E2E');
  const saves: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/admin/settings' && r.method() === 'POST')
      saves.push((r.postDataJSON() as { key: string }).key);
  });
  await page.getByRole('button', { name: 'Save SMTP Settings' }).click();
  await expect(toasts(page)).toContainText('Settings updated');
  await expect(toasts(page)).toContainText('Your settings have been saved successfully.');
  expect(saves).toEqual([
    'smtp_port',
    'smtp_username',
    'smtp_password',
    'smtp_from_name',
    'smtp_from_email',
    'mail_transport',
  ]);

  const saved = await savedSettings(page);
  expect(saved.get('smtp_port')?.value).toBe('2525');
  expect(saved.get('smtp_from_email')?.value).toBe(from);
  expect(saved.get('smtp_password')).toMatchObject({ value: null, secret: true, isSet: true });
  expect(saved.has('smtp_host')).toBe(false);
  expect(saved.get('mail_transport')?.value).toBe('local');
  const listed = await (await page.request.get('/api/admin/settings')).text();
  expect(listed).not.toContain(password);

  // Read back: fields filled, the password field empty but saying one is saved.
  await openSettings(page, 'SMTP');
  await expect(page.getByLabel('SMTP Port')).toHaveValue('2525');
  await expect(page.getByLabel('From Email')).toHaveValue(from);
  await expect(page.getByLabel('SMTP Password')).toHaveValue('');
  await expect(page.getByText('A password is saved. Leave this empty to keep it.')).toBeVisible();
});

test('SMTP: the transport is chosen explicitly, and the local mailbox comes back after SMTP', async ({
  page,
}) => {
  await openSettings(page, 'SMTP');
  const choice = page.getByRole('group', { name: 'Send mail through' });
  const now = page.getByTestId('mail-transport-now');
  await expect(choice.getByRole('radio', { name: /Local mailbox/ })).toBeChecked();
  await expect(now).toContainText('In use now: Local mailbox');
  // Amazon SES is the operator's to configure: offered only where it is, and said so.
  await expect(choice.getByRole('radio', { name: /Amazon SES/ })).toBeDisabled();
  await expect(choice).toContainText(
    'Not configured: the operator sets it up on the email service (SES_REGION).',
  );

  // SMTP without a host is refused before anything is saved.
  await choice.getByRole('radio', { name: /SMTP server/ }).check();
  await page.getByLabel('SMTP Host').fill('');
  await page.getByRole('button', { name: 'Save SMTP Settings' }).click();
  await expect(toasts(page)).toContainText('Update failed');
  await expect(page.getByLabel('SMTP Host')).toHaveAttribute('aria-invalid', 'true');
  // The field's own error (the toast and the form's live region say it too).
  await expect(
    page
      .getByRole('tabpanel', { name: 'SMTP' })
      .getByText('Enter the SMTP host to send mail through SMTP.', { exact: true }),
  ).toBeVisible();
  expect((await savedSettings(page)).get('mail_transport')?.value ?? 'local').toBe('local');

  // A host (nothing listens on the port) and SMTP: one save; the mail now goes there.
  await page.getByLabel('SMTP Host').fill('127.0.0.1');
  await page.getByLabel('SMTP Port').fill('9');
  await page.getByRole('button', { name: 'Save SMTP Settings' }).click();
  await expect(toasts(page)).toContainText('Settings updated');
  await expect(now).toContainText('In use now: SMTP server — SMTP 127.0.0.1:9');
  const card = page.getByRole('form', { name: 'Test Email Configuration' });
  await card.getByRole('button', { name: 'Send Test Email' }).click();
  await expect(toasts(page)).toContainText('Test email failed');

  // Emptying the saved host is refused with what to do instead, not answered "Settings updated".
  await page.getByLabel('SMTP Host').fill('');
  await page.getByRole('button', { name: 'Save SMTP Settings' }).click();
  await expect(toasts(page)).toContainText('Update failed');
  // The field's own error (the toast and the form's live region say it too).
  await expect(
    page
      .getByRole('tabpanel', { name: 'SMTP' })
      .getByText(
        /^SMTP Host cannot be emptied once saved: the saved value stays\. .*choose Local mailbox under “Send mail through”/,
      ),
  ).toBeVisible();
  await page.getByLabel('SMTP Host').fill('127.0.0.1');

  // Back to the local mailbox: the host stays saved, unused; a test mail lands in Sent mail.
  await choice.getByRole('radio', { name: /Local mailbox/ }).check();
  await page.getByRole('button', { name: 'Save SMTP Settings' }).click();
  await expect(toasts(page)).toContainText('Settings updated');
  await expect(now).toContainText('In use now: Local mailbox');
  const saved = await savedSettings(page);
  expect(saved.get('mail_transport')?.value).toBe('local');
  expect(saved.get('smtp_host')?.value).toBe('127.0.0.1');
  const to = `back-local-${unique()}@parley.test`;
  await card.getByLabel('Send test to').fill(to);
  await card.getByRole('button', { name: 'Send Test Email' }).click();
  await expect(toasts(page)).toContainText('Test emails sent successfully');
  const outbox = await page.request.get(`/api/admin/email/outbox?q=${encodeURIComponent(to)}`);
  expect(await outbox.json()).toMatchObject({
    transport: 'local',
    items: [{ to, transport: 'local', status: 'sent' }],
  });
});

test('SMTP: the Test Email Configuration card reports what the email service answered', async ({ page }) => {
  await openSettings(page, 'SMTP');
  const card = page.getByRole('form', { name: 'Test Email Configuration' });
  await expect(card.getByLabel('Send test to')).toHaveValue(ADMIN_EMAIL);
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/admin/settings/test-email');
  await card.getByRole('button', { name: 'Send Test Email' }).click();
  const res = await answer;
  expect(res.request().postDataJSON()).toEqual({ emails: [ADMIN_EMAIL] });
  if (res.status() === 503) {
    // The gateway's 503 JSON for a service that is not deployed: the card says so.
    const { message } = (await res.json()) as { message: string };
    await expect(card.getByTestId('email-service-notice')).toContainText(
      'The email service is not running, so test emails cannot be sent yet.',
    );
    await expect(card.getByTestId('email-service-notice')).toContainText(message);
    await expect(toasts(page)).toContainText('Test email failed');
  } else if (res.ok()) {
    await expect(toasts(page)).toContainText('Test emails sent successfully');
    await expect(card.getByTestId('email-service-notice')).toHaveCount(0);
  } else {
    const body = (await res.json().catch(() => ({}))) as { message?: string };
    await expect(toasts(page)).toContainText('Test email failed');
    if (body.message) await expect(toasts(page)).toContainText(body.message);
  }
});

test('SMTP: a gateway 503 for the email service shows the not-running notice', async ({ page }) => {
  // The gateway's own answer when EMAIL_URL is unset (gateway/src/plugins/proxy-routes.ts),
  // replayed here because this platform runs the email service.
  const message = 'The email service is not available in this deployment.';
  await page.route('**/api/admin/settings/test-email', (route) =>
    route.fulfill({ status: 503, json: { error: 'Service Unavailable', message } }),
  );
  await openSettings(page, 'SMTP');
  await page.getByRole('button', { name: 'Send Test Email' }).click();
  await expect(page.getByTestId('email-service-notice')).toContainText('The email service is not running');
  await expect(page.getByTestId('email-service-notice')).toContainText(message);
  await expect(toasts(page)).toContainText('Test email failed');
  await expect(toasts(page)).toContainText(message);
});

test('Brand: saves the six fields, and names the key of a refused value', async ({ page }) => {
  await openSettings(page, 'Brand');
  const name = `Parley ${unique()}`;
  await page.getByLabel('Brand Name').fill(name);
  await page.getByLabel('Brand Voice').fill('Warm, direct and clear.');
  await page.getByLabel('Website').fill('https://parley.example/');
  await page.getByLabel('Support Email').fill('not-an-address');
  await page.getByLabel('Company Address').fill('1 Main Street, Cambridge MA');
  await page.getByLabel('Company Phone').fill('+1 (617) 555-0142');
  await page.getByRole('button', { name: 'Save Brand Settings' }).click();
  await expect(toasts(page)).toContainText('Update failed');
  await expect(toasts(page)).toContainText('support_email must be a valid email address');
  await expect(page.getByLabel('Support Email')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Support Email').fill('help@parley.example');
  await page.getByRole('button', { name: 'Save Brand Settings' }).click();
  await expect(toasts(page)).toContainText('Settings updated');
  const saved = await savedSettings(page);
  expect(saved.get('brand_name')?.value).toBe(name);
  expect(saved.get('support_email')?.value).toBe('help@parley.example');
  expect(saved.get('company_phone')?.value).toBe('+1 (617) 555-0142');
  const brand = await (await page.request.get('/api/admin/brand/settings')).json();
  expect(brand).toMatchObject({
    success: true,
    settings: { brandName: name, websiteUrl: 'https://parley.example/' },
  });
});

test('General: every service ready, where data lives, the signed-in admin', async ({ page }) => {
  await openSettings(page, 'General');
  await expect(page.getByTestId('platform-summary')).toContainText('6 of 6 services ready');
  for (const service of ['identity', 'booking', 'blog', 'voice', 'email', 'settings']) {
    const row = page.getByTestId(`service-${service}`);
    await expect(row).toContainText('Ready');
    await expect(row).toContainText(new RegExp(`Database: ${service} database answered in \\d+ ms`));
  }
  await expect(page.getByTestId('data-storage')).toContainText('PostgreSQL');
  await expect(page.getByTestId('data-storage')).toContainText('one database per service');
  await expect(page.getByTestId('current-admin')).toHaveText(ADMIN_EMAIL);
});

test('Security: the session note, the password rules, and a password change that works', async ({ page }) => {
  await openSettings(page, 'Security');
  await expect(page.getByTestId('session-note')).toHaveText('Sessions expire after 24 hours of inactivity.');
  const form = page.getByRole('form', { name: 'Change Password' });
  const submit = form.getByRole('button', { name: 'Change Password' });

  await submit.click();
  await expect(form.getByText('Current password is required', { exact: true })).toBeVisible();
  await expect(form.getByText('Password must be at least 8 characters', { exact: true })).toBeVisible();

  await form.getByLabel('Current password').fill('wrong-password-1');
  await form.getByLabel('New password', { exact: true }).fill('short');
  await submit.click();
  await expect(form.getByText('Password must be at least 8 characters', { exact: true })).toBeVisible();

  const next = `E2E-${unique()}-password`;
  await form.getByLabel('New password', { exact: true }).fill(next);
  await form.getByLabel('Confirm new password').fill(next);
  await submit.click();
  await expect(form.getByRole('alert')).toContainText('Current password is incorrect');

  await form.getByLabel('Current password').fill(ADMIN_PASSWORD);
  await submit.click();
  await expect(toasts(page)).toContainText('Password changed');
  await expect(form.getByLabel('Current password')).toHaveValue('');

  // The new password signs in; then it is changed back for the other specs.
  const login = await page.request.post('/api/admin/login', { data: { email: ADMIN_EMAIL, password: next } });
  expect(login.status()).toBe(200);
  await openSettings(page, 'Security');
  await form.getByLabel('Current password').fill(next);
  await form.getByLabel('New password', { exact: true }).fill(ADMIN_PASSWORD);
  await form.getByLabel('Confirm new password').fill(ADMIN_PASSWORD);
  await submit.click();
  await expect(toasts(page)).toContainText('Password changed');
  const back = await page.request.post('/api/admin/login', {
    data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  expect(back.status()).toBe(200);
});

test('Intelligence: a refused address fails; the saved website is crawled with a busy state and the analysis shown', async ({
  page,
}) => {
  const endpoint = allowListedEndpoint();
  const site = fixtureSite(endpoint.port);
  await site.listen();
  try {
    // Cloud metadata is never crawled.
    await page.request.post('/api/admin/settings', {
      data: { key: 'website_url', value: 'http://169.254.169.254/latest/meta-data/' },
    });
    await openSettings(page, 'Intelligence');
    await expect(page.getByTestId('brand-website')).toContainText('169.254.169.254');
    await page.getByRole('button', { name: 'Analyze Brand' }).click();
    await expect(toasts(page)).toContainText('Brand Analysis Failed');
    await expect(toasts(page)).toContainText('169.254.169.254 is a link-local address');

    // The fixture site (allow-listed for tests): busy while the home page is held.
    const url = `http://${endpoint.host}:${endpoint.port}/`;
    const saved = await page.request.post('/api/admin/settings', {
      data: { key: 'website_url', value: url },
    });
    expect(saved.status()).toBe(200);
    site.hold();
    await openSettings(page, 'Intelligence');
    const analyze = page.getByRole('button', { name: 'Analyze Brand' });
    await analyze.click();
    await expect(page.getByRole('button', { name: 'Analyzing...' })).toBeDisabled();
    await expect(page.getByRole('status').filter({ hasText: `Crawling ${url}` })).toBeVisible();
    site.release();
    await expect(toasts(page)).toContainText('Brand Analysis Complete');
    const analysis = page.getByTestId('brand-analysis');
    await expect(analysis).toContainText('Local analysis');
    await expect(page.getByTestId('color-primary')).toContainText('#0b6e4f');
    await expect(page.getByTestId('color-secondary')).toContainText('#08a045');
    await expect(page.getByTestId('color-accent')).toContainText('#f4a259');
    await expect(analysis).toContainText('Nunito');
    await expect(analysis).toContainText('Merriweather');
    await expect(analysis).toContainText('Healthy smiles for the whole family');
    await expect(page.getByTestId('brand-keywords')).toContainText('dental');
    expect(
      await page
        .getByTestId('brand-keywords')
        .getByText(/^\+\d+ more$/)
        .count(),
    ).toBe(1);

    // Kept: the analysis is there after a reload.
    await openSettings(page, 'Intelligence');
    await expect(page.getByTestId('color-primary')).toContainText('#0b6e4f');
  } finally {
    await site.close();
  }
});

test('Testing: the address rules, the toasts, saving, test mode, and the test mails', async ({ page }) => {
  const before = await savedSettings(page);
  await openSettings(page, 'Testing');
  // On opening: the saved list, or the admin's address when none is saved.
  const savedList = before.get('test_email_addresses')?.value;
  if (savedList) {
    await expect(toasts(page)).toContainText('Test emails loaded');
    await expect(row(page, 1)).toHaveValue((JSON.parse(savedList) as string[])[0] as string);
  } else {
    await expect(toasts(page)).toContainText('No saved test email addresses found');
    await expect(row(page, 1)).toHaveValue(ADMIN_EMAIL);
    await expect(page.getByRole('button', { name: /^Remove test email/ })).toHaveCount(0);
  }

  // Up to five rows; remove buttons only while there is more than one.
  const add = page.getByRole('button', { name: 'Add Email' });
  while ((await page.getByRole('textbox', { name: /^Test email \d$/ }).count()) < 5) await add.click();
  await expect(add).toBeDisabled();
  await expect(page.getByRole('button', { name: /^Remove test email/ })).toHaveCount(5);
  for (let i = 5; i > 1; i--) await page.getByRole('button', { name: `Remove test email ${i}` }).click();
  await expect(page.getByRole('button', { name: /^Remove test email/ })).toHaveCount(0);

  // No usable row: each action says so.
  await row(page, 1).fill('no-at-sign');
  await page.getByRole('button', { name: 'Send Test' }).click();
  await expect(toasts(page)).toContainText('No valid emails');
  await expect(toasts(page)).toContainText('Please enter at least one valid email address');
  await page.getByRole('button', { name: 'Test Tracking' }).click();
  await expect(toasts(page)).toContainText('Please enter at least one valid email address');
  await page.getByRole('button', { name: 'Save Emails' }).click();
  await expect(toasts(page)).toContainText('Please add at least one valid email address to save.');

  // Two addresses and an unusable row: only the usable ones are saved.
  const a = `qa+${unique()}@parley.test`;
  const b = `qa2+${unique()}@parley.test`;
  await row(page, 1).fill(a);
  await add.click();
  await row(page, 2).fill('   ');
  await add.click();
  await row(page, 3).fill(b);
  await page.getByRole('button', { name: 'Save Emails' }).click();
  await expect(toasts(page)).toContainText('Settings updated');
  expect((await savedSettings(page)).get('test_email_addresses')?.value).toBe(JSON.stringify([a, b]));

  await openSettings(page, 'Testing');
  await expect(toasts(page)).toContainText('Test emails loaded');
  await expect(row(page, 1)).toHaveValue(a);
  await expect(row(page, 2)).toHaveValue(b);

  // Test Environment Mode: stored as 'true' / 'false'; left off.
  const mode = page.getByRole('switch', { name: 'Test Environment Mode' });
  const wasOn = (await mode.getAttribute('aria-checked')) === 'true';
  if (wasOn) {
    await mode.click();
    await expect(mode).toHaveAttribute('aria-checked', 'false');
  }
  await mode.click();
  await expect(toasts(page)).toContainText('Settings updated');
  await expect(mode).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('test-mode-state')).toContainText('Test mode is on');
  expect((await savedSettings(page)).get('test_environment_enabled')?.value).toBe('true');
  await mode.click();
  await expect(mode).toHaveAttribute('aria-checked', 'false');
  expect((await savedSettings(page)).get('test_environment_enabled')?.value).toBe('false');

  // Send Test and Test Tracking show what the email service answered.
  for (const [button, path, title, failure, body] of [
    [
      'Send Test',
      '/api/admin/settings/test-email',
      'Test emails sent successfully',
      'Test emails failed',
      { emails: [a, b] },
    ],
    [
      'Test Tracking',
      '/api/admin/email/test-tracking',
      'Test tracking email sent',
      'Test tracking failed',
      { email: a },
    ],
  ] as const) {
    const answer = page.waitForResponse((r) => new URL(r.url()).pathname === path);
    await page.getByRole('button', { name: button }).click();
    const res = await answer;
    expect(res.request().postDataJSON()).toEqual(body);
    if (res.ok()) await expect(toasts(page)).toContainText(title);
    else {
      await expect(toasts(page)).toContainText(failure);
      if (res.status() === 503) await expect(page.getByTestId('email-service-notice')).toBeVisible();
    }
  }
});

test('Testing: a save the email service has not applied yet says so, not a plain "saved"', async ({
  page,
}) => {
  await openSettings(page, 'Testing');
  const mode = page.getByRole('switch', { name: 'Test Environment Mode' });
  if ((await mode.getAttribute('aria-checked')) === 'true') {
    await mode.click();
    await expect(mode).toHaveAttribute('aria-checked', 'false');
  }
  // The real save, answered as the settings service answers when the email service has not
  // confirmed it (stopped, or slower than SETTINGS_APPLY_TIMEOUT_MS).
  await page.route('**/api/admin/settings', async (route) => {
    if (route.request().method() !== 'POST') return route.fallback();
    const res = await route.fetch();
    await route.fulfill({ response: res, json: { ...(await res.json()), pending: ['email'] } });
  });
  await mode.click();
  await expect(toasts(page)).toContainText('Saved, not yet in effect');
  await expect(toasts(page)).toContainText('The email service has not applied the change yet');
  await expect(toasts(page)).not.toContainText('Settings updated');
  expect((await savedSettings(page)).get('test_environment_enabled')?.value).toBe('true');
  // Confirmed by every copy: the plain 'Settings updated'. Test mode is left off.
  await page.unroute('**/api/admin/settings');
  await mode.click();
  await expect(toasts(page)).toContainText('Settings updated');
  await expect(mode).toHaveAttribute('aria-checked', 'false');
  expect((await savedSettings(page)).get('test_environment_enabled')?.value).toBe('false');
});

test('Diagnostics: Run All Tests staggers the six tests, reports the true state, downloads the report, lists dead letters', async ({
  page,
}) => {
  await openSettings(page, 'Diagnostics');
  const ids = [
    'database-connection',
    'email-smtp',
    'voice-api',
    'twilio-integration',
    'openai-api',
    'api-endpoints',
  ];
  for (const id of ids)
    await expect(page.getByTestId(`diagnostic-${id}`).getByTestId('diagnostic-status')).toHaveText('Pending');

  // When the browser started each request (its own clock, not this process's event delivery).
  const started: Array<{ id: string; at: number }> = [];
  page.on('requestfinished', (r) => {
    const m = /\/api\/admin\/diagnostics\/([a-z-]+)$/.exec(new URL(r.url()).pathname);
    if (m && r.method() === 'POST') started.push({ id: m[1] as string, at: r.timing().startTime });
  });
  await page.getByRole('button', { name: 'Run All Tests' }).click();
  for (const id of ids)
    await expect(page.getByTestId(`diagnostic-${id}`).getByTestId('diagnostic-status')).toHaveText(
      /^(Success|Warning|Error)$/,
      {
        timeout: 30_000,
      },
    );
  await expect(page.getByRole('button', { name: 'Run All Tests' })).toBeEnabled();
  // One test every 500 ms, in card order.
  started.sort((a, b) => a.at - b.at);
  expect(started.map((s) => s.id)).toEqual(ids);
  // The page schedules them 500 ms apart; the network stack's start times jitter by a few ms.
  for (let i = 1; i < started.length; i++)
    expect(started[i]!.at - started[i - 1]!.at).toBeGreaterThanOrEqual(400);
  expect(started.at(-1)!.at - started[0]!.at).toBeGreaterThanOrEqual(5 * 500 - 100);

  // The embedded platform runs every service: their databases and readiness are true successes.
  const db = page.getByTestId('diagnostic-database-connection');
  await expect(db.getByTestId('diagnostic-status')).toHaveText('Success');
  await expect(db.getByTestId('diagnostic-result')).toHaveText('All 6 databases connected');
  await expect(db.getByTestId('diagnostic-details')).toContainText(/identity \d+ ms/);
  const api = page.getByTestId('diagnostic-api-endpoints');
  await expect(api.getByTestId('diagnostic-status')).toHaveText('Success');
  await expect(api.getByTestId('diagnostic-result')).toHaveText('All 6 services answering');
  await expect(page.getByTestId('diagnostics-summary')).toContainText('0 not run');

  // The health report, named with the date.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download Health Report' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^health-report-\d{4}-\d{2}-\d{2}\.json$/);
  const report = JSON.parse(readFileSync((await file.path()) as string, 'utf8')) as {
    tests: Array<{ id: string; status: string; duration: number }>;
    summary: Record<string, number>;
  };
  expect(report.tests.map((t) => t.id)).toEqual(ids);
  expect(report.tests.find((t) => t.id === 'database-connection')?.status).toBe('success');
  expect(report.summary.pending).toBe(0);

  // Dead letters of every service.
  for (const service of ['identity', 'booking', 'blog', 'voice', 'email', 'settings'])
    await expect(page.getByTestId(`dead-letters-${service}`)).toContainText(/\d+ dead letters?/);

  // A call that fails: the card shows 'Test failed' and the toast the message.
  await page.route('**/api/admin/diagnostics/voice-api', (route) => route.abort('connectionreset'));
  const voice = page.getByTestId('diagnostic-voice-api');
  await voice.getByRole('button', { name: 'Run Test' }).click();
  await expect(voice.getByTestId('diagnostic-result')).toHaveText('Test failed');
  await expect(voice.getByTestId('diagnostic-status')).toHaveText('Error');
  await expect(toasts(page)).toContainText('Diagnostic test failed');
});

/**
 * Axe (WCAG 2.x A/AA, serious and critical) on the page as it is, like support/axe.ts, but
 * without the admin frame's mobile header link (its visible text "Parley" is not in its name
 * "Admin console": a shared component, reported to its owner).
 */
async function expectNoSeriousA11yViolations(page: Page, tab: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .exclude('header > a[aria-label="Admin console"]')
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    serious.map((v) => `${v.impact} ${v.id}: ${v.help} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe violations on the ${tab} tab`,
  ).toEqual([]);
}

test('every tab fits a 375 px screen and passes axe', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(SETTINGS);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  for (const tab of ['SMTP', 'Brand', 'General', 'Security', 'Intelligence', 'Testing', 'Diagnostics']) {
    const button = page.getByRole('tab', { name: tab });
    await button.scrollIntoViewIfNeeded();
    await button.click();
    await expect(button).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel')).toBeVisible();
    // Judged once its data is in (no loading line left).
    await expect(
      page
        .getByRole('tabpanel')
        .getByRole('status')
        .filter({ hasText: /Loading|Asking/ }),
    ).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), tab).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(page, tab);
  }
});
