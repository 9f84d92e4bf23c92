import {
  CAMPAIGN_LIMITS,
  EMAIL_AI_LIMITS,
  EMAIL_AI_MESSAGES,
  ErrorBody,
  GenerateCampaignBody,
  GenerateCampaignResponse,
  type GeneratedHeader,
  OptimizeContentBody,
  OptimizeContentResponse,
} from '@parley/contracts';
import { badRequest, HttpError, type ServiceDeps, type ServiceInstance } from '@parley/kit';
import { sanitizeEmailHtml, textOfHtml } from '../../shared/email-html.ts';
import { headerImagePath } from '../../shared/header-banner.ts';
import type { Mailer } from '../delivery/mailer.service.ts';
import { renderCampaign } from './domain/campaign-renderer.ts';
import { companyFrom } from './domain/company.ts';
import type { CampaignWriter } from './writer.service.ts';

const errors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
  502: ErrorBody,
};

/** Markup no mail client runs and spam filters punish: named in the changes when the sanitiser removes it. */
const UNSAFE = /<script\b|<iframe\b|<object\b|<embed\b|<form\b|\son[a-z]+\s*=|javascript:/i;

/**
 * The AI campaign generator and content optimizer (email marketing §2 dialogs, §3 results, §5
 * validation, §8 errors). Both cost money with OpenAI: each is limited per admin (default 10
 * calls a minute per replica, EMAIL_AI_RATE_LIMIT), answering 429 with Retry-After beyond it.
 */
export async function writerRoutes(
  app: ServiceInstance,
  ctx: { deps: ServiceDeps; writer: CampaignWriter; mailer: Mailer; ratePerMinute: number },
) {
  const { deps, writer, mailer } = ctx;
  const limit = {
    rateLimit: {
      max: ctx.ratePerMinute,
      timeWindow: '1 minute',
      keyGenerator: (r: { admin?: { adminId: string }; ip: string }) => r.admin?.adminId ?? r.ip,
    },
  };
  /** What a provider's failure becomes: the spec's title, and why. */
  const failed = (title: string, err: unknown, log: { error: (o: object, m: string) => void }) => {
    if (err instanceof HttpError) return err;
    log.error({ err, provider: writer.provider }, `${title.toLowerCase()}`);
    if (writer.provider === 'local')
      return new HttpError(500, `${title}: the local writer could not write this.`);
    const reason = err instanceof Error ? err.message.slice(0, 200) : 'no answer';
    return new HttpError(502, `${title}: OpenAI did not give a usable answer (${reason}). Please try again.`);
  };

  app.post(
    '/api/admin/email/generate-campaign',
    {
      onRequest: deps.auth.admin,
      config: limit,
      schema: { body: GenerateCampaignBody, response: { 200: GenerateCampaignResponse, ...errors } },
    },
    async (request) => {
      const b = request.body;
      const prompt = b.prompt?.trim();
      if (!prompt) throw badRequest(EMAIL_AI_MESSAGES.promptRequired);
      const goal = b.goal ?? 'lead_generation';
      const includeImage = b.includeImage ?? true;
      const [brand, from] = await Promise.all([mailer.brand(), mailer.sender()]);
      const origin = mailer.origin;
      const company = companyFrom(b.companyContext, { name: brand.name, website: brand.website });
      const copy = await writer
        .writeCopy({ prompt, goal, company, origin })
        .catch((err) => Promise.reject(failed(EMAIL_AI_MESSAGES.generationFailed, err, request.log)));
      const header: GeneratedHeader = includeImage
        ? {
            kind: 'image',
            url: `${origin}${headerImagePath(goal)}`,
            note: 'A 1200×400 PNG banner for this goal, served by the site (mail clients show PNG; none shows SVG reliably).',
          }
        : { kind: 'none', url: null, note: 'No image: a coloured header band with the company name.' };
      const { html, text } = renderCampaign(copy, { company, goal, headerImageUrl: header.url });
      request.log.info({ goal, provider: writer.provider, by: request.admin?.adminId }, 'campaign generated');
      return {
        name: copy.name.slice(0, CAMPAIGN_LIMITS.name),
        subject: copy.subject.replace(/\s+/g, ' ').slice(0, CAMPAIGN_LIMITS.subject),
        fromName: from.name ?? brand.name,
        fromEmail: from.address,
        htmlContent: sanitizeEmailHtml(html),
        textContent: text,
        preheader: copy.preheader,
        goal,
        header,
        provider: writer.provider,
        model: writer.model,
      };
    },
  );

  app.post(
    '/api/admin/email/optimize-content',
    {
      onRequest: deps.auth.admin,
      config: limit,
      schema: { body: OptimizeContentBody, response: { 200: OptimizeContentResponse, ...errors } },
    },
    async (request) => {
      const { field, goal, content } = request.body;
      const given = typeof content === 'string' ? { [field]: content } : content;
      const subject = given.subject ?? '';
      const htmlContent = given.htmlContent ?? '';
      const current = field === 'subject' ? subject : htmlContent;
      if (!current.trim()) throw badRequest(EMAIL_AI_MESSAGES.emptyField(field));
      if (field === 'subject' && current.length > EMAIL_AI_LIMITS.subject)
        throw badRequest(
          `The subject is too long to optimize (at most ${EMAIL_AI_LIMITS.subject} characters)`,
        );
      const brand = await mailer.brand();
      const result = await writer
        .optimize({
          field,
          goal,
          content: current,
          context: { brand: brand.name, origin: mailer.origin, now: new Date() },
        })
        .catch((err) => Promise.reject(failed(EMAIL_AI_MESSAGES.optimizationFailed, err, request.log)));
      const changes = [...result.changes];
      let optimizedSubject = subject;
      let optimizedHtml = htmlContent;
      let textContent: string | null = null;
      if (field === 'subject') {
        optimizedSubject = result.value.replace(/\s+/g, ' ').trim().slice(0, CAMPAIGN_LIMITS.subject);
      } else {
        optimizedHtml = sanitizeEmailHtml(result.value);
        if (UNSAFE.test(result.value))
          changes.push(
            'Removed script, frames, forms, event handlers and javascript: links: mail clients block them and spam filters count them.',
          );
        textContent = textOfHtml(optimizedHtml);
      }
      request.log.info(
        { field, goal, provider: writer.provider, by: request.admin?.adminId },
        'content optimized',
      );
      return {
        subject: optimizedSubject,
        htmlContent: optimizedHtml,
        textContent,
        field,
        goal,
        changes,
        provider: writer.provider,
        model: writer.model,
      };
    },
  );
}
