import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Waits until every finite CSS animation and transition on the page has run its course. A toast
 * fading in or out is half transparent, and axe would measure the contrast of that passing frame
 * rather than of what a reader sees. Endless ones (a pulsing "live" dot, a spinner) are left
 * running: they never finish, and they do not fade text.
 */
async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // A finishing animation can start another (a toast's exit after its entry), so look again
    // until a look finds none still running.
    for (let look = 0; look < 10; look++) {
      const running = document
        .getAnimations()
        .filter((a) => a.playState === 'running' && Number.isFinite(a.effect?.getComputedTiming().endTime));
      if (running.length === 0) return;
      // A cancelled animation rejects `finished`; either way it no longer paints.
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });
}

/**
 * Runs axe-core (WCAG 2.x A/AA rules) on the page once its animations have settled and fails
 * on any serious or critical violation, listing each with the offending elements.
 */
export async function expectNoSeriousA11yViolations(page: Page, context?: string): Promise<void> {
  await settleAnimations(page);
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map(
    (v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}`).join('\n')}`,
  );
  expect(report, `axe violations${context ? ` on ${context}` : ''}`).toEqual([]);
}
