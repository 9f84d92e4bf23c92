import type { Campaign } from '@parley/contracts';
import { useMutation } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { toast } from '../../../components/toast/index.ts';
import { AdminForm } from '../../components/form-feedback.tsx';
import {
  BusyButton,
  CancelButton,
  DialogActions,
  FieldError,
  inputClass,
  labelClass,
} from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { useSettings } from '../../settings/api.ts';
import { parseSavedAddresses } from '../../settings/testing-rules.ts';
import { AudienceDialog } from '../audience/audience-dialog.tsx';
import { sendTest } from './api.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Preview Test (email marketing §2, §7): the draft's content to one address, at once, marked
 * as a test in its subject and a header; it never counts toward the hourly campaign limit.
 * Starts from the first saved test address.
 */
export function TestSendDialog({
  campaign,
  open,
  onOpenChange,
  onCloseAutoFocus,
}: {
  campaign: Campaign | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  const id = useId();
  const settings = useSettings();
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | null>(null);

  const saved = parseSavedAddresses(settings.data?.get('test_email_addresses')?.value);
  const firstSaved = Array.isArray(saved) ? (saved[0] ?? '') : '';
  useEffect(() => {
    if (!open) return;
    setTo(firstSaved);
    setError(null);
  }, [open, firstSaved]);

  const send = useMutation({
    mutationFn: (c: Campaign) => sendTest({ campaignId: c.id, testRecipients: to.trim(), isTest: true }),
    onSuccess: (r) => {
      if (!r.success) {
        toast({ variant: 'destructive', title: 'Test Send Failed', description: r.error ?? r.message });
        return;
      }
      toast({ title: 'Test Email Sent', description: `A test of the campaign was sent to ${r.to}.` });
      onOpenChange(false);
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'Test Send Failed',
        description: messageOr(err, 'Please try again.'),
      }),
  });

  return (
    <AudienceDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Preview Test"
      description={campaign ? `Send a test of "${campaign.name}" to one address.` : ''}
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      <AdminForm
        className="space-y-4"
        onSubmit={() => {
          if (!EMAIL.test(to.trim())) {
            setError('Please enter a valid email address');
            return ['Please enter a valid email address'];
          }
          if (campaign) send.mutate(campaign);
        }}
      >
        <div>
          <label htmlFor={`${id}-to`} className={labelClass}>
            Test email address
          </label>
          <input
            id={`${id}-to`}
            type="email"
            className={inputClass}
            value={to}
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            onChange={(e) => {
              setTo(e.target.value);
              setError(null);
            }}
          />
          <FieldError id={`${id}-error`} message={error ?? undefined} />
          <p id={`${id}-hint`} className="mt-1 text-xs text-slate-400">
            The subject starts with [TEST]; test mails never count toward the hourly campaign limit.
          </p>
        </div>
        <DialogActions>
          <CancelButton onCancel={() => onOpenChange(false)} />
          <BusyButton busy={send.isPending} icon={Send}>
            Send Test
          </BusyButton>
        </DialogActions>
      </AdminForm>
    </AudienceDialog>
  );
}
