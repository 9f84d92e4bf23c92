import { CAMPAIGN_MESSAGES, type Campaign, type MergeCheckResponse } from '@parley/contracts';
import { plural } from '@parley/contracts/plural';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import clsx from 'clsx';
import { AlertTriangle, FlaskConical, Rocket } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from '../../../components/toast/index.ts';
import { formatScheduledTime } from '../../../lib/time.ts';
import { useFormFeedback } from '../../components/form-feedback.tsx';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  dangerButton,
  FormAlert,
  primaryButton,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { useSettings } from '../../settings/api.ts';
import { parseSavedAddresses } from '../../settings/testing-rules.ts';
import { formatCount } from '../audience/api.ts';
import { AudienceDialog } from '../audience/audience-dialog.tsx';
import { refreshCampaigns, resendCampaign, sendCampaign, sendErrorToast, useMergeCheck } from './api.ts';
import { MergeCheckPanel, needsAcknowledgement } from './merge-check-panel.tsx';
import { TargetPicker, type Targets } from './target-picker.tsx';

type Mode = 'test' | 'live';

/**
 * The send confirmation (email marketing §4, §8) and the resend dialog: the recipients (the
 * chosen address books' active contacts, the chosen contacts and, for a send, the active
 * contacts of the chosen segments) and how many they are, test or live mode for a send; a live
 * send cannot be undone. The pre-send check of merge fields warns of recipients
 * who will see a blank; it must be acknowledged before sending. A test-mode send leaves the
 * campaign a draft, and the button says so. Failures get the spec's notices.
 */
