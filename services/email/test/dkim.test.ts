import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeMime } from '../src/features/delivery/domain/mime.ts';
import { dkimSigner } from '../src/features/delivery/transports/dkim.ts';
import { SesTransport } from '../src/features/delivery/transports/ses.ts';
import { verifyDkim } from './mail-conformance.ts';

/**
 * DKIM over the fields that matter (RFC 8058 §4: List-Unsubscribe and List-Unsubscribe-Post),
 * checked with the independent verifier of mail-conformance.ts; and the SES path, whose
 * SendRawEmail call is caught by a local HTTP server.
 */

const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = {
  domainName: 'parley.test',
  keySelector: 'mail',
  privateKey: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
};

const bulk = () =>
  composeMime({
    from: { name: 'Parley', address: 'news@parley.test' },
    to: { address: 'ada@example.com' },
    subject: 'Spring news',
    html: '<p>Hi</p>',
    text: 'Hi',
    messageId: 'm1@parley.test',
    listUnsubscribe: { url: 'https://parley.test/api/unsubscribe/t.s' },
    autoSubmitted: true,
  });

describe('dkimSigner', () => {
  it('signs List-Unsubscribe, List-Unsubscribe-Post and Auto-Submitted with the rest', async () => {
    const signed = await dkimSigner(key)(await bulk());
    const { signed: h, domain } = verifyDkim(signed, keys.publicKey);
    expect(domain).toBe('parley.test');
    for (const name of [
      'from',
      'to',
      'subject',
      'date',
      'message-id',
      'list-unsubscribe',
      'list-unsubscribe-post',
      'auto-submitted',
      'content-type',
    ])
      expect(h).toContain(name);
  });
});

describe('the SES transport with a DKIM key', () => {
  let url = '';
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString());
      res.setHeader('content-type', 'text/xml');
      res.end(
        '<SendRawEmailResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><SendRawEmailResult><MessageId>ses-1</MessageId></SendRawEmailResult><ResponseMetadata><RequestId>r1</RequestId></ResponseMetadata></SendRawEmailResponse>',
      );
    });
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('signs what it hands to SendRawEmail (Message-ID and Date left out: SES may set them)', async () => {
    const ses = new SesTransport({
      region: 'eu-west-1',
      endpoint: url,
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'secret',
      dkim: key,
    });
    const r = await ses.send({ from: 'news@parley.test', to: ['ada@example.com'] }, await bulk());
    await ses.close();
    expect(r.providerMessageId).toBe('ses-1');
    const data = new URLSearchParams(bodies[0]).get('RawMessage.Data') ?? '';
    const raw = Buffer.from(data, 'base64');
    const { signed } = verifyDkim(raw, keys.publicKey);
    expect(signed).toContain('list-unsubscribe-post');
    expect(signed).not.toContain('message-id');
    expect(signed).not.toContain('date');
  });
});
