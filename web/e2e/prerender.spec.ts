import { expect, test } from './support/test.ts';

/**
 * The public pages that need no data arrive prerendered (web/src/entry-server.tsx): their
 * text is in the HTML before any script runs, and the browser hydrates it without a mismatch
 * (React reports one as a console error and throws the markup away).
 */
const PAGES: Array<{ path: string; heading: RegExp }> = [
  { path: '/', heading: /answer your calls and book appointments/ },
  { path: '/use-cases', heading: /built for your industry/ },
  { path: '/blog', heading: /Insights on AI voice agents/ },
  { path: '/book-demo', heading: /See your AI voice agent in action/ },
  { path: '/voice-agent-preview', heading: /configured in minutes/ },
  { path: '/simulated-call-demo', heading: /take a real call/ },
  { path: '/voice-wave-demo', heading: /A voice you can see/ },
  { path: '/privacy-policy', heading: /Privacy Policy/ },
  { path: '/terms-conditions', heading: /Terms/ },
  { path: '/app-privacy', heading: /Privacy/ },
];

for (const { path, heading } of PAGES) {
  test(`${path} arrives prerendered and hydrates without a mismatch`, async ({ page, request, baseURL }) => {
    const raw = await (await request.get(path)).text();
    const h1 = raw.match(/<h1\b[^>]*>([\s\S]*?)<\/h1>/)?.[1]?.replace(/<[^>]+>/g, '') ?? '';
    expect(h1, 'the HTML itself carries the page heading').toMatch(heading);
    expect(raw).toContain(`data-prerendered="${path}"`);
    // One title (the page's own); absolute URLs point at the address asked for.
    expect(raw.match(/<title>/g)).toHaveLength(1);
    expect(raw).not.toContain('parley-origin.invalid');
    expect(raw).toContain(`<link rel="canonical" href="${new URL(path, baseURL).href}"`);

    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    // Keep the server's <h1> node from before any script runs: hydration adopts that very node,
    // whereas rendering anew (what React falls back to on a mismatch) replaces it.
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { serverH1: Element | null }).serverH1 = document.querySelector('h1');
      });
    });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect
      .poll(() =>
        page.evaluate(() => {
          const el = document.querySelector('h1');
          const adopted = !!el && el === (window as unknown as { serverH1: Element | null }).serverH1;
          return adopted && Object.keys(el).some((k) => k.startsWith('__reactFiber'));
        }),
      )
      .toBe(true);
    await expect(page.locator('head title')).toHaveCount(1);
    expect(await page.locator('head meta[name="description"]').count()).toBe(1);
    expect(problems).toEqual([]);
  });
}

test('a prerendered page is interactive once hydrated, and other routes still render in the browser', async ({
  page,
}) => {
  await page.goto('/');
  // The booking modal is wired to the hydrated markup.
  await page
    .getByRole('button', { name: /request demo/i })
    .first()
    .click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The blog with a query string and an unknown page are rendered by the browser.
  const shell = await (await page.request.get('/blog?page=1')).text();
  expect(shell).not.toContain('data-prerendered');
  await page.goto('/blog?page=1');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Insights on AI voice agents');
  await page.goto('/no-such-page');
  await expect(page.getByText(/not found/i).first()).toBeVisible();
});
