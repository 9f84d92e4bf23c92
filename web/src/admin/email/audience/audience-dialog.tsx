import type { ReactNode } from 'react';
import { DialogFrame } from '../../../components/dialog.tsx';

/**
 * The dialog frame of the audience and campaign screens (address books, import, contact
 * details, campaign dialogs): the web's one dialog frame (src/components/dialog.tsx) with
 * these screens' sizes; title, description, a close button, scrolling content; a click on a
 * toast above it never closes it.
 */
export function AudienceDialog({
  open,
  onOpenChange,
  title,
  description,
  wide,
  children,
  onCloseAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  /** true: 2xl; 'xl': 5xl (the campaign preview's 768 px frame fits). */
  wide?: boolean | 'xl';
  children: ReactNode;
  onCloseAutoFocus?: (e: Event) => void;
}) {
  return (
    <DialogFrame
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={description}
      size={wide === 'xl' ? '2xl' : wide ? 'lg' : 'md'}
      {...(onCloseAutoFocus ? { onCloseAutoFocus } : {})}
    >
      {children}
    </DialogFrame>
  );
}
