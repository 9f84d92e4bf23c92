import { formatPhone, PHONE_DISPLAY_MAX_LENGTH } from '@parley/contracts/phone';
import type { ClipboardEvent, InputHTMLAttributes } from 'react';

/**
 * A US phone field (spec §5 phone helpers): formatted as typed into '(555) 123-4567', at most
 * 14 characters. Shared by the booking form and the Try AI Agent widget.
 */
export function PhoneInput({
  value,
  onValueChange,
  ...props
}: Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'onPaste' | 'type' | 'maxLength'> & {
  value: string;
  /** Receives the formatted value. */
  onValueChange: (formatted: string) => void;
}) {
  /** A pasted '+1 555 123 4567' keeps its last ten digits instead of being cut by maxLength. */
  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    const el = e.currentTarget;
    const start = el.selectionStart ?? el.value.length;
    const end = el.selectionEnd ?? el.value.length;
    let digits = (el.value.slice(0, start) + e.clipboardData.getData('text') + el.value.slice(end)).replace(
      /\D/g,
      '',
    );
    if (digits.length === 11 && digits.startsWith('1')) digits = digits.slice(1);
    e.preventDefault();
    onValueChange(formatPhone(digits));
  };

  return (
    <input
      type="tel"
      inputMode="tel"
      autoComplete="tel-national"
      placeholder="(555) 123-4567"
      {...props}
      maxLength={PHONE_DISPLAY_MAX_LENGTH}
      value={value}
      onChange={(e) => onValueChange(formatPhone(e.target.value))}
      onPaste={onPaste}
    />
  );
}
