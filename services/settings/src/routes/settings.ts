import {
  ErrorBody,
  PlatformStatus,
  SaveSettingBody,
  SaveSettingResponse,
  SettingsList,
} from '@parley/contracts';
import { badRequest, HttpError, type ServiceInstance } from '@parley/kit';
import { storageModeOf } from '../config.ts';
import { defaultCategory, normaliseValue, settingProblem } from '../domain/validation.ts';
import type { RouteContext } from './context.ts';

/** Host and port of a database URL, never its credentials; and its database name. */
function describeDatabase(url: string): { server: string; database: string } {
  try {
    const u = new URL(url);
    return { server: `${u.hostname}:${u.port || '5432'}`, database: decodeURIComponent(u.pathname.slice(1)) };
  } catch {
    return { server: 'unknown', database: 'unknown' };
  }
}

export async function settingsRoutes(app: ServiceInstance, ctx: RouteContext) {
  const { deps, config, repo, probe, copies } = ctx;

  app.get(
    '/api/admin/settings',
    { onRequest: deps.auth.admin, schema: { response: { 200: SettingsList } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return repo.list();
    },
  );

  app.post(
    '/api/admin/settings',
    {
      onRequest: deps.auth.admin,
      schema: {
        body: SaveSettingBody,
        response: { 200: SaveSettingResponse, 400: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => {
      const body = request.body;
      const value = normaliseValue(body.key, body.value);
      const problem = settingProblem({ ...body, value });
      if (problem) throw badRequest(problem);
      if (body.key === 'mail_transport') await checkTransport(value);
      const result = await repo.save({
        key: body.key,
        value,
        description: body.description === undefined ? undefined : body.description?.trim() || null,
        category: body.category?.trim(),
        defaultCategory: defaultCategory(body.key),
      });
      // Committed. "Saved" also means in force: the services that keep a copy apply it before
      // this answers (even when unchanged: an earlier save may still be pending there).
      const pending = await copies.push([result.event]);
      // The key and version only: values (credentials among them) never reach the logs.
      request.log.info(
        { key: body.key, version: result.setting.version, changed: result.changed, pending },
        'setting saved',
      );
      return { success: true as const, changed: result.changed, setting: result.setting, pending };
    },
  );

  /**
   * The transport must be one the email service can use when the save answers (a "saved"
   * that changes nothing is what issue 35 found): SMTP needs a saved host; Amazon SES needs the
   * email service's own configuration, which it is asked about before anything is stored.
   */
  async function checkTransport(value: string): Promise<void> {
    if (value === 'smtp' && !(await repo.list()).some((s) => s.key === 'smtp_host' && s.isSet))
      throw badRequest('mail_transport smtp needs an SMTP host: save smtp_host first');
    if (value !== 'ses') return;
    const problems = await copies.check('email', [{ key: 'mail_transport', value }]);
    if (problems === null)
      throw new HttpError(
        503,
        'The email service did not answer, so it could not confirm that Amazon SES is configured: the transport was not changed. Try again once it runs.',
      );
    if (problems[0]) throw badRequest(problems[0].message);
  }

  app.get(
    '/api/admin/settings/status',
    { onRequest: deps.auth.admin, schema: { response: { 200: PlatformStatus } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const mode = storageModeOf(config);
      const { server, database } = describeDatabase(config.DATABASE_URL);
      const dataDir = mode === 'embedded' ? (config.PARLEY_DATA_DIR ?? null) : null;
      const description =
        mode === 'embedded'
          ? `Embedded PostgreSQL started by Parley${dataDir ? ` (data in ${dataDir})` : ''}, one database per service`
          : mode === 'external'
            ? `External PostgreSQL server at ${server}, one database per service`
            : `PostgreSQL at ${server}, one database per service (PARLEY_STORAGE does not say whether it is embedded)`;
      return {
        services: await probe.services(),
        bus: { kind: deps.bus.kind, connected: deps.bus.isConnected() },
        storage: { mode, server, database, dataDir, description },
        checkedAt: new Date().toISOString(),
      };
    },
  );
}
