/**
 * Stops at once, naming the command to run, when the Node.js running this is not the project's
 * (major 24, at least 24.15: .node-version pins the exact release). Run by `pnpm install`
 * (pnpm:devPreinstall), `pnpm start` and `pnpm test` before anything else; `--quiet` only sets
 * the exit code (scripts/node.sh asks it).
 */
const [major, minor] = process.versions.node.split('.').map(Number);
const ok = major === 24 && minor >= 15;
if (!ok) {
  if (!process.argv.includes('--quiet')) {
    console.error(
      [
        `Parley runs on Node.js 24 (24.15 or newer); this is Node.js ${process.version}.`,
        'Put Node.js 24 first on PATH (fetched once from the npm registry, no root needed), then run the command again:',
        '',
        '  eval "$(bash scripts/node.sh)"',
        '',
      ].join('\n'),
    );
  }
  process.exit(1);
}
