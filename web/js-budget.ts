import { resolve } from 'node:path';
import type { Plugin } from 'vite';
import { checkJsBudget, JS_BUDGET_BYTES } from './budget.ts';

/**
 * Fails the browser build when the public home's initial JavaScript passes its budget, so a
 * change that grows it shows at once, in the build that made it. The figure and the budget are
 * web/budget.ts's, read from the bundle just written (its manifest and files). Only
 * the client build: the server bundle of the prerenderer (`vite build --ssr`) ships to no one.
 */
export function jsBudget(budgetBytes = JS_BUDGET_BYTES): Plugin {
  let webDir = '';
  let distDir = '';
  return {
    name: 'parley:js-budget',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      webDir = config.root;
      distDir = resolve(config.root, config.build.outDir);
    },
    // After every file of the bundle is on disk (a failed build never gets here).
    writeBundle: {
      sequential: true,
      order: 'post',
      handler() {
        const check = checkJsBudget({ webDir, distDir }, budgetBytes);
        if (!check.ok) this.error(check.message);
        this.info(check.message);
      },
    },
  };
}
