import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

// The promise of typed SQL (docs/adr/0066-typed-sql-with-kysely.md): the row types come from
// the Prisma schema, so a schema change that breaks a query fails the typecheck. This renames
// a column in a copy of the schema, generates the types from it as `pnpm generate` does, and
// typechecks the service's sources against them.
const emailDir = resolve(import.meta.dirname, '..');
const repoRoot = resolve(emailDir, '../..');
const work = mkdtempSync(join(tmpdir(), 'parley-typed-sql-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The service's sources typechecked with the Kysely types generated from `schemaText`. */
function typecheckAgainst(schemaText: string): ts.Diagnostic[] {
  const dir = mkdtempSync(join(work, 'schema-'));
  mkdirSync(join(dir, 'prisma'));
  writeFileSync(join(dir, 'prisma/schema.prisma'), schemaText);
  execFileSync(
    join(emailDir, 'node_modules/.bin/prisma'),
    ['generate', '--schema', join(dir, 'prisma/schema.prisma'), '--generator', 'kysely'],
    {
      cwd: emailDir,
      // The generator runs as `prisma-kysely`, from the service's own binaries as `pnpm generate` runs it.
      env: {
        ...process.env,
        PATH: `${join(emailDir, 'node_modules/.bin')}:${process.env.PATH}`,
        PRISMA_SCHEMA_ENGINE_BINARY: '/bin/true',
      },
      stdio: 'pipe',
    },
  );
  const real = join(emailDir, 'src/generated/kysely');
  const generated = join(dir, 'src/generated/kysely');
  const redirect = (file: string) => (file.startsWith(real) ? generated + file.slice(real.length) : file);

  const config = ts.getParsedCommandLineOfConfigFile(
    join(repoRoot, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => expect.fail(String(d.messageText)) },
  );
  if (!config) throw new Error('tsconfig.json did not parse');
  const host = ts.createCompilerHost(config.options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (file, ...rest) => getSourceFile.call(host, redirect(file), ...rest);
  host.fileExists = (file) => fileExists.call(host, redirect(file));
  host.readFile = (file) => readFile.call(host, redirect(file));
  // The sources that build statements with `db` (the program follows their imports).
  const sources = config.fileNames.filter(
    (f) =>
      f.startsWith(`${join(emailDir, 'src')}/`) &&
      /from '[./]*\/?(shared\/)?sql\.ts'/.test(readFileSync(f, 'utf8')),
  );
  expect(sources.length).toBeGreaterThan(5);
  return [...ts.getPreEmitDiagnostics(ts.createProgram(sources, config.options, host))];
}

describe('typed SQL', () => {
  it('fails the typecheck where a query names a column the schema no longer has', () => {
    const schema = readFileSync(join(emailDir, 'prisma/schema.prisma'), 'utf8');
    // email_campaigns.subject becomes email_campaigns.subject_line.
    const renamed = schema.replace(
      /(model EmailCampaign \{[^}]*?\n\s+subject\s+String)\n/,
      '$1 @map("subject_line")\n',
    );
    expect(renamed).not.toBe(schema);

    const errors = typecheckAgainst(renamed).map((d) => ({
      file: d.file ? relative(repoRoot, d.file.fileName) : '(none)',
      message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    }));
    const files = new Set(errors.map((e) => e.file));
    // The send's content reads and keeps the campaign's subject.
    expect(files).toContain('services/email/src/features/campaigns/send-content.repository.ts');
    expect(errors.some((e) => /subject/.test(e.message))).toBe(true);
    // Nothing outside the service's sources broke (the rename touched only its types).
    for (const file of files) expect(file.startsWith('services/email/src/')).toBe(true);
  }, 180_000);
});
