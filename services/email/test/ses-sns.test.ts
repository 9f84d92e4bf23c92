import { describe, expect, it } from 'vitest';
import {
  isTrustedSnsUrl,
  type SnsMessage,
  SnsVerificationError,
  sesOutcomeOf,
  stringToSign,
  verifySnsMessage,
} from '../src/features/tracking/domain/sns.ts';

const TOPIC = 'arn:aws:sns:us-east-1:123456789012:ses-notifications';
const message = (over: Partial<SnsMessage> = {}): SnsMessage => ({
  Type: 'Notification',
  MessageId: 'm-1',
  TopicArn: TOPIC,
  Message: '{}',
  Timestamp: new Date().toISOString(),
  SignatureVersion: '2',
  Signature: 'c2ln',
  SigningCertURL: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem',
  ...over,
});

describe('SNS message rules', () => {
  it('fetches certificates only over https from SNS hosts (or a test origin given explicitly)', () => {
    expect(isTrustedSnsUrl('https://sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem')).toBe(
      true,
    );
    expect(isTrustedSnsUrl('https://sns.cn-north-1.amazonaws.com.cn/x.pem')).toBe(true);
    for (const url of [
      'http://sns.us-east-1.amazonaws.com/x.pem',
      'https://sns.us-east-1.amazonaws.com.evil.example/x.pem',
      'https://evil.example/sns.us-east-1.amazonaws.com/x.pem',
      'https://sns.us-east-1.amazonaws.com:8443/x.pem',
      'https://s3.amazonaws.com/x.pem',
      'not a url',
      'http://127.0.0.1:9999/cert.pem',
    ])
      expect(isTrustedSnsUrl(url), url).toBe(false);
    expect(isTrustedSnsUrl('http://127.0.0.1:9999/cert.pem', ['http://127.0.0.1:9999'])).toBe(true);
  });

  it('refuses every message when no topic is configured, and any foreign topic, before fetching a certificate', async () => {
    const fetched: string[] = [];
    const certificate = async (url: string) => {
      fetched.push(url);
      return 'no certificate';
    };
    const refusal = (m: SnsMessage, topicArns?: string[]) =>
      verifySnsMessage(m, { certificate, ...(topicArns ? { topicArns } : {}) }).then(
        () => null,
        (e: unknown) => (e instanceof SnsVerificationError ? e.message : `unexpected ${String(e)}`),
      );
    const confirmation = message({ Type: 'SubscriptionConfirmation', SubscribeURL: 'https://x', Token: 't' });
    for (const m of [message(), confirmation]) {
      expect(await refusal(m)).toMatch(/no SNS topic is configured/);
      expect(await refusal(m, [])).toMatch(/no SNS topic is configured/);
      expect(await refusal(m, ['arn:aws:sns:us-east-1:999999999999:other'])).toMatch(
        /not one we subscribed to/,
      );
    }
    // The other cheap checks come before the fetch too.
    expect(await refusal(message({ SignatureVersion: '3' }), [TOPIC])).toMatch(/SignatureVersion/);
    expect(await refusal(message({ Timestamp: '2020-01-01T00:00:00Z' }), [TOPIC])).toMatch(/too old/);
    expect(await refusal(message({ SigningCertURL: 'https://evil.example/c.pem' }), [TOPIC])).toMatch(
      /SigningCertURL/,
    );
    expect(fetched).toEqual([]);
    // A configured topic gets as far as the certificate (here no certificate: refused, not thrown).
    expect(await refusal(message(), [TOPIC])).toBe('the signing certificate is unreadable');
    expect(fetched).toHaveLength(1);
  });

  it('builds the canonical string of each message type in AWS order', () => {
    const base = {
      MessageId: 'm',
      TopicArn: 't',
      Message: 'hello',
      Timestamp: 'ts',
      SignatureVersion: '2',
      Signature: '',
      SigningCertURL: '',
    };
    expect(stringToSign({ ...base, Type: 'Notification' } as SnsMessage)).toBe(
      'Message\nhello\nMessageId\nm\nTimestamp\nts\nTopicArn\nt\nType\nNotification\n',
    );
    expect(stringToSign({ ...base, Type: 'Notification', Subject: 's' } as SnsMessage)).toBe(
      'Message\nhello\nMessageId\nm\nSubject\ns\nTimestamp\nts\nTopicArn\nt\nType\nNotification\n',
    );
    expect(
      stringToSign({
        ...base,
        Type: 'SubscriptionConfirmation',
        SubscribeURL: 'u',
        Token: 'k',
      } as SnsMessage),
    ).toBe(
      'Message\nhello\nMessageId\nm\nSubscribeURL\nu\nTimestamp\nts\nToken\nk\nTopicArn\nt\nType\nSubscriptionConfirmation\n',
    );
  });

  it('reads SES bounces, complaints and deliveries (notifications and event publishing)', () => {
    expect(
      sesOutcomeOf(
        JSON.stringify({
          eventType: 'Bounce',
          mail: { messageId: 'x' },
          bounce: { bounceType: 'Transient', bouncedRecipients: [{ emailAddress: 'a@b.c' }] },
        }),
      ),
    ).toMatchObject({ kind: 'soft_bounce', sesMessageId: 'x', recipients: ['a@b.c'] });
    expect(sesOutcomeOf(JSON.stringify({ notificationType: 'Open', mail: { messageId: 'x' } }))).toBeNull();
    expect(sesOutcomeOf('nonsense')).toBeNull();
  });
});
