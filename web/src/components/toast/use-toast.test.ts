import { describe, expect, it } from 'vitest';
import { withoutRepeat } from './use-toast.ts';

describe('a toast says a thing once', () => {
  it('leaves out a description that only repeats the title', () => {
    expect(
      withoutRepeat({ title: 'Test emails sent successfully', description: 'Test emails sent successfully' }),
    ).toEqual({ title: 'Test emails sent successfully' });
    expect(withoutRepeat({ title: 'Contact deleted', description: 'contact deleted.' })).toEqual({
      title: 'Contact deleted',
    });
  });

  it('keeps a description that adds something, and any that is not plain text', () => {
    const sent = { title: 'Test emails sent successfully', description: 'Sent to ann@example.com.' };
    expect(withoutRepeat(sent)).toBe(sent);
    const noTitle = { description: 'Saved' };
    expect(withoutRepeat(noTitle)).toBe(noTitle);
  });
});
