import { plural } from '@parley/contracts/plural';
import { TEST_EMAIL_MAX } from '@parley/contracts/settings';
import { useMutation } from '@tanstack/react-query';
import { FlaskConical, Loader2, MousePointerClick, Plus, Save, Send, X } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { useAdmin } from '../auth/session.tsx';
import { useFormFeedback } from '../components/form-feedback.tsx';
import {
  cardClass,
  ErrorState,
  FieldError,
  inputClass,
  LoadingState,
  primaryButton,
  secondaryButton,
} from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import { sendTestEmails, sendTestTracking, serviceUnavailable, useSaveSettings, useSettings } from './api.ts';
import { EmailServiceNotice } from './email-service-notice.tsx';
import { savedToast } from './save-outcome.ts';
import { isUsableTestAddress, parseSavedAddresses, rowProblems } from './testing-rules.ts';

const NO_VALID = { title: 'No valid emails', description: 'Please enter at least one valid email address' };

/**
 * Testing (spec §2, §4, §5): 1–5 test addresses (remove only while more than one row; a row
 * counts when it is non-empty and contains an @), Test Environment Mode, Save Emails, Send Test,
 * Test Tracking. The saved list is loaded when the tab opens; the admin's own address is the
 * default when none is saved.
 */
export function TestingTab() {
  const id = useId();
  const admin = useAdmin();
  const settings = useSettings();
  const save = useSaveSettings();
  const [rows, setRows] = useState<string[] | null>(null);
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const [rowErrors, setRowErrors] = useState<Array<string | undefined>>([]);
  const feedback = useFormFeedback<HTMLElement>();
  const loaded = useRef(false);

  useEffect(() => {
    if (!settings.data || loaded.current) return;
    loaded.current = true;
    const saved = parseSavedAddresses(settings.data.get('test_email_addresses')?.value);
    if (saved === 'unreadable') {
      setRows([admin.email]);
      toast({ variant: 'destructive', title: 'Failed to load saved email addresses' });
    } else if (saved) {
      setRows(saved);
      toast({
        title: 'Test emails loaded',
        description: `${plural(saved.length, 'saved test address', 'saved test addresses')}.`,
      });
    } else {
      setRows([admin.email]);
      toast({ title: 'No saved test email addresses found', description: `Using ${admin.email} for now.` });
    }
  }, [settings.data, admin.email]);

  const testMode = settings.data?.get('test_environment_enabled')?.value === 'true';
  const valid = (rows ?? []).map((r) => r.trim()).filter(isUsableTestAddress);

  const sendTest = useMutation({
    mutationFn: (emails: string[]) => sendTestEmails(emails),
    onSuccess: (res, emails) => {
      setUnavailable(null);
      toast({
        title: 'Test emails sent successfully',
        // Whom it went to; the service's own words only when they say more (a partial failure).
        description: res?.success === false && res.message ? res.message : `Sent to ${emails.join(', ')}.`,
      });
    },
    onError: (err) => {
      setUnavailable(serviceUnavailable(err));
      toast({
        variant: 'destructive',
        title: 'Test emails failed',
        description: messageOr(err, 'Failed to send test emails'),
      });
    },
  });
  const tracking = useMutation({
    mutationFn: (email: string) => sendTestTracking(email),
    onSuccess: () => {
      setUnavailable(null);
      toast({
        title: 'Test tracking email sent',
        description: 'Open the email and click the link to test tracking.',
      });
    },
    onError: (err) => {
      setUnavailable(serviceUnavailable(err));
      toast({
        variant: 'destructive',
        title: 'Test tracking failed',
        description: messageOr(err, 'Failed to send test tracking email'),
      });
    },
  });

  if (settings.isPending || (settings.isSuccess && rows === null))
    return <LoadingState label="Loading test settings..." />;
  if (settings.isError)
    return (
      <ErrorState
        title="Settings could not be loaded"
        message={messageOr(settings.error, 'Failed to load settings')}
        onRetry={() => void settings.refetch()}
      />
    );
  const list = rows ?? [];

  const saveEmails = () => {
    if (save.isPending) return;
    // A row that is not an address is never dropped in silence: it is marked, and nothing is saved.
    const problems = rowProblems(list);
    setRowErrors(problems);
    if (valid.length === 0) {
      toast({
        variant: 'destructive',
        title: 'No valid emails',
        description: 'Please add at least one valid email address to save.',
      });
      feedback.report(
        problems.some(Boolean) ? problems : ['Please add at least one valid email address to save.'],
      );
      return;
    }
    const bad = problems.findIndex(Boolean);
    if (bad >= 0) {
      toast({
        variant: 'destructive',
        title: 'Not saved',
        description: `Test email ${bad + 1} is not a valid email address. Correct it or remove the row.`,
      });
      feedback.report(problems);
      return;
    }
    const addresses = list.map((r) => r.trim()).filter(Boolean);
    save.mutate([['test_email_addresses', JSON.stringify(addresses)]], {
      onSuccess: (outcome) => {
        toast(savedToast(outcome));
        // Empty rows were no addresses: the list now shows what was saved.
        setRows(addresses);
      },
      onError: (err) =>
        toast({
          variant: 'destructive',
          title: 'Update failed',
          description: messageOr(err, 'Failed to save settings'),
        }),
    });
  };
  const toggleTestMode = () => {
    if (save.isPending) return;
    save.mutate([['test_environment_enabled', testMode ? 'false' : 'true']], {
      onSuccess: (outcome) => toast(savedToast(outcome)),
      onError: (err) =>
        toast({
          variant: 'destructive',
          title: 'Update failed',
          description: messageOr(err, 'Failed to save settings'),
        }),
    });
  };
  const send = () => {
    if (sendTest.isPending) return;
    if (valid.length === 0) return void toast({ variant: 'destructive', ...NO_VALID });
    sendTest.mutate(valid);
  };
  const testTracking = () => {
    if (tracking.isPending) return;
    const first = valid[0];
    if (!first) return void toast({ variant: 'destructive', ...NO_VALID });
    tracking.mutate(first);
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
      <section
        ref={feedback.ref}
        aria-labelledby={`${id}-emails`}
        className={`${cardClass} space-y-4 p-4 sm:p-5`}
      >
        {feedback.announcer}
        <div>
          <h2 id={`${id}-emails`} className="flex items-center gap-2 text-lg font-semibold text-white">
            <FlaskConical className="h-5 w-5 text-brand" aria-hidden="true" />
            Test Email Addresses
          </h2>
          <p className="mt-1 text-sm text-slate-400">
            Up to {TEST_EMAIL_MAX} addresses that receive test sends.
          </p>
        </div>
        <EmailServiceNotice message={unavailable} />
        <ul className="space-y-2" aria-label="Test email addresses">
          {list.map((value, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their position.
            <li key={i}>
              <div className="flex items-center gap-2">
                <label htmlFor={`${id}-row-${i}`} className="sr-only">
                  Test email {i + 1}
                </label>
                <input
                  id={`${id}-row-${i}`}
                  type="email"
                  autoComplete="off"
                  maxLength={254}
                  className={inputClass}
                  value={value}
                  placeholder="name@example.com"
                  aria-invalid={rowErrors[i] ? true : undefined}
                  aria-describedby={rowErrors[i] ? `${id}-row-${i}-error` : undefined}
                  onChange={(e) => {
                    const v = e.target.value;
                    setRows((r) => (r ?? []).map((x, j) => (j === i ? v : x)));
                    setRowErrors((errs) => errs.map((x, j) => (j === i ? undefined : x)));
                  }}
                />
                {list.length > 1 ? (
                  <button
                    type="button"
                    className={`${secondaryButton} shrink-0 px-2`}
                    aria-label={`Remove test email ${i + 1}`}
                    onClick={() => {
                      setRows((r) => (r ?? []).filter((_, j) => j !== i));
                      setRowErrors((errs) => errs.filter((_, j) => j !== i));
                    }}
                  >
                    <X className="h-4 w-4" aria-hidden="true" />
                  </button>
                ) : null}
              </div>
              <FieldError id={`${id}-row-${i}-error`} message={rowErrors[i]} />
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={secondaryButton}
            disabled={list.length >= TEST_EMAIL_MAX}
            onClick={() => setRows((r) => [...(r ?? []), ''])}
          >
            <Plus className="h-4 w-4" aria-hidden="true" />
            Add Email
          </button>
          <button
            type="button"
            className={primaryButton}
            onClick={saveEmails}
            disabled={save.isPending}
            aria-busy={save.isPending}
          >
            <Save className="h-4 w-4" aria-hidden="true" />
            Save Emails
          </button>
          <button
            type="button"
            className={secondaryButton}
            onClick={send}
            disabled={sendTest.isPending}
            aria-busy={sendTest.isPending}
          >
            {sendTest.isPending ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
            ) : (
              <Send className="h-4 w-4" aria-hidden="true" />
            )}
            {sendTest.isPending ? 'Sending...' : 'Send Test'}
          </button>
          <button
            type="button"
            className={secondaryButton}
            onClick={testTracking}
            disabled={tracking.isPending}
            aria-busy={tracking.isPending}
          >
            {tracking.isPending ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
            ) : (
              <MousePointerClick className="h-4 w-4" aria-hidden="true" />
            )}
            {tracking.isPending ? 'Sending...' : 'Test Tracking'}
          </button>
        </div>
      </section>
      <section aria-labelledby={`${id}-mode`} className={`${cardClass} space-y-3 p-4 sm:p-5`}>
        <h2 id={`${id}-mode`} className="text-lg font-semibold text-white">
          Test Environment Mode
        </h2>
        <div className="flex items-center justify-between gap-4">
          <p id={`${id}-mode-text`} className="text-sm text-slate-400">
            When on, every campaign sends only to the test addresses, and test emails carry a header showing
            test mode and the original recipient count.
          </p>
          <button
            type="button"
            role="switch"
            aria-checked={testMode}
            aria-labelledby={`${id}-mode`}
            aria-describedby={`${id}-mode-text`}
            disabled={save.isPending}
            onClick={toggleTestMode}
            className={`relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition ${
              testMode ? 'bg-brand' : 'bg-navy-600'
            } disabled:opacity-60`}
          >
            <span
              aria-hidden="true"
              className={`inline-block h-5 w-5 rounded-full bg-white shadow transition ${testMode ? 'translate-x-5' : 'translate-x-0.5'}`}
            />
          </button>
        </div>
        <p className="text-sm font-medium text-slate-200" data-testid="test-mode-state">
          {testMode
            ? 'Test mode is on: campaigns go to the test addresses only.'
            : 'Test mode is off: campaigns go to their recipients.'}
        </p>
      </section>
    </div>
  );
}