export function SendDialog({
  campaign,
  resend,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  campaign: Campaign | null;
  /** Resend a sent campaign to chosen contacts (no test mode). */
  resend?: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const id = useId();
  const queryClient = useQueryClient();
  const settings = useSettings();
  const [mode, setMode] = useState<Mode>('test');
  const [targets, setTargets] = useState<Targets>({ bookIds: [], contactIds: [], segmentIds: [] });
  const { bookIds, contactIds, segmentIds } = targets;
  /** The last Send found no recipients: said beside the picker (and in a toast). */
  const [noRecipients, setNoRecipients] = useState<string | null>(null);
  const feedback = useFormFeedback<HTMLDivElement>();
  const testEnv = settings.data?.get('test_environment_enabled')?.value === 'true';
  const saved = parseSavedAddresses(settings.data?.get('test_email_addresses')?.value);
  const testAddresses = Array.isArray(saved) ? saved : [];

  useEffect(() => {
    if (!open) return;
    setMode('test');
    setNoRecipients(null);
    setTargets({
      bookIds: resend ? [] : (campaign?.targetAddressBookIds ?? []),
      contactIds: resend ? [] : (campaign?.targetContactIds ?? []),
      segmentIds: resend ? [] : (campaign?.targetSegmentIds ?? []),
    });
  }, [open, campaign, resend]);

  const live = resend || (mode === 'live' && !testEnv);
  const chosen = bookIds.length > 0 || contactIds.length > 0 || segmentIds.length > 0;
  const checking = open && chosen;
  // Every list sent, the empty ones too: an absent one would mean the campaign's saved targets.
  const check = useMergeCheck(
    campaign?.id ?? null,
    { addressBookIds: bookIds, contactIds, segmentIds, testMode: !live },
    checking,
  );
  const [acknowledged, setAcknowledged] = useState(false);
  const [ackError, setAckError] = useState<string | null>(null);
  const ackBox = useRef<HTMLInputElement>(null);
  // Another audience or mode, another check: acknowledged again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset whenever the check's input changes
  useEffect(() => {
    setAcknowledged(false);
    setAckError(null);
  }, [open, targets, live]);

  const send = useMutation({
    mutationFn: (c: Campaign) =>
      resend
        ? resendCampaign(c.id, contactIds, bookIds)
        : sendCampaign(c.id, {
            addressBookIds: bookIds,
            contactIds,
            segmentIds,
            confirmSend: true,
            testMode: mode === 'test',
          }),
    onSuccess: async (r) => {
      const at = r.campaign.status === 'scheduled' ? r.campaign.scheduledAt : null;
      toast(
        at
          ? {
              // The moment in the admin's locale and zone, not the service's ISO text.
              title: r.testMode ? 'Test Campaign Scheduled' : 'Campaign Scheduled',
              description: `"${r.campaign.name}" goes out ${formatScheduledTime(at)}.`,
            }
          : {
              title: resend ? 'Campaign Resent' : r.testMode ? 'Test Campaign Sending' : 'Campaign Launched',
              description: r.message,
            },
      );
      onOpenChange(false);
      await refreshCampaigns(queryClient);
    },
    onError: (err) => {
      const notice = sendErrorToast(err);
      toast(resend && notice.title === 'Error' ? { ...notice, title: 'Resend Failed' } : notice);
    },
  });

  const submit = async () => {
    if (!campaign) return;
    const none = !chosen;
    const problem =
      resend && none
        ? CAMPAIGN_MESSAGES.noContactsResend
        : !resend && none && mode === 'live' && !testEnv
          ? CAMPAIGN_MESSAGES.noContactsLive
          : null;
    setNoRecipients(problem);
    if (problem) {
      toast({ variant: 'destructive', title: CAMPAIGN_MESSAGES.noContacts, description: problem });
      feedback.report([problem]);
      return;
    }
    // The check of this very audience, waited for when it is still on its way.
    const checked =
      checking && (check.isFetching || check.isPlaceholderData) ? (await check.refetch()).data : check.data;
    if (needsAcknowledgement(checked) && !acknowledged) {
      setAckError('Tick the box to send with these empty merge fields, or edit the campaign first.');
      ackBox.current?.focus();
      return;
    }
    send.mutate(campaign);
  };

  const tests = testAddresses.length;
  const label = resend
    ? 'Resend Campaign'
    : live
      ? 'Send Live'
      : `Send to ${formatCount(tests)} test address${tests === 1 ? '' : 'es'} (test mode)`;
  return (
    <AudienceDialog
      open={open}
      onOpenChange={onOpenChange}
      title={resend ? 'Resend Campaign' : 'Send Campaign'}
      description={campaign ? `"${campaign.name}" · ${campaign.subject}` : ''}
      wide
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      <div ref={feedback.ref} className="space-y-4">
        {feedback.announcer}
        {resend ? null : (
          <fieldset>
            <legend className="mb-1 text-sm font-medium text-slate-300">Mode</legend>
            <div className="grid gap-2 sm:grid-cols-2">
              <ModeOption
                name={id}
                checked={mode === 'test'}
                onChange={() => setMode('test')}
                title="Test mode"
                text={`Only to the saved test addresses (${formatCount(testAddresses.length)}); the campaign stays a draft.`}
              />
              <ModeOption
                name={id}
                checked={mode === 'live'}
                onChange={() => setMode('live')}
                title="Live"
                text="To every recipient below. A live send cannot be undone."
              />
            </div>
          </fieldset>
        )}
        {testEnv && !resend ? (
          <p
            role="note"
            className="rounded-lg border border-amber-400/40 bg-amber-400/10 px-3 py-2 text-sm text-amber-100"
          >
            Test Environment Mode is on in Settings: every send goes only to the saved test addresses.
          </p>
        ) : null}
        <TargetPicker
          targets={targets}
          segments={!resend}
          onChange={(next) => {
            setTargets(next);
            setNoRecipients(null);
          }}
        />
        {checking ? (
          <AudienceSize
            check={check.data}
            counting={check.isFetching}
            failure={check.isError ? messageOr(check.error, 'The recipients could not be counted.') : null}
            live={live}
          />
        ) : null}
        <FormAlert message={noRecipients} />
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
        {live ? (
          <p
            role="alert"
            className="flex items-start gap-2 rounded-lg border border-red-500/50 bg-red-500/10 px-3 py-2 text-sm text-red-100"
          >
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            This sends real mail to the active contacts chosen above and cannot be undone.
          </p>
        ) : null}
        <DialogActions>
          <CancelButton onCancel={() => onOpenChange(false)} />
          <BusyButton
            type="button"
            busy={send.isPending}
            icon={live ? Rocket : FlaskConical}
            className={live ? dangerButton : primaryButton}
            onClick={() => void submit()}
          >
            {label}
          </BusyButton>
        </DialogActions>
      </div>
    </AudienceDialog>
  );
}

/**
 * How many the chosen audience reaches now (the pre-send check counts it as a send resolves it:
 * active contacts, once per address, less the suppression list).
 */
function AudienceSize({
  check,
  counting,
  failure,
  live,
}: {
  check: MergeCheckResponse | undefined;
  counting: boolean;
  /** The check's refusal (a chosen segment deleted meanwhile), said instead of a count. */
  failure: string | null;
  live: boolean;
}) {
  return (
    <p
      role="status"
      aria-busy={counting}
      className={clsx('text-sm', failure ? 'text-amber-200' : 'text-slate-200')}
      data-testid="send-recipients"
    >
      {failure
        ? failure
        : check
          ? live
            ? `Sends to ${plural(check.recipients, 'recipient')}.`
            : `This audience: ${plural(check.recipients, 'recipient')} (a test-mode send goes to the test addresses only).`
          : 'Counting the recipients…'}
    </p>
  );
}

function ModeOption({
  name,
  checked,
  onChange,
  title,
  text,
}: {
  name: string;
  checked: boolean;
  onChange: () => void;
  title: string;
  text: string;
}) {
  return (
    <label
      className={clsx(
        'flex cursor-pointer items-start gap-2 rounded-lg border p-3 text-sm',
        checked ? 'border-brand bg-brand/10' : 'border-navy-700',
      )}
    >
      <input
        type="radio"
        name={name}
        className="mt-0.5 accent-cyan-500"
        checked={checked}
        onChange={onChange}
      />
      <span>
        <span className="block font-medium text-white">{title}</span>
        <span className="block text-xs text-slate-400">{text}</span>
      </span>
    </label>
  );
}
