import { NEWSLETTER_MESSAGES, type Newsletter } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CalendarClock } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { formatScheduledTime } from '../../lib/time.ts';
import { AdminForm } from '../components/form-feedback.tsx';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  FormAlert,
  inputClass,
  labelClass,
} from '../components/ui.tsx';
import { localTimeZone } from '../email/analytics/api.ts';
import { AudienceDialog } from '../email/audience/audience-dialog.tsx';
import { failureToast, refreshNewsletters, scheduleNewsletter } from './api.ts';
import { RecipientChooser, useRecipientCount } from './recipient-chooser.tsx';
import { audienceOf, EMPTY_CHOICE, type RecipientChoice, scheduleInstant } from './recipients.ts';

const pad = (n: number) => String(n).padStart(2, '0');
/** Today as the date input writes it, in the admin's zone (the earliest date offered). */
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
};

/**
 * Schedule Newsletter (email marketing §2, §5): a date and a time in the admin's zone (both
 * required, 'Please select a date and time'; in the future) and the same recipient tabs as the
 * send; the server dispatches it when the time comes, resolving the recipients then.
 */
export function ScheduleNewsletterDialog({
  newsletter,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  newsletter: Newsletter | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const [date, setDate] = useState('');
  const [time, setTime] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [choice, setChoice] = useState<RecipientChoice>(EMPTY_CHOICE);
  const count = useRecipientCount(choice, open);

  useEffect(() => {
    if (!open) return;
    setDate('');
    setTime('');
    setError(null);
    setChoice(EMPTY_CHOICE);
  }, [open]);

  const schedule = useMutation({
    mutationFn: ({
      n,
      at,
      audience,
    }: {
      n: Newsletter;
      at: Date;
      audience: NonNullable<ReturnType<typeof audienceOf>>;
    }) => scheduleNewsletter(n.id, at.toISOString(), audience),
    onSuccess: async (r, { at }) => {
      toast({
        title: 'Newsletter Scheduled',
        description: `"${r.newsletter.name}" goes out ${formatScheduledTime(at.toISOString())}.`,
      });
      onOpenChange(false);
      await refreshNewsletters(queryClient);
    },
    onError: (err) => toast(failureToast('schedule', err)),
  });

  const submit = () => {
    if (!newsletter) return;
    const when = scheduleInstant(date, time);
    if (!when.ok) {
      const problem = when.reason === 'missing' ? NEWSLETTER_MESSAGES.dateTime : NEWSLETTER_MESSAGES.pastDate;
      setError(problem);
      return [problem];
    }
    const audience = audienceOf(choice);
    if (!audience || count === 0) {
      const problem =
        choice.tab === 'companies'
          ? `${NEWSLETTER_MESSAGES.noContacts}: choose at least one company.`
          : choice.tab === 'contacts'
            ? `${NEWSLETTER_MESSAGES.noContacts}: select at least one contact.`
            : `${NEWSLETTER_MESSAGES.noContacts}: there are no active contacts.`;
      setError(problem);
      return [problem];
    }
    setError(null);
    schedule.mutate({ n: newsletter, at: when.at, audience });
  };

  const invalid = error === NEWSLETTER_MESSAGES.dateTime || error === NEWSLETTER_MESSAGES.pastDate;
  return (
    <AudienceDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Schedule Newsletter"
      description={newsletter ? `"${newsletter.name}" · ${newsletter.subject}` : ''}
      wide
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      <AdminForm className="space-y-4" onSubmit={submit}>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor={`${id}-date`} className={labelClass}>
              Date
            </label>
            <input
              id={`${id}-date`}
              type="date"
              className={inputClass}
              min={today()}
              value={date}
              required
              aria-invalid={
                invalid && !date ? true : error === NEWSLETTER_MESSAGES.pastDate ? true : undefined
              }
              aria-describedby={`${id}-zone`}
              onChange={(e) => {
                setDate(e.target.value);
                setError(null);
              }}
            />
          </div>
          <div>
            <label htmlFor={`${id}-time`} className={labelClass}>
              Time
            </label>
            <input
              id={`${id}-time`}
              type="time"
              className={inputClass}
              value={time}
              required
              aria-invalid={
                invalid && !time ? true : error === NEWSLETTER_MESSAGES.pastDate ? true : undefined
              }
              aria-describedby={`${id}-zone`}
              onChange={(e) => {
                setTime(e.target.value);
                setError(null);
              }}
            />
          </div>
        </div>
        <p id={`${id}-zone`} className="-mt-2 text-xs text-slate-400">
          In your time zone ({localTimeZone()}).
        </p>
        <RecipientChooser value={choice} onChange={setChoice} count={count} open={open} />
        <FormAlert message={error} />
        <DialogActions>
          <CancelButton onCancel={() => onOpenChange(false)} />
          <BusyButton busy={schedule.isPending} icon={CalendarClock}>
            Schedule Newsletter
          </BusyButton>
        </DialogActions>
      </AdminForm>
    </AudienceDialog>
  );
}
