import { describe, expect, it } from 'vitest';
import { isTrustedSnsUrl, type SnsMessage, sesOutcomeOf, stringToSign } from '../src/domain/sns.ts';

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
