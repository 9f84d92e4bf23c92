import type { MailingKind } from '@parley/contracts';
import { Badge } from '../../components/ui.tsx';

/**
 * A mailing's name in the analytics, marked when it is a newsletter: a newsletter's sends are
 * counted with the campaigns' (one pipeline), but it is not on the Campaigns tab.
 */
export function MailingName({ name, kind }: { name: string; kind: MailingKind }) {
  return (
    <>
      {name}
      {kind === 'newsletter' ? (
        <Badge className="ml-2 border-fuchsia-400/40 bg-fuchsia-400/10 align-middle text-fuchsia-200">
          Newsletter
        </Badge>
      ) : null}
    </>
  );
}
