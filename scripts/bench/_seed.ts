/** Benchmark data made through the public admin API, as an admin would. */

/** Signs in and returns the session cookie. */
export async function signInCookie(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return res.headers.get('set-cookie')?.split(';')[0] ?? '';
}

/** Writes `count` posts with the platform's AI writer and publishes them. */
export async function seedPublishedPosts(base: string, cookie: string, count: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    const gen = await fetch(`${base}/api/admin/generate-blog`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ topic: `Voice agents for busy front desks, part ${i}`, generateImage: false }),
    });
    if (!gen.ok) throw new Error(`generating a post answered ${gen.status}: ${await gen.text()}`);
    const { post } = (await gen.json()) as { post: Record<string, unknown> };
    const created = await fetch(`${base}/api/blog`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ ...post, slug: `${post.slug}-${i}`, status: 'published' }),
    });
    if (created.status !== 201)
      throw new Error(`creating a post answered ${created.status}: ${await created.text()}`);
  }
}
