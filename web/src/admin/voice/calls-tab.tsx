import { callablePhone } from '@parley/contracts/phone';
import { History, Info, Loader2, PhoneOutgoing } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { AdminForm } from '../components/form-feedback.tsx';
import { cardClass, inputClass, labelClass, primaryButton, secondaryButton } from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import { useConversations, usePlaceCall, useVoiceOverview } from './api.ts';
import { CallStatusBadge } from './history-tab.tsx';

export const SAMPLE_GREETING =
  'Hello! This is the Parley AI assistant calling. I can answer your questions and book appointments. How can I help you today?';

/** The last call placed from this form, followed live until it ends. */
function LastCall({ callSid, onShowHistory }: { callSid: string; onShowHistory: () => void }) {
  const calls = useConversations();
  const call = calls.data?.find((c) => c.callSid === callSid);
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-navy-700 bg-navy-950/60 p-3"
      data-testid="last-call"
    >
      <div className="min-w-0 text-sm text-slate-300">
        <p>
          Last call{call ? ` to ${call.phone}` : ''}: {call ? <CallStatusBadge status={call.status} /> : '…'}
        </p>
        <p className="mt-1 truncate font-mono text-xs text-slate-500">{callSid}</p>
      </div>
      <button type="button" className={secondaryButton} onClick={onShowHistory}>
        <History className="h-4 w-4" aria-hidden="true" />
        View Call History
      </button>
    </div>
  );
}

/**
 * Make Calls (spec §2, §5, §8): a phone number and a greeting (prefilled sample); Make Call is
 * disabled while the phone is empty. The number is normalised as the spec says (digits only;
 * 10 digits get +1, 11 digits starting with 1 get +), and the form shows what will be dialled.
 */
export function MakeCallsTab({ onShowHistory }: { onShowHistory: () => void }) {
  const id = useId();
  const overview = useVoiceOverview();
  const place = usePlaceCall();
  const [phone, setPhone] = useState('');
  /** The last submit found no callable number (the hint under the field says why). */
  const [phoneError, setPhoneError] = useState(false);
  const [message, setMessage] = useState(SAMPLE_GREETING);
  const [lastSid, setLastSid] = useState<string | null>(null);
  const digits = phone.replace(/\D/g, '');
  // The spec's phone rules, applied before the call: the server applies the same ones.
  const callable = callablePhone(phone);

  const submit = () => {
    if (place.isPending) return;
    if (!digits) {
      toast({ variant: 'destructive', title: 'Phone Required', description: 'Please enter a phone number' });
      setPhoneError(true);
      return ['Please enter a phone number'];
    }
    if (!callable) {
      toast({
        variant: 'destructive',
        title: 'Invalid Phone Number',
        description: 'Please enter a valid phone number',
      });
      setPhoneError(true);
      return ['Please enter a valid phone number'];
    }
    const trimmed = message.trim();
    place.mutate(
      { phoneNumber: callable, ...(trimmed ? { message: trimmed } : {}) },
      {
        onSuccess: (res) => {
          setLastSid(res.callSid);
          toast({ title: 'Call Initiated', description: `Call SID: ${res.callSid}` });
        },
        onError: (err) => {
          toast({ variant: 'destructive', title: 'Call Failed', description: messageOr(err, 'Call failed') });
        },
      },
    );
  };

  return (
    <AdminForm
      onSubmit={submit}
      className={`${cardClass} space-y-4 p-4 sm:p-5`}
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
        Make an AI Call
      </h2>
      {overview.data?.simulatedCalls ? (
        <p className="flex items-start gap-2 rounded-lg border border-violet-400/40 bg-violet-400/10 px-3 py-2 text-sm text-violet-100">
          <Info className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          Twilio is not configured, so calls are simulated: no phone rings, but the call goes through the same
          steps and is recorded as simulated.
        </p>
      ) : null}
      <div>
        <label htmlFor={`${id}-phone`} className={labelClass}>
          Phone Number
        </label>
        <input
          id={`${id}-phone`}
          type="tel"
          inputMode="tel"
          autoComplete="off"
          maxLength={40}
          placeholder="+1 (555) 123-4567"
          className={inputClass}
          value={phone}
          aria-invalid={phoneError ? true : undefined}
          aria-describedby={`${id}-phone-hint`}
          onChange={(e) => {
            setPhone(e.target.value);
            setPhoneError(false);
          }}
        />
        <p id={`${id}-phone-hint`} className="mt-1 text-xs text-slate-500" aria-live="polite">
          {callable
            ? `Will call ${callable}`
            : digits
              ? 'Not a number yet: 10 digits for the US (country code +1), or + and the country code.'
              : 'Digits only are used; a 10-digit number gets the default country code +1.'}
        </p>
      </div>
      <div>
        <label htmlFor={`${id}-message`} className={labelClass}>
          Greeting Message
        </label>
        <textarea
          id={`${id}-message`}
          rows={3}
          maxLength={1000}
          className={inputClass}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
      </div>
      <button
        type="submit"
        className={primaryButton}
        disabled={!phone.trim() || place.isPending}
        aria-busy={place.isPending}
      >
        {place.isPending ? (
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
        ) : (
          <PhoneOutgoing className="h-4 w-4" aria-hidden="true" />
        )}
        {place.isPending ? 'Calling...' : 'Make Call'}
      </button>
      {lastSid ? <LastCall callSid={lastSid} onShowHistory={onShowHistory} /> : null}
    </AdminForm>
  );
}
