import type pg from 'pg';
import type { TokenSigner } from '../../shared/tokens.ts';
import type { CampaignMailRenderer } from '../delivery/sent-mail.routes.ts';
import { composerFor, readSendContent } from './send-content.repository.ts';

/**
 * Renders campaign mail again from its send's content and its recipient's fields, with the
 * Date it was composed at (its claim's time): the same bytes it was sent with (before a DKIM
 * signature), for Sent mail. Null when its send's content cannot be had. Each send's composer
 * is made once per answer.
 */
export function campaignMailRenderer(
  pool: pg.Pool,
  opts: { origin: string; signer: TokenSigner },
): CampaignMailRenderer {
  return () => {
    const composers = new Map<number, Promise<ReturnType<typeof composerFor> | null>>();
    return async (m) => {
      let c = composers.get(m.sendId);
      if (!c) {
        c = readSendContent(pool, m.sendId).then((content) => (content ? composerFor(content, opts) : null));
        composers.set(m.sendId, c);
      }
      const composer = await c;
      if (!composer) return null;
      try {
        return await composer.compose(
          {
            email: m.email,
            firstName: m.firstName,
            lastName: m.lastName,
            company: m.company,
            attributes: m.attributes,
          },
          m.trackingId,
          m.sendingAt,
        );
      } catch {
        // A mail that could not be composed then cannot now either: listed as its row says.
        return null;
      }
    };
  };
}
