import { describe, expect, it } from 'vitest';
import { mergePending, savedToast } from './save-outcome.ts';

describe('the toast after a save', () => {
  it('says "Settings updated" when every service has applied it', () => {
    expect(savedToast({ pending: [] })).toEqual({
      title: 'Settings updated',
      description: 'Your settings have been saved successfully.',
    });
  });

  it('says which service has not applied it yet, and what that means, instead of a plain "saved"', () => {
    const t = savedToast({ pending: ['email'] });
    expect(t).toMatchObject({ variant: 'destructive', title: 'Saved, not yet in effect' });
    expect(t.description).toBe(
      'The email service has not applied the change yet, so mail may still go out with the previous settings until it does. It applies it as soon as it is reachable; save again to check.',
    );
    expect(t.title).not.toMatch(/updated/i);
  });

  it('collects the pending services of a form saved one field per call', () => {
    expect(
      mergePending([{ pending: [] }, { pending: ['email'] }, undefined, { pending: ['email'] }]),
    ).toEqual(['email']);
    expect(mergePending([{ pending: [] }, {}])).toEqual([]);
  });
});
