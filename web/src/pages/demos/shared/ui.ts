/** Class names shared by the demo pages (the public site's dark navy look). */

export const pageSection = 'pt-28 pb-20 sm:pt-32';
export const container = 'mx-auto max-w-6xl px-4 sm:px-6';
export const eyebrow = 'text-sm font-semibold tracking-wider text-brand uppercase';
export const pageTitle = 'mt-2 text-4xl font-bold tracking-tight text-white sm:text-5xl';
export const lead = 'mt-4 text-lg text-slate-300';
export const card = 'rounded-2xl border border-navy-700 bg-navy-900 p-5 sm:p-6';
export const cardTitle = 'text-lg font-semibold text-white';

export const primaryButton =
  'inline-flex items-center justify-center gap-2 rounded-xl bg-brand px-5 py-2.5 text-sm font-semibold text-navy-950 shadow-lg shadow-cyan-500/20 transition hover:bg-brand-strong disabled:cursor-not-allowed disabled:opacity-60';
export const secondaryButton =
  'inline-flex items-center justify-center gap-2 rounded-xl border border-navy-600 bg-navy-800 px-4 py-2.5 text-sm font-medium text-slate-100 transition hover:border-brand hover:text-white disabled:cursor-not-allowed disabled:opacity-60';
export const iconButton =
  'inline-flex h-10 w-10 items-center justify-center rounded-xl border border-navy-600 bg-navy-800 text-slate-100 transition hover:border-brand hover:text-white disabled:cursor-not-allowed disabled:opacity-50';

export const label = 'block text-sm font-medium text-slate-200';
/** Inputs of the read-only preview: visibly disabled but still legible. */
export const field =
  'mt-1.5 block w-full rounded-lg border border-navy-600 bg-navy-800 px-3 py-2 text-sm text-slate-100 disabled:cursor-not-allowed';
export const badge = 'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium';
