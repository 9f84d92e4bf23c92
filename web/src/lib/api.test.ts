import { describe, expect, it } from 'vitest';
import { isPasswordChangeRequired } from '../admin/lib/api.ts';
import { ApiError, apiErrorOf, apiErrorOfXhr, errorMessage, errorStatus } from './api.ts';

const answer = (status: number, body: string, type = 'application/json') =>
  new Response(body, { status, headers: { 'content-type': type } });

describe('the API error type', () => {
  it('carries the status and the parsed JSON body; the message stays "{status}: {body}"', async () => {
    const err = await apiErrorOf(answer(409, '{"error":"Conflict","message":"That slot is taken"}'));
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(409);
    expect(err.body).toEqual({ error: 'Conflict', message: 'That slot is taken' });
    expect(err.category).toBe('Conflict');
    expect(err.message).toBe('409: {"error":"Conflict","message":"That slot is taken"}');
    expect(errorStatus(err)).toBe(409);
    expect(errorMessage(err)).toBe('That slot is taken');
  });

  it('shows readable text, never an HTML page or an empty reason', async () => {
    expect(errorMessage(await apiErrorOf(answer(502, 'Bad gateway', 'text/plain')))).toBe('Bad gateway');
    expect(errorMessage(await apiErrorOf(answer(502, '<html>oops</html>', 'text/html')))).toBeUndefined();
    expect(errorMessage(await apiErrorOf(answer(500, '{"detail":1}')))).toBeUndefined();
    expect(errorStatus(new Error('409: looks like one'))).toBeUndefined();
    expect(errorMessage(new Error('network down'))).toBe('network down');
  });

  it('is the same for an upload refused (uploads use XMLHttpRequest for their progress)', () => {
    const refused = apiErrorOfXhr({
      status: 413,
      responseText: '{"error":"Payload Too Large","message":"The file is over 50 MB"}',
      statusText: 'Payload Too Large',
    } as XMLHttpRequest);
    expect(refused).toBeInstanceOf(ApiError);
    expect(errorStatus(refused)).toBe(413);
    expect(errorMessage(refused)).toBe('The file is over 50 MB');
    const empty = apiErrorOfXhr({
      status: 502,
      responseText: '',
      statusText: 'Bad Gateway',
    } as XMLHttpRequest);
    expect(empty.message).toBe('502: Bad Gateway');
  });

  it('tells a password-change refusal by its category, whatever its wording', async () => {
    const refusal = await apiErrorOf(
      answer(403, '{"error":"Password Change Required","message":"Any wording at all."}'),
    );
    expect(isPasswordChangeRequired(refusal)).toBe(true);
    const forbidden = await apiErrorOf(
      answer(403, '{"error":"Forbidden","message":"Please change your password to continue."}'),
    );
    expect(isPasswordChangeRequired(forbidden)).toBe(false);
  });
});
