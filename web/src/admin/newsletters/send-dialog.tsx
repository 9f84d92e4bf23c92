import { NEWSLETTER_MESSAGES, type Newsletter } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, FlaskConical, Send } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { useFormFeedback } from '../components/form-feedback.tsx';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  dangerButton,
  FormAlert,
  primaryButton,
} from '../components/ui.tsx';
import { formatCount } from '../email/audience/api.ts';
import { AudienceDialog } from '../email/audience/audience-dialog.tsx';
import { MergeCheckPanel, needsAcknowledgement } from '../email/campaigns/merge-check-panel.tsx';
import { useSettings } from '../settings/api.ts';
import { parseSavedAddresses } from '../settings/testing-rules.ts';
import {
  refreshNewsletters,
  resendNewsletter,
  sendFailureToast,
  sendNewsletter,
  useNewsletterMergeCheck,
} from './api.ts';
import { RecipientChooser, useRecipientCount } from './recipient-chooser.tsx';
import { audienceOf, EMPTY_CHOICE, type RecipientChoice, sendLabel } from './recipients.ts';

/**
 * Send or Resend Newsletter (email marketing §2): the three recipient tabs, test mode for a send
 * (only the saved test addresses receive it; the newsletter stays a draft), and a button that
 * says what will happen: "Send to N Contacts", "Resend to N Contacts", or in test mode "Send to
 * 2 test addresses (test mode)". The pre-send check of merge fields warns of recipients who will
 * see a blank, to be acknowledged first. The recipients go to the server as an audience it resolves.
 */
export function SendNewsletterDialog({
  newsletter,
  resend = false,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  newsletter: Newsletter | null;
  resend?: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const settings = useSettings();
  const [choice, setChoice] = useState<RecipientChoice>(EMPTY_CHOICE);
  const [testMode, setTestMode] = useState(false);
  const count = useRecipientCount(choice, open);
  const testEnv = settings.data?.get('test_environment_enabled')?.value === 'true';
  const saved = parseSavedAddresses(settings.data?.get('test_email_addresses')?.value);
  const testAddresses = Array.isArray(saved) ? saved : [];
  const test = !resend && (testMode || testEnv);

  /** The last Send found no recipients: said under the chooser (and in a toast). */
  const [noRecipients, setNoRecipients] = useState<string | null>(null);
  const feedback = useFormFeedback<HTMLDivElement>();

  useEffect(() => {
    if (!open) return;
    setChoice(EMPTY_CHOICE);
    setTestMode(false);
    setNoRecipients(null);
  }, [open]);

  const audience = audienceOf(choice);
  const check = useNewsletterMergeCheck(newsletter?.id ?? null, audience, test, open);
  const [acknowledged, setAcknowledged] = useState(false);
  const [ackError, setAckError] = useState<string | null>(null);
  const ackBox = useRef<HTMLInputElement>(null);
  // Another audience or mode, another check: acknowledged again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset whenever the check's input changes
  useEffect(() => {
    setAcknowledged(false);
    setAckError(null);
  }, [open, choice, test]);

  const send = useMutation({
    mutationFn: ({ n, audience }: { n: Newsletter; audience: NonNullable<ReturnType<typeof audienceOf>> }) =>
      resend ? resendNewsletter(n.id, audience) : sendNewsletter(n.id, audience, test),
    onSuccess: async (r) => {
      toast({
        title: resend ? 'Newsletter Resent' : r.testMode ? 'Test Newsletter Sending' : 'Newsletter Sending',
        description: r.message,
      });
      onOpenChange(false);
      await refreshNewsletters(queryClient);
    },
    onError: (err) => toast(sendFailureToast(resend ? 'resend' : 'send', err)),
  });

  const submit = async () => {
    if (!newsletter) return;
    if (!audience || count === 0) {
      const problem =
        choice.tab === 'companies'
          ? 'Please choose at least one company whose contacts receive it.'
          : choice.tab === 'contacts'
            ? 'Please select at least one contact.'
            : 'There are no active contacts to send to.';
      setNoRecipients(problem);
      toast({ variant: 'destructive', title: NEWSLETTER_MESSAGES.noContacts, description: problem });
      feedback.report([problem]);
      return;
    }
    setNoRecipients(null);
    // The check of this very audience, waited for when it is still on its way.
    const checked = check.isFetching || check.isPlaceholderData ? (await check.refetch()).data : check.data;
    if (needsAcknowledgement(checked) && !acknowledged) {
      setAckError('Tick the box to send with these empty merge fields, or fix the newsletter first.');
      ackBox.current?.focus();
      return;
    }
    send.mutate({ n: newsletter, audience });
  };

  const title = resend ? 'Resend Newsletter' : 'Send Newsletter';
  return (
    <AudienceDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={newsletter ? `"${newsletter.name}" · ${newsletter.subject}` : ''}
      wide
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      <div ref={feedback.ref} className="space-y-4">
        {feedback.announcer}
        <RecipientChooser
          value={choice}
          onChange={(next) => {
            setChoice(next);
            setNoRecipients(null);
          }}
          count={count}
          open={open}
        />
        <FormAlert message={noRecipients} />
        {resend ? null : (
          <div className="rounded-lg border border-navy-700 p-3">
            <label className="flex items-start gap-2 text-sm text-slate-200">
              <input
                type="checkbox"
                className="mt-0.5 h-4 w-4 accent-cyan-500"
                checked={test}
                disabled={testEnv}
                aria-describedby={`${id}-test`}
                onChange={(e) => setTestMode(e.target.checked)}
              />
              <span className="font-medium text-white">Test mode</span>
            </label>
            <p id={`${id}-test`} className="mt-1 ml-6 text-xs text-slate-400">
              {testEnv
                ? 'Test Environment Mode is on in Settings: every send goes only to the saved test addresses.'
                : `Sends only to the saved test addresses (${formatCount(testAddresses.length)}), marked as a test; the recipients above are not mailed.`}
              {test && !testAddresses.length
                ? ' No test address is saved yet: add them in Settings → Testing.'
                : ''}
            </p>
          </div>
        )}
        <MergeCheckPanel
          check={check.data}
          loading={check.isFetching && !check.data}
          failed={check.isError}
          acknowledged={acknowledged}
          onAcknowledge={(on) => {
            setAcknowledged(on);
            if (on) setAckError(null);
          }}
          error={ackError}
          checkboxRef={ackBox}
        />
        {!test ? (
          <p
            role="note"
            className="flex items-start gap-2 rounded-lg border border-red-500/50 bg-red-500/10 px-3 py-2 text-sm text-red-100"
          >
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            This sends real mail to the recipients chosen above and cannot be undone.
          </p>
        ) : null}
        <DialogActions>
          <CancelButton onCancel={() => onOpenChange(false)} />
          <BusyButton
            type="button"
            busy={send.isPending}
            icon={test ? FlaskConical : Send}
            className={test ? primaryButton : dangerButton}
            onClick={() => void submit()}
          >
            {sendLabel(resend, count, test ? testAddresses.length : null)}
          </BusyButton>
        </DialogActions>
      </div>
    </AudienceDialog>
  );
}
