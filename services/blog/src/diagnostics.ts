import type { DiagnosticResult } from '@parley/contracts';
import type { ServiceDeps } from '@parley/kit';
import type { BlogConfig } from './config.ts';
import type { ContentGenerator } from './providers/index.ts';

/**
 * The blog service's own diagnostic (answered over request/reply for the settings screen):
 * `openai-api` asks OpenAI for the writing model with the configured key when OpenAI writes;
 * the local writer is a warning (articles are written, but not by OpenAI).
 */

type Check = Omit<DiagnosticResult, 'duration'>;

export interface BlogDiagnosticsOptions {
  generator: ContentGenerator;
  /** OpenAI's API base (tests point it at a local fake); default the SDK's. */
  openAiBaseUrl?: string;
  timeoutMs?: number;
}

export async function checkOpenAi(
  generator: ContentGenerator,
  config: Pick<BlogConfig, 'OPENAI_API_KEY'>,
  opts: { baseURL?: string; timeoutMs?: number } = {},
): Promise<Check> {
  if (generator.provider !== 'openai' || !config.OPENAI_API_KEY)
    return {
      status: 'warning',
      result: 'Local writer',
      details:
        'OPENAI_API_KEY is not set: the local writer writes articles and the local renderer makes images (provider "local")',
    };
  // The SDK loads only when OpenAI writes (it costs start-up time otherwise).
  const { default: OpenAI } = await import('openai');
  const client = new OpenAI({
    apiKey: config.OPENAI_API_KEY,
    timeout: opts.timeoutMs ?? 10_000,
    maxRetries: 0,
    ...(opts.baseURL ? { baseURL: opts.baseURL } : {}),
  });
  const t0 = performance.now();
  try {
    const model = await client.models.retrieve(generator.model);
    return {
      status: 'success',
      result: 'Connected',
      details: `OpenAI accepted the key and offers ${model.id} (answered in ${Math.round(performance.now() - t0)} ms)`,
    };
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 401 || status === 403)
      return {
        status: 'error',
        result: 'Authentication failed',
        details: `OpenAI refused the API key (HTTP ${status})`,
      };
    if (status === 404)
      return {
        status: 'error',
        result: 'Model unavailable',
        details: `OpenAI accepted the key but does not offer ${generator.model} to it`,
      };
    if (status === 429)
      return {
        status: 'warning',
        result: 'Rate limited',
        details: 'OpenAI answered 429: the key is over its rate or quota',
      };
    return {
      status: 'error',
      result: 'Unreachable',
      details: `OpenAI could not be reached: ${status ? `HTTP ${status}` : (err as Error).message}`,
    };
  }
}

/**
 * Registers the check. In services/blog/src/service.ts, once `generator` exists:
 * `registerDiagnostics(deps, { generator });`
 */
export function registerDiagnostics(
  deps: Pick<ServiceDeps, 'diagnostic'> & { config: Pick<BlogConfig, 'OPENAI_API_KEY'> },
  opts: BlogDiagnosticsOptions,
): void {
  deps.diagnostic('openai-api', () =>
    checkOpenAi(opts.generator, deps.config, {
      ...(opts.openAiBaseUrl ? { baseURL: opts.openAiBaseUrl } : {}),
      ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
    }),
  );
}
