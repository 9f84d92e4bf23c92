import { PlugZap } from 'lucide-react';

/**
 * Shown on a test-mail card while the gateway answers 503 for the email service: test mails
 * cannot go out until that service runs. The gateway's own message is quoted.
 */
export function EmailServiceNotice({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div
      role="status"
      data-testid="email-service-notice"
      className="flex items-start gap-2 rounded-lg border border-amber-400/40 bg-amber-400/10 px-3 py-2 text-sm text-amber-100"
    >
      <PlugZap className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <span>
        The email service is not running, so test emails cannot be sent yet.{' '}
        <span className="text-amber-200/80">({message})</span>
      </span>
    </div>
  );
}
