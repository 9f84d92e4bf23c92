export { Toaster } from './lazy-toaster.tsx';
export { dismissToast, type ToastInput, type ToastVariant, toast, useToast } from './use-toast.ts';
