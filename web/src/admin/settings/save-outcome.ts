import type { ToastInput } from '../../components/toast/use-toast.ts';

/** What a save answered: the services that had not applied it yet (SaveSettingResponse.pending). */
export interface SaveOutcome {
  pending: string[];
}

/** The pending services of several saves, once each, in first-seen order. */
export function mergePending(answers: ReadonlyArray<{ pending?: readonly string[] } | undefined>): string[] {
  return [...new Set(answers.flatMap((a) => a?.pending ?? []))];
}

const names = (services: readonly string[]) => {
  const each = services.map((s) => `the ${s} service`);
  return each.length < 2 ? (each[0] ?? '') : `${each.slice(0, -1).join(', ')} and ${each.at(-1)}`;
};

/**
 * The toast after a save (spec §8's 'Settings updated' when it is in force everywhere). When a
 * service that keeps a copy of the settings (the email service: test mode, test addresses,
 * SMTP) has not confirmed it, the screen says so instead of a plain "saved": it is stored and
 * reaches that service later, but until then mail may still follow the previous settings.
 */
export function savedToast(outcome: SaveOutcome): ToastInput {
  if (outcome.pending.length === 0)
    return { title: 'Settings updated', description: 'Your settings have been saved successfully.' };
  const who = names(outcome.pending);
  const one = outcome.pending.length === 1;
  return {
    variant: 'destructive',
    title: 'Saved, not yet in effect',
    description: `${who[0]?.toUpperCase()}${who.slice(1)} ${one ? 'has' : 'have'} not applied the change yet, so mail may still go out with the previous settings until ${one ? 'it does' : 'they do'}. ${one ? 'It applies' : 'They apply'} it as soon as ${one ? 'it is' : 'they are'} reachable; save again to check.`,
    duration: 15_000,
  };
}
