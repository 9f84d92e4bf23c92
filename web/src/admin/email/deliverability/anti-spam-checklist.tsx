import { CheckCircle2, ListChecks } from 'lucide-react';
import { useId } from 'react';
import { Badge, cardClass } from '../../components/ui.tsx';

/** The spec's static anti-spam checklist; `automatic` marks what the service does on every send. */
export const ANTI_SPAM_CHECKLIST: { text: string; automatic?: true }[] = [
  { text: 'Send from your own domain, with SPF, DKIM and DMARC published (Check DNS above).' },
  { text: 'Mail only people who opted in; never buy, rent or scrape lists.' },
  {
    text: 'Every mail carries a visible unsubscribe link and one-click List-Unsubscribe, honoured at once.',
    automatic: true,
  },
  { text: 'Bounced and complaining addresses are suppressed and never mailed again.', automatic: true },
  { text: 'A plain-text part goes with the HTML (made from it when you write none).', automatic: true },
  { text: 'Use a from name people recognise and an honest subject: no ALL CAPS, "!!!" or a fake "Re:".' },
  { text: 'Keep the HTML under 100 KB: Gmail clips messages over 102 KB.' },
  { text: 'Balance text and images; never send a mail that is one big image.' },
  { text: 'Include your postal address (CAN-SPAM, CASL).' },
  { text: 'Run a deliverability test to your own Gmail, Outlook and Yahoo inboxes before each campaign.' },
  { text: 'Grow volume gradually and keep a steady sending rhythm.' },
];

export function AntiSpamChecklist() {
  const id = useId();
  return (
    <section aria-labelledby={id} className={`${cardClass} p-4 sm:p-5`}>
      <h3 id={id} className="flex items-center gap-2 text-lg font-semibold text-white">
        <ListChecks className="h-5 w-5 text-brand" aria-hidden="true" />
        Anti-spam checklist
      </h3>
      <ul className="mt-3 space-y-2" data-testid="anti-spam-checklist">
        {ANTI_SPAM_CHECKLIST.map((item) => (
          <li key={item.text} className="flex items-start gap-2 text-sm text-slate-300">
            <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-slate-500" aria-hidden="true" />
            <span>
              {item.text}
              {item.automatic ? (
                <Badge className="ml-2 border-emerald-400/40 bg-emerald-400/10 text-emerald-200">
                  Automatic
                </Badge>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
