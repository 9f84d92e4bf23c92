import { ADMIN_EMAIL, ADMIN_PASSWORD } from './support/admin.ts';
import { expect, type Locator, type Page, test } from './support/test.ts';

/**
 * Admin back office end to end, against the real platform (gateway + identity + booking).
 * The first admin (a super_admin) is created by the platform from PARLEY_ADMIN_EMAIL /
 * PARLEY_ADMIN_PASSWORD; scripts/e2e.ts passes the same variables to the tests.
 */

function toasts(page: Page): Locator {
  // The visible toast list, not Radix's screen-reader announcer (which repeats the text).
  return page.getByTestId('toasts');
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/admin/login');
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** YYYY-MM-DD of `daysAhead` days from now in the sales team's zone (the slot calendar's). */
function easternDate(daysAhead: number): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/New_York',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(Date.now() + daysAhead * 86_400_000));
}

/** Books the first free slot through the public API, walking dates until one has slots. */
async function bookThroughPublicApi(page: Page, name: string): Promise<{ id: string; timeSlot: string }> {
  for (let day = 0; day < 21; day++) {
    const date = easternDate(day);
    const res = await page.request.get(`/api/bookings/available?date=${date}`);
    expect(res.ok()).toBe(true);
    const { availableSlots } = (await res.json()) as { availableSlots: string[] };
    const slot = availableSlots[0];
    if (!slot) continue;
    const created = await page.request.post('/api/bookings', {
      data: {
        name,
        email: `grace+${Date.now()}@example.com`,
        phone: '(555) 987-6543',
        company: 'Hopper Compilers Inc',
        timeSlot: slot,
        notes: 'Booked by the admin e2e test.',
        guests: [],
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const booking = (await created.json()) as { id: string; timeSlot: string };
    return booking;
  }
  throw new Error('no available slot in the next 21 days');
}

test('an unauthenticated visit to an admin screen redirects to the login page', async ({ page }) => {
  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/admin\/login$/);
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toBeVisible();
  await page.goto('/bookings-admin');
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test('a signed-in admin who opens /admin/login goes on to the console', async ({ page }) => {
  const res = await page.request.post('/api/admin/login', {
    data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
  });
  expect(res.status()).toBe(200);
  await page.goto('/admin/login');
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Admin Login' })).toHaveCount(0);
});

test('the login form validates its fields and shows the server error for a wrong password', async ({
  page,
}) => {
  const logins: string[] = [];
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/admin/login') logins.push(req.url());
  });
  await page.goto('/admin/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('Please enter a valid email', { exact: true })).toBeVisible();
  await expect(page.getByText('Password is required', { exact: true })).toBeVisible();
  expect(logins).toEqual([]);

  // Show/hide toggle of the password field.
  const password = page.getByLabel('Password', { exact: true });
  await password.fill('not-the-password');
  await expect(password).toHaveAttribute('type', 'password');
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await expect(password).toHaveAttribute('type', 'password');

  await page.getByRole('textbox', { name: 'Email' }).fill(ADMIN_EMAIL);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid email or password');
  await expect(page).toHaveURL(/\/admin\/login$/);
  expect(logins).toHaveLength(1);
});

test('an admin manages a booking and a new admin, who must change the password at first sign-in', async ({
  page,
}) => {
  // Sign in: the super admin lands on the console's entry, /admin, which opens Settings (the
  // spec's route table and highlight rule, docs/adr/0034-one-admin-navigation.md); the Dashboard is one
  // click away.
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/admin$/);
  const menu = page.getByRole('navigation', { name: 'Admin' });
  await expect(menu.getByRole('link', { name: 'Admin Users' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await menu.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByText('Active Sessions')).toBeVisible();

  // A visitor books a demo through the public API.
  const name = `Grace Hopper ${Date.now()}`;
  await bookThroughPublicApi(page, name);

  // Booking Management shows it (filters, grouping) and its status can be changed.
  await page.goto('/admin/bookings');
  await expect(page.getByRole('heading', { name: 'Booking Management' })).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Bookings' }),
  ).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('bookings-count')).toContainText(/Showing \d+ of \d+ total bookings/);
  await page.getByRole('button', { name: 'Show Filters' }).click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(name.toUpperCase());
  // Other tests of the same platform may have booked too: only the number of matches is fixed.
  await expect(page.getByTestId('bookings-count')).toHaveText(
    /^Showing 1 of \d+ total bookings\s*\(filtered\)$/,
  );
  const card = page.getByTestId('booking-card').filter({ hasText: name });
  await expect(card).toHaveCount(1);
  await expect(card.getByText('Upcoming')).toBeVisible();
  await expect(card.getByRole('link', { name: `Email ${name}` })).toHaveAttribute('href', /^mailto:grace\+/);
  await expect(card.getByRole('link', { name: `Call ${name}` })).toHaveAttribute('href', 'tel:5559876543');
  await expect(page.getByTestId('booking-day').first().getByRole('heading', { level: 2 })).toContainText(
    /^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), [A-Z][a-z]+ \d{1,2}, \d{4}/,
  );
  const status = card.getByRole('combobox', { name: `Status for ${name}` });
  await expect(status).toHaveValue('confirmed');
  await status.selectOption('qualified_lead');
  await expect(toasts(page).getByText('Status updated')).toBeVisible();
  await expect(toasts(page).getByText('Booking status has been updated successfully.')).toBeVisible();
  await expect(status).toHaveValue('qualified_lead');
  await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('qualified_lead');
  await expect(card).toHaveCount(1);
  await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption('cancelled');
  await expect(card).toHaveCount(0);
  await expect(page.getByText('No bookings found matching your filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear Filters' }).click();
  await expect(page.getByTestId('bookings-count')).not.toContainText('(filtered)');

  // The change is stored: a reload shows it.
  await page.reload();
  await expect(
    page
      .getByTestId('booking-card')
      .filter({ hasText: name })
      .getByRole('combobox', { name: `Status for ${name}` }),
  ).toHaveValue('qualified_lead');

  // Contact requests view.
  await page.getByRole('tab', { name: 'Contact Requests' }).click();
  await expect(
    page.getByText('No contact requests yet').or(page.getByTestId('contact-request').first()),
  ).toBeVisible();

  // Admin Users: create an admin with a temporary password; the invitation link shows once.
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Admin Users' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Admin Users \(\d+\)$/ })).toBeVisible();
  const me = page.getByTestId('admin-user').filter({ hasText: ADMIN_EMAIL });
  await expect(me.getByText('You', { exact: true })).toBeVisible();
  await expect(me.getByRole('button', { name: /^Delete/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Add New User' }).click();
  await page.getByRole('button', { name: 'Create User' }).click();
  await expect(toasts(page).getByText('Missing required fields')).toBeVisible();

  const newEmail = `ops+${Date.now()}@parley.test`;
  const tempPassword = 'temporary-pass-42';
  await page.getByRole('textbox', { name: 'First Name' }).fill('Katherine');
  await page.getByRole('textbox', { name: 'Last Name' }).fill('Johnson');
  await page.getByRole('textbox', { name: 'Email' }).fill(newEmail);
  await expect(page.getByRole('combobox', { name: 'Role' })).toHaveValue('admin');
  await page.getByLabel('Temporary password (optional)').fill(tempPassword);
  await page.getByRole('button', { name: 'Create User' }).click();
  await expect(toasts(page).getByText('User created')).toBeVisible();
  const invitation = page.getByTestId('invitation-link');
  await expect(invitation.getByRole('textbox', { name: 'Invitation link' })).toHaveValue(
    /\/admin\/login\?invite=[\w-]+/,
  );
  await expect(invitation.getByRole('button', { name: 'Copy Link' })).toBeVisible();
  const row = page.getByTestId('admin-user').filter({ hasText: newEmail });
  await expect(row.getByText('Must Change Password')).toBeVisible();
  await expect(row.getByRole('button', { name: `Delete ${newEmail}` })).toBeVisible();
  await invitation.getByRole('button', { name: 'Dismiss invitation link' }).click();
  await expect(invitation).toHaveCount(0);

  // Sign out from a screen other than the console's entry: back to the site root at once.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(toasts(page).getByText('Logged out successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  // The new admin signs in, is forced through the password change, then reaches the console.
  await signIn(page, newEmail, tempPassword);
  await expect(page).toHaveURL(/\/admin\/change-password$/);
  await expect(page.getByRole('heading', { name: 'Change Password' })).toBeVisible();
  // Before the change, the other admin screens send back here.
  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/admin\/change-password$/);
  await page.getByLabel('Current password', { exact: true }).fill(tempPassword);
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByLabel('Confirm new password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Password must be at least 8 characters', { exact: true })).toBeVisible();
  await page.getByLabel('Current password', { exact: true }).fill('wrong-current-password');
  await page.getByLabel('New password', { exact: true }).fill('brand-new-password-1');
  await page.getByLabel('Confirm new password', { exact: true }).fill('brand-new-password-1');
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByRole('alert')).toContainText('Current password is incorrect');
  await page.getByLabel('Current password', { exact: true }).fill(tempPassword);
  await page.getByRole('button', { name: 'Change Password' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expect(page.getByTestId('admin-name')).toHaveText('Katherine Johnson');
  const consoleMenu = page.getByRole('navigation', { name: 'Admin' });
  await expect(consoleMenu.getByRole('link', { name: 'Bookings' })).toBeVisible();
  await expect(consoleMenu.getByRole('link', { name: 'Admin Users' })).toHaveCount(0);
  await consoleMenu.getByRole('link', { name: 'Bookings' }).click();
  await expect(page.getByRole('heading', { name: 'Booking Management' })).toBeVisible();
  await expect(page.getByTestId('booking-card').filter({ hasText: name })).toHaveCount(1);

  // Console logout (from its entry, /admin): the toast, then the site root after a second.
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(toasts(page).getByText('Logged out successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/$/, { timeout: 5_000 });
  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test('an invited admin chooses a password from the invitation link; the super admin can delete them', async ({
  page,
  browser,
}) => {
  await signIn(page, ADMIN_EMAIL, ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto('/admin/users');
  await page.getByRole('button', { name: 'Add New User' }).click();
  const email = `invitee+${Date.now()}@parley.test`;
  await page.getByRole('textbox', { name: 'First Name' }).fill('Dorothy');
  await page.getByRole('textbox', { name: 'Last Name' }).fill('Vaughan');
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByRole('button', { name: 'Create User' }).click();
  await expect(toasts(page).getByText('User created')).toBeVisible();
  const link = await page.getByRole('textbox', { name: 'Invitation link' }).inputValue();
  const row = page.getByTestId('admin-user').filter({ hasText: email });
  await expect(row.getByText('Invitation Pending')).toBeVisible();

  // The invitee, in another browser session, opens the link and chooses a password.
  const invitee = await browser.newContext();
  try {
    const other = await invitee.newPage();
    await other.goto(new URL(link).pathname + new URL(link).search);
    await expect(other.getByRole('heading', { name: 'Welcome, Dorothy' })).toBeVisible();
    await other.getByLabel('New password', { exact: true }).fill('dorothy-password-1');
    await other.getByLabel('Confirm new password', { exact: true }).fill('dorothy-password-1');
    await other.getByRole('button', { name: 'Set Password and Sign In' }).click();
    await expect(other).toHaveURL(/\/admin$/);
    await expect(other.getByTestId('admin-name')).toHaveText('Dorothy Vaughan');
  } finally {
    await invitee.close();
  }

  // The super admin deletes the invitee after confirming.
  await page.reload();
  await row.getByRole('button', { name: `Delete ${email}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete admin user?' });
  await expect(confirm).toContainText(
    'Are you sure you want to delete this admin user? This action cannot be undone.',
  );
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(toasts(page).getByText('User deleted')).toBeVisible();
  await expect(page.getByTestId('admin-user').filter({ hasText: email })).toHaveCount(0);
});

test('the developer test login screens have no prefilled credential and sign in', async ({ page }) => {
  await page.goto('/admin/simple');
  await expect(page.getByRole('heading', { name: 'Simple Admin Login' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue('');
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');

  await page.goto('/admin/test');
  await expect(page.getByRole('heading', { name: 'Admin Login Test' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue('');
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  await page.getByRole('button', { name: 'Check Session' }).click();
  await expect(page.getByRole('alert')).toContainText('No active session');
  await page.getByRole('textbox', { name: 'Email' }).fill(ADMIN_EMAIL);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Test Login' }).click();
  await expect(page.getByRole('status')).toContainText('Signed in as Parley Admin (Super Admin)');
  await expect(page).toHaveURL(/\/admin$/, { timeout: 5_000 });
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
});
