import { isValidUsPhone } from '@parley/contracts/phone';
import * as Dialog from '@radix-ui/react-dialog';
import { useMutation } from '@tanstack/react-query';
import {
  Bot,
  CalendarCheck,
  CheckCircle2,
  Clock,
  Loader2,
  MessageSquare,
  Phone,
  PhoneCall,
  PhoneForwarded,
  X,
} from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { trackEvent } from '../../lib/analytics.ts';
import { openBookingModal } from '../../lib/events.ts';
import { PhoneInput } from '../booking/phone-input.tsx';
import { SALES_HOURS, SALES_PHONE, SALES_PHONE_HREF } from '../contact/company.ts';
import { formatElapsed, requestDemoCall } from './demo-call.ts';

/** The widget's states (spec §4); the launcher is the closed state, owned by `TryAgent`. */
export type TryAgentState = 'intro' | 'phone' | 'connecting' | 'connected';

const TITLE = 'Try Our AI Agent';

const primaryButton =
  'flex w-full items-center justify-center gap-2 rounded-xl bg-brand px-4 py-3 text-sm font-semibold text-navy-950 shadow-lg shadow-cyan-500/20 transition hover:bg-brand-strong disabled:cursor-not-allowed disabled:opacity-60 disabled:shadow-none';
const inputClass =
  'w-full rounded-lg border border-navy-600 bg-navy-800 px-3 py-2 text-sm text-white placeholder:text-slate-400 transition focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40';
const labelClass = 'mb-1 block text-sm font-medium text-slate-200';

function track(label: string): void {
  trackEvent('try_agent', { category: 'engagement', label });
}

/**
 * The Try AI Agent panel (spec §2 "Try AI Agent widget", §4, §5, §8): intro → phone entry →
 * connecting (while POST /api/voice/demo-call is outstanding) → connected. A refused or failed
 * call also lands on connected, which then points to the sales line and a consultation
 * instead of promising a call (no error text, spec §8). Closing resets everything.
 *
 * A non-modal dialog: it floats over the page like a chat widget, so the page stays usable
 * (clicks and focus outside do not close it); focus moves into it on opening and on every
 * state change, and Escape or the close button closes it.
 */
