/**
 * `pnpm admin:create`: creates an admin directly in the identity database (first access,
 * recovery when every super admin is locked out, automation).
 *
 *   pnpm admin:create --email ada@example.com --first-name Ada --last-name Lovelace [--role admin|super_admin]
 *                     [--password <pw>] [--must-change-password] [--reset-password] [--database-url <url>]
 *
 * Without --password the password is asked twice with hidden input (or read from the first
 * line of stdin when it is not a terminal: `echo "$PW" | pnpm admin:create ...`), which keeps
 * it out of the shell history and the process list.
 *
 * Database: --database-url, else DATABASE_URL (the identity service's), else
 * PARLEY_POSTGRES_URL's `parley_identity` database, else the embedded server of a running
 * `pnpm start` (found through PARLEY_DATA_DIR or .data/: database `parley_identity`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { withDatabase } from '@parley/kit/local';
import { generatePrismaClients } from './lib/build.ts';
import { repoRoot } from './lib/paths.ts';

const HELP = `Usage: pnpm admin:create --email <email> --first-name <name> --last-name <name>
       [--role super_admin|admin] (default super_admin)
       [--password <password>] (default: asked with hidden input)
       [--must-change-password] (ask for a new password at first sign-in)
       [--reset-password] (the email exists: set its password, reactivate it, end its sessions)
       [--database-url <postgres url of the identity database>]`;

function fail(message: string): never {
  console.error(`admin:create: ${message}`);
  process.exit(1);
}

function databaseUrl(flag: string | undefined): string {
  if (flag) return flag;
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  if (process.env.PARLEY_POSTGRES_URL)
    return withDatabase(process.env.PARLEY_POSTGRES_URL, 'parley_identity');
  // The embedded server of `pnpm start`: its port is in postmaster.pid (4th line) while it runs.
  const dataDir = resolve(process.env.PARLEY_DATA_DIR ?? join(repoRoot, '.data'));
  const pidFile = join(dataDir, 'postgres', 'pgdata', 'postmaster.pid');
  if (existsSync(pidFile)) {
    const port = Number(readFileSync(pidFile, 'utf8').split('\n')[3]);
    if (port > 0) return `postgresql://postgres:postgres@127.0.0.1:${port}/parley_identity`;
  }
  fail('no database: pass --database-url or set DATABASE_URL (or run it while `pnpm start` is running)');
}

async function readLine(): Promise<string> {
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return '';
}

/** Asks with the typed characters hidden. */
function askHidden(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  const internals = rl as unknown as { _writeToOutput: (s: string) => void };
  let muted = false;
  internals._writeToOutput = (s: string) => {
    if (!muted) process.stdout.write(s);
  };
  return new Promise((done) => {
    rl.question(question, (answer) => {
      rl.close();
      process.stdout.write('\n');
      done(answer);
    });
    muted = true;
  });
}

async function password(flag: string | undefined): Promise<string> {
  if (flag !== undefined) return flag;
  if (!process.stdin.isTTY) return readLine();
  const first = await askHidden('Password (at least 8 characters): ');
  const second = await askHidden('Repeat the password: ');
  if (first !== second) fail('the passwords do not match');
  return first;
}

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      role: { type: 'string', default: 'super_admin' },
      password: { type: 'string' },
      'must-change-password': { type: 'boolean', default: false },
      'reset-password': { type: 'boolean', default: false },
      'database-url': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  if (!values.email || !values['first-name'] || !values['last-name']) fail(`missing required flags\n${HELP}`);
  const role = values.role;
  if (role !== 'admin' && role !== 'super_admin') fail('--role must be admin or super_admin');
  const url = databaseUrl(values['database-url']);
  // The identity service imports its Prisma client, which a fresh clone generates first.
  generatePrismaClients((m) => console.error(m));
  const { provisionAdmin } = await import('@parley/identity/service');
  const outcome = await provisionAdmin(url, {
    email: values.email,
    firstName: values['first-name'],
    lastName: values['last-name'],
    role,
    password: await password(values.password),
    mustChangePassword: values['must-change-password'],
    resetPassword: values['reset-password'],
  }).catch((err: Error) => fail(err.message));
  const where = new URL(url);
  console.log(
    outcome === 'created'
      ? `Created ${role} ${values.email.trim().toLowerCase()} in ${where.host}${where.pathname}`
      : `Password of ${values.email.trim().toLowerCase()} reset (account reactivated, sessions ended)`,
  );
}

await main();
