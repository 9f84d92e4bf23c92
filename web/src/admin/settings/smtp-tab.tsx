import type { MailTransportStatus } from '@parley/contracts';
import { DEFAULT_SMTP_PORT, MAIL_TRANSPORT_LABELS } from '@parley/contracts/settings';
import { useMutation } from '@tanstack/react-query';
import { AlertTriangle, Loader2, Mailbox, Send } from 'lucide-react';
import { useCallback, useId, useMemo, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { isEmail } from '../../lib/email.ts';
import { useAdmin } from '../auth/session.tsx';
import { AdminForm } from '../components/form-feedback.tsx';
import {
  cardClass,
  FieldError,
  inputClass,
  LoadingState,
  labelClass,
  secondaryButton,
} from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import { sendTestEmails, serviceUnavailable, useMailTransport } from './api.ts';
import { EmailServiceNotice } from './email-service-notice.tsx';
import { type FieldDef, SettingsForm } from './settings-form.tsx';

/** The SMTP settings; `mail_transport` (the choice of transport) is put in front by SmtpTab. */
export const SMTP_FIELDS: FieldDef[] = [
  {
    key: 'smtp_host',
    label: 'SMTP Host',
    placeholder: 'smtp.example.com',
    clearHint: 'To stop sending through SMTP, choose Local mailbox under “Send mail through”.',
  },
  {
    key: 'smtp_port',
    label: 'SMTP Port',
    kind: 'port',
    defaultValue: String(DEFAULT_SMTP_PORT),
    hint: '587 (STARTTLS) is the usual port; 465 for TLS from the start.',
  },
  { key: 'smtp_username', label: 'SMTP Username', placeholder: 'sales@example.com', autoComplete: 'off' },
  { key: 'smtp_password', label: 'SMTP Password', kind: 'password' },
  { key: 'smtp_from_name', label: 'From Name', placeholder: 'Your company' },
  { key: 'smtp_from_email', label: 'From Email', kind: 'email', placeholder: 'sales@example.com' },
];

export const SMTP_MISMATCH_WARNING =
  'The SMTP username and the default From Email must be the same authenticated address: a mismatch makes the mail server refuse to send.';

/** Test Email Configuration: sends one test mail through the email service. */
function TestEmailCard() {
  const id = useId();
  const admin = useAdmin();
  const [email, setEmail] = useState(admin.email);
  const [error, setError] = useState<string | undefined>();
  const [unavailable, setUnavailable] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (to: string) => sendTestEmails([to]),
    onSuccess: (res, to) => {
      setUnavailable(null);
      toast({
        title: 'Test emails sent successfully',
        description: res?.success === false && res.message ? res.message : `A test email went to ${to}.`,
      });
    },
    onError: (err) => {
      setUnavailable(serviceUnavailable(err));
      toast({
        variant: 'destructive',
        title: 'Test email failed',
        description: messageOr(err, 'Failed to send test email'),
      });
    },
  });
  const submit = () => {
    if (send.isPending) return;
    const to = email.trim();
    if (!isEmail(to)) {
      setError('Please enter a valid email');
      return ['Please enter a valid email'];
    }
    setError(undefined);
    send.mutate(to);
  };
  return (
    <AdminForm
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      className={`${cardClass} space-y-3 p-4 sm:p-5`}
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        Test Email Configuration
      </h2>
      <p className="text-sm text-slate-400">
        Send a test email through the saved transport (the local mailbox, SMTP or Amazon SES).
      </p>
      <EmailServiceNotice message={unavailable} />
      <div>
        <label htmlFor={`${id}-email`} className={labelClass}>
          Send test to
        </label>
        <input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          className={inputClass}
          value={email}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-email-error` : undefined}
          onChange={(e) => setEmail(e.target.value)}
        />
        <FieldError id={`${id}-email-error`} message={error} />
      </div>
      <button type="submit" className={secondaryButton} disabled={send.isPending} aria-busy={send.isPending}>
        {send.isPending ? (
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
        ) : (
          <Send className="h-4 w-4" aria-hidden="true" />
        )}
        {send.isPending ? 'Sending...' : 'Send Test Email'}
      </button>
    </AdminForm>
  );
}

/** The transport choice: every transport, Amazon SES only when the operator configured it. */
export function transportField(status: MailTransportStatus | undefined): FieldDef {
  const ses = status?.ses;
  return {
    key: 'mail_transport',
    label: 'Send mail through',
    kind: 'choice',
    saveLast: true,
    // Never chosen yet: what is in force now (the email service's earlier rule).
    ...(status && !status.chosen && status.current ? { defaultValue: status.current } : {}),
    options: [
      {
        value: 'local',
        label: MAIL_TRANSPORT_LABELS.local,
        hint: 'Kept in Email → Sent mail, not delivered. For trying the platform.',
      },
      { value: 'smtp', label: MAIL_TRANSPORT_LABELS.smtp, hint: 'The server below, with its login.' },
      {
        value: 'ses',
        label: MAIL_TRANSPORT_LABELS.ses,
        hint: ses?.available
          ? `Configured by the operator (region ${ses.region}).`
          : 'Not configured: the operator sets it up on the email service (SES_REGION).',
        disabled: !ses?.available,
      },
    ],
  };
}

/** Where mail goes now, as the email service says (or why it cannot say). */
function TransportNow({ status, error }: { status: MailTransportStatus | undefined; error: unknown }) {
  if (!status)
    return error ? (
      <p className="text-sm text-amber-200" data-testid="mail-transport-now">
        The email service did not say where mail goes now ({messageOr(error, 'not available')}).
      </p>
    ) : null;
  return (
    <p
      role={status.problem ? 'alert' : 'status'}
      data-testid="mail-transport-now"
      className={`flex items-start gap-2 text-sm ${status.problem ? 'text-red-200' : 'text-slate-300'}`}
    >
      <Mailbox className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <span>
        {status.problem
          ? `Mail is not going out: ${status.problem}.`
          : `In use now: ${status.current ? MAIL_TRANSPORT_LABELS[status.current] : ''} — ${status.description}.`}
      </span>
    </p>
  );
}

/** SMTP (spec §2, §5): the transport, the outgoing mail configuration and the Test Email Configuration card. */
export function SmtpTab() {
  const [values, setValues] = useState<Record<string, string>>({});
  const onValuesChange = useCallback((v: Record<string, string>) => setValues(v), []);
  const transport = useMailTransport();
  const fields = useMemo(() => [transportField(transport.data), ...SMTP_FIELDS], [transport.data]);
  const user = values.smtp_username?.trim().toLowerCase() ?? '';
  const from = values.smtp_from_email?.trim().toLowerCase() ?? '';
  const mismatch = Boolean(user && from && user !== from);
  const validate = useCallback(
    (v: Record<string, string>): Record<string, string> =>
      v.mail_transport === 'smtp' && !v.smtp_host?.trim()
        ? { smtp_host: 'Enter the SMTP host to send mail through SMTP.' }
        : {},
    [],
  );
  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:items-start">
      {transport.isPending ? (
        <LoadingState label="Loading settings..." />
      ) : (
        <SettingsForm
          title="SMTP Configuration"
          description="Where the platform's mail goes, and the mail server it is sent through when SMTP is chosen."
          fields={fields}
          submitLabel="Save SMTP Settings"
          onValuesChange={onValuesChange}
          validate={validate}
        >
          <TransportNow status={transport.data} error={transport.error} />
          <div
            role={mismatch ? 'alert' : 'note'}
            data-testid="smtp-address-warning"
            className={`flex items-start gap-2 rounded-lg border px-3 py-2 text-sm ${
              mismatch
                ? 'border-red-500/50 bg-red-500/10 text-red-200'
                : 'border-amber-400/40 bg-amber-400/10 text-amber-100'
            }`}
          >
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            <span>
              {SMTP_MISMATCH_WARNING}
              {mismatch ? ' These two differ now.' : ''}
            </span>
          </div>
        </SettingsForm>
      )}
      <TestEmailCard />
    </div>
  );
}