export default function TryAgentPanel({
  open,
  onClose,
  restoreFocus,
}: {
  open: boolean;
  onClose: () => void;
  /** Puts focus back where the widget was opened from. */
  restoreFocus: () => void;
}) {
  const [view, setView] = useState<'intro' | 'phone'>('intro');
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  // 'Book Consultation' hands focus to the booking modal instead of back to the opener.
  const handingOff = useRef(false);
  const bodyRef = useRef<HTMLDivElement>(null);
  const primaryRef = useRef<HTMLButtonElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const id = useId();

  const call = useMutation({
    mutationFn: (vars: { name: string; phone: string }) => requestDemoCall(vars.name, vars.phone),
    onSuccess: (started) => track(started ? 'call_initiated' : 'call_not_started'),
    onError: () => track('call_failed'),
  });

  const state: TryAgentState = call.isPending ? 'connecting' : call.isIdle ? view : 'connected';
  const callStarted = call.isSuccess && call.data;
  const phoneValid = isValidUsPhone(phone);

  // Focus follows the flow: the first field on phone entry, otherwise the new view itself
  // (the form's button disappears while connecting, and focus must not fall to the page).
  const shownState = useRef(state);
  useEffect(() => {
    if (shownState.current === state) return;
    shownState.current = state;
    if (state === 'phone') nameRef.current?.focus();
    else bodyRef.current?.focus();
  }, [state]);

  const close = () => {
    // A response arriving after the close is ignored: reset() detaches it from this view.
    call.reset();
    setView('intro');
    setName('');
    setPhone('');
    shownState.current = 'intro';
    onClose();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!phoneValid || call.isPending) return;
    track('call_requested');
    call.mutate({ name, phone });
  };

  const bookConsultation = () => {
    track('book_consultation');
    handingOff.current = true;
    close();
    openBookingModal();
  };

  let body: ReactNode;
  if (state === 'intro') {
    body = (
      <>
        <Dialog.Description className="text-sm text-slate-200">
          Get a real phone call from our AI voice agent and hear how it would answer your customers.
        </Dialog.Description>
        <ul className="mt-4 space-y-2.5 text-sm text-slate-200">
          <Feature icon={Clock}>It calls you within 30 seconds</Feature>
          <Feature icon={MessageSquare}>A natural 2-3 minute conversation</Feature>
          <Feature icon={CalendarCheck}>Ask questions or book an appointment</Feature>
        </ul>
        <button
          ref={primaryRef}
          type="button"
          className={`${primaryButton} mt-5`}
          onClick={() => setView('phone')}
        >
          <PhoneCall className="h-4 w-4" aria-hidden="true" />
          Get a Demo Call
        </button>
        <p className="mt-3 text-center text-xs text-slate-300">Free · US numbers · no sign-up</p>
      </>
    );
  } else if (state === 'phone') {
    body = (
      <form noValidate onSubmit={submit} aria-label="Demo call details">
        <Dialog.Description className="text-sm text-slate-200">
          Enter your details and our AI agent will call you right away.
        </Dialog.Description>
        <div className="mt-4 space-y-3">
          <div>
            <label htmlFor={`${id}-name`} className={labelClass}>
              Your Name
            </label>
            <input
              ref={nameRef}
              id={`${id}-name`}
              name="name"
              autoComplete="name"
              maxLength={60}
              placeholder="Jane Smith"
              className={inputClass}
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <div>
            <label htmlFor={`${id}-phone`} className={labelClass}>
              Phone Number
            </label>
            <PhoneInput
              id={`${id}-phone`}
              name="phone"
              aria-describedby={`${id}-phone-hint`}
              className={inputClass}
              value={phone}
              onValueChange={setPhone}
            />
            <p id={`${id}-phone-hint`} className="mt-1 text-xs text-slate-300">
              A 10-digit US number. We use it only for this demo call.
            </p>
          </div>
        </div>
        <button type="submit" disabled={!phoneValid || call.isPending} className={`${primaryButton} mt-5`}>
          <Phone className="h-4 w-4" aria-hidden="true" />
          Call Me Now
        </button>
      </form>
    );
  } else if (state === 'connecting') {
    body = (
      <div role="status" className="flex flex-col items-center py-4 text-center">
        <span className="flex h-14 w-14 items-center justify-center rounded-full bg-cyan-400/15">
          <Loader2 className="h-7 w-7 animate-spin text-brand" aria-hidden="true" />
        </span>
        <p className="mt-4 font-semibold text-white">Connecting…</p>
        <Dialog.Description className="mt-1 text-sm text-slate-200">
          Setting up your demo call to {phone}.
        </Dialog.Description>
      </div>
    );
  } else if (callStarted) {
    body = (
      <div className="text-center">
        <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-emerald-400/15">
          <CheckCircle2 className="h-7 w-7 text-emerald-300" aria-hidden="true" />
        </span>
        <h3 className="mt-3 font-semibold text-white">Your demo call is on its way</h3>
        <p className="mt-1 text-sm text-slate-300">
          Elapsed{' '}
          <span role="timer" data-testid="try-agent-timer" className="font-mono text-base text-white">
            <ElapsedTime />
          </span>
        </p>
        <Dialog.Description className="mt-3 text-sm text-slate-200">
          You'll receive a call at {phone} within 30 seconds. The conversation lasts 2-3 minutes: ask
          anything, or try booking an appointment.
        </Dialog.Description>
        <button ref={primaryRef} type="button" className={`${primaryButton} mt-5`} onClick={bookConsultation}>
          <CalendarCheck className="h-4 w-4" aria-hidden="true" />
          Book Consultation
        </button>
        <p className="mt-3 text-xs text-slate-300">
          Prefer a person? Call our sales team at{' '}
          <a href={SALES_PHONE_HREF} className="font-medium whitespace-nowrap text-brand underline">
            {SALES_PHONE}
          </a>
        </p>
      </div>
    );
  } else {
    body = (
      <div className="text-center">
        <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-cyan-400/15">
          <PhoneForwarded className="h-7 w-7 text-brand" aria-hidden="true" />
        </span>
        <h3 className="mt-3 font-semibold text-white">Talk to our team</h3>
        <Dialog.Description className="mt-2 text-sm text-slate-200">
          Call our sales team at{' '}
          <a href={SALES_PHONE_HREF} className="font-medium whitespace-nowrap text-brand underline">
            {SALES_PHONE}
          </a>{' '}
          ({SALES_HOURS}) or book a consultation, and we'll show you the AI agent live.
        </Dialog.Description>
        <button ref={primaryRef} type="button" className={`${primaryButton} mt-5`} onClick={bookConsultation}>
          <CalendarCheck className="h-4 w-4" aria-hidden="true" />
          Book Consultation
        </button>
      </div>
    );
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) close();
      }}
      modal={false}
    >
      <Dialog.Portal>
        <Dialog.Content
          data-testid="try-agent"
          onOpenAutoFocus={(e) => {
            // The intro's action rather than the close button, so Enter starts the demo.
            e.preventDefault();
            primaryRef.current?.focus();
          }}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            if (!handingOff.current) restoreFocus();
            handingOff.current = false;
          }}
          onInteractOutside={(e) => e.preventDefault()}
          className="fixed right-3 bottom-3 left-3 z-50 max-h-[calc(100vh-1.5rem)] overflow-y-auto rounded-2xl border border-navy-600 bg-navy-900 shadow-2xl shadow-black/60 focus:outline-none data-[state=open]:animate-fade-in sm:right-8 sm:bottom-8 sm:left-auto sm:w-96"
        >
          <div className="flex items-start gap-3 rounded-t-2xl border-b border-navy-700 bg-gradient-to-r from-cyan-500/15 to-transparent px-5 py-4">
            <span
              className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand text-navy-950"
              aria-hidden="true"
            >
              <Bot className="h-5 w-5" />
            </span>
            <div className="min-w-0 flex-1">
              <Dialog.Title className="text-base font-semibold text-white">{TITLE}</Dialog.Title>
              <p className="text-xs text-slate-300">Live voice demo by phone</p>
            </div>
            <Dialog.Close
              aria-label="Close"
              className="rounded-lg p-1.5 text-slate-300 transition hover:bg-navy-700 hover:text-white"
            >
              <X className="h-5 w-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <div ref={bodyRef} tabIndex={-1} data-widget-state={state} className="px-5 py-5 focus:outline-none">
            {body}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function Feature({ icon: Icon, children }: { icon: typeof Clock; children: ReactNode }) {
  return (
    <li className="flex items-center gap-2.5">
      <Icon className="h-4 w-4 shrink-0 text-brand" aria-hidden="true" />
      {children}
    </li>
  );
}

/**
 * m:ss since the connected view appeared, computed from the clock (not by counting ticks),
 * so a throttled background tab still shows the right time when it comes back.
 */
function ElapsedTime() {
  const [startedAt] = useState(() => Date.now());
  const [now, setNow] = useState(startedAt);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return <>{formatElapsed(now - startedAt)}</>;
}
