import { signInAsAdmin } from './support/admin.ts';
import { expectNoSeriousA11yViolations } from './support/axe.ts';
import { expect, type Locator, test } from './support/test.ts';

/**
 * Every admin form fails visibly (issue 35, item 6): a submit with a problem scrolls to the
 * first field in error, focuses it, and announces the problems in a live region, whichever form
 * it is (one shared mechanism, web/src/admin/components/form-feedback.tsx).
 */

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

/** The field has the focus, is marked invalid, and shows inside the window and inside its dialog. */
async function expectRevealed(field: Locator, scope?: Locator): Promise<void> {
  await expect(field).toBeFocused();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toBeInViewport();
  if (scope) {
    // Inside the dialog's scrolling body, not hidden under its edge.
    const inside = await field.evaluate((el) => {
      let box: HTMLElement | null = el.parentElement;
      while (box && !(box.scrollHeight > box.clientHeight && getComputedStyle(box).overflowY !== 'visible'))
        box = box.parentElement;
      if (!box) return true;
      const a = el.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      return a.top >= b.top && a.bottom <= b.bottom;
    });
    expect(inside, 'the field is inside its scrolling box').toBe(true);
  }
}

test('the campaign form: an invalid submit from the bottom of the dialog reveals, focuses and announces the first error', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 600 });
  await page.goto('/admin/email');
  await page.getByRole('tab', { name: /^Campaigns/ }).click();
  await page.getByRole('button', { name: 'Manual Create' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Campaign' });
  await dialog.getByLabel('Subject').fill('Spring news');
  await dialog.getByLabel('From name').fill('Parley Team');
  await dialog.getByLabel('From email').fill('not-an-address');
  // The admin is at the foot of the long form, where the errors at the top are out of view.
  const submit = dialog.getByRole('button', { name: 'Create Campaign' });
  await submit.scrollIntoViewIfNeeded();
  await expect(dialog.getByLabel('Campaign name')).not.toBeInViewport();
  await submit.click();

  await expectRevealed(dialog.getByLabel('Campaign name'), dialog);
  const live = dialog.getByTestId('form-problems');
  await expect(live).toHaveAttribute('aria-live', 'assertive');
  await expect(live).toContainText('Name is required.');
  await expect(live).toContainText('Please enter a valid from email address.');
  await expect(dialog.getByText('Name is required', { exact: true })).toBeVisible();
  await expectNoSeriousA11yViolations(page, 'the campaign form with its errors');

  // Fixed the first: the next submit goes to the next field in error.
  await dialog.getByLabel('Campaign name').fill('Spring');
  await submit.click();
  await expectRevealed(dialog.getByLabel('From email'), dialog);
  await expect(live).not.toContainText('Name is required');
  await expect(live).toContainText('Please enter a valid from email address.');
});

test('the same rule in the other admin forms: address books, newsletters, blog, users, settings, voice', async ({
  page,
}) => {
  // Address book: the name.
  await page.goto('/admin/address-books');
  await page.getByRole('button', { name: 'New Address Book' }).click();
  let dialog = page.getByRole('dialog', { name: 'Create Address Book' });
  await dialog.getByRole('button', { name: 'Create Address Book' }).click();
  await expectRevealed(dialog.getByLabel('Name'), dialog);
  await expect(dialog.getByTestId('form-problems')).toContainText('Name is required.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Newsletter: the spec's one message, and the first empty field focused.
  await page.goto('/admin/newsletters');
  await page.getByRole('button', { name: 'Create Newsletter' }).click();
  dialog = page.getByRole('dialog', { name: 'Create New Newsletter' });
  await dialog.getByLabel('Name').fill('March letter');
  await dialog.getByRole('button', { name: 'Create Newsletter' }).click();
  await expectRevealed(dialog.getByLabel('Subject'), dialog);
  await expect(dialog.getByTestId('form-problems')).toContainText('Please fill in all required fields');
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Blog post form: a long form in a dialog; Content is far below the title.
  await page.goto('/blog-admin');
  await page.getByRole('button', { name: 'New Post' }).first().click();
  dialog = page.getByRole('dialog', { name: 'Create New Blog Post' });
  await dialog.getByRole('textbox', { name: 'Title', exact: true }).fill('A post');
  await dialog.getByRole('textbox', { name: 'Slug', exact: true }).fill('a-post-form-check');
  await dialog.getByRole('button', { name: 'Create Post' }).click();
  await expectRevealed(dialog.getByRole('textbox', { name: 'Content', exact: true }), dialog);
  await expect(dialog.getByTestId('form-problems').first()).toContainText('Content is required.');
  // Its AI box (a group of fields inside the form, through the same hook): the topic.
  const ai = dialog.getByRole('region', { name: 'AI Content Generation' });
  await ai.getByRole('button', { name: 'Generate Article' }).click();
  await expectRevealed(ai.getByLabel('Topic or description'), dialog);
  await expect(ai.getByTestId('form-problems')).toContainText(
    'Please enter a topic or description for the article.',
  );
  await page.keyboard.press('Escape');

  // Admin users: missing fields are marked (beside the spec's toast), the first focused.
  await page.goto('/admin/users');
  await page.getByRole('button', { name: /Add New User/ }).click();
  const userForm = page.getByRole('form', { name: 'Create Admin User' });
  await userForm.getByLabel('Last Name').fill('Lee');
  await userForm.getByRole('button', { name: 'Create User' }).click();
  await expectRevealed(userForm.getByLabel('First Name'));
  await expect(userForm.getByTestId('form-problems')).toContainText('First name is required.');
  await expect(userForm.getByTestId('form-problems')).toContainText('Email is required.');

  // Settings → Security: the password change.
  await page.goto('/admin/settings');
  await page.getByRole('tab', { name: 'Security' }).click();
  const security = page.getByRole('form', { name: 'Change Password' });
  await security.getByLabel('New password', { exact: true }).fill('short');
  await security.getByRole('button', { name: 'Change Password' }).click();
  await expectRevealed(security.getByLabel('Current password'));
  await expect(security.getByTestId('form-problems')).toContainText('Current password is required.');

  // Voice AI → Make Calls: a number that cannot be called.
  await page.goto('/admin/voice-ai');
  await page.getByRole('tab', { name: 'Make Calls' }).click();
  const calls = page.getByRole('form', { name: 'Make an AI Call' });
  await calls.getByLabel('Phone Number').fill('12');
  await calls.getByRole('button', { name: 'Make Call' }).click();
  await expectRevealed(calls.getByLabel('Phone Number'));
  await expect(calls.getByTestId('form-problems')).toContainText('Please enter a valid phone number.');
});
