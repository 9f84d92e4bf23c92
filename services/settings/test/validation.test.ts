import { isSecretSettingKey, SETTING_CATEGORY_MAX, SETTING_KEY_MAX } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { defaultCategory, normaliseValue, settingProblem } from '../src/domain/validation.ts';

const problem = (key: string, value: string, extra: { category?: string; description?: string } = {}) =>
  settingProblem({ key, value: normaliseValue(key, value), ...extra });

describe('known setting keys are checked by type', () => {
  it('smtp_port is a whole number from 1 to 65535', () => {
    for (const ok of ['1', '25', '587', '65535', ' 465 ']) expect(problem('smtp_port', ok), ok).toBeNull();
    for (const bad of ['0', '65536', '-1', '58.7', 'abc', '', '1e3', '99999'])
      expect(problem('smtp_port', bad), bad).toBe('smtp_port must be a whole number from 1 to 65535');
  });

  it('addresses are email addresses', () => {
    expect(problem('smtp_from_email', 'sales@parley.ai')).toBeNull();
    expect(problem('support_email', ' help@example.co.uk ')).toBeNull();
    for (const bad of ['no-at-sign', 'a@', '@b.com', 'a b@c.com', 'a@b', 'x@y..z'])
      expect(problem('support_email', bad), bad).toBe('support_email must be a valid email address');
  });

  it('website_url is an http(s) URL without credentials', () => {
    expect(problem('website_url', 'https://parley.ai')).toBeNull();
    expect(problem('website_url', 'http://example.com/about?x=1')).toBeNull();
    for (const bad of [
      'ftp://example.com',
      'javascript:alert(1)',
      'example.com',
      'https://user:pw@example.com',
      '',
    ])
      expect(problem('website_url', bad), bad).toMatch(/^website_url must be an http\(s\) URL/);
  });

  it('test_email_addresses is a JSON array of 1 to 5 valid addresses', () => {
    expect(problem('test_email_addresses', '["a@b.co"]')).toBeNull();
    expect(
      problem('test_email_addresses', JSON.stringify(['a@b.co', 'c@d.io', 'e@f.net', 'g@h.org', 'i@j.com'])),
    ).toBeNull();
    expect(problem('test_email_addresses', '[]')).toBe('test_email_addresses must hold 1 to 5 addresses');
    expect(
      problem('test_email_addresses', JSON.stringify(Array.from({ length: 6 }, (_, i) => `u${i}@x.io`))),
    ).toBe('test_email_addresses must hold 1 to 5 addresses');
    expect(problem('test_email_addresses', '["a@b.co","nope"]')).toBe(
      'test_email_addresses must hold only valid email addresses',
    );
    for (const bad of ['a@b.co', '{"a":1}', '[1,2]', 'not json'])
      expect(problem('test_email_addresses', bad), bad).toBe(
        'test_email_addresses must be a JSON array of email addresses',
      );
  });

  it("test_environment_enabled is 'true' or 'false'", () => {
    expect(problem('test_environment_enabled', 'true')).toBeNull();
    expect(problem('test_environment_enabled', 'false')).toBeNull();
    for (const bad of ['yes', '1', 'TRUE', ''])
      expect(problem('test_environment_enabled', bad)).toBe(
        "test_environment_enabled must be 'true' or 'false'",
      );
  });

  it('names and hosts stay on one line (no header injection through From)', () => {
    expect(problem('smtp_from_name', 'Parley Team')).toBeNull();
    expect(problem('smtp_from_name', 'Evil\r\nBcc: victim@x.com')).toBe(
      'smtp_from_name must be a name on one line',
    );
    expect(problem('smtp_host', 'smtp.example.com')).toBeNull();
    expect(problem('smtp_host', 'smtp example')).toBe(
      'smtp_host must be a host name such as smtp.example.com',
    );
    expect(problem('company_phone', '+1 (617) 555-0142')).toBeNull();
    expect(problem('company_phone', 'call us')).toBe('company_phone must be a phone number');
  });

  it('refuses link-local, cloud metadata and unspecified SMTP hosts in every spelling; loopback and private relays stay', () => {
    for (const host of [
      '169.254.169.254',
      '169.254.43518',
      '2852039166',
      '0xA9FEA9FE',
      '0xA9.0xFE.0xA9.0xFE',
      '0251.0376.0251.0376',
      '169.254.169.254.',
      '[::ffff:169.254.169.254]',
      '[::ffff:a9fe:a9fe]',
      '::ffff:a9fe:a9fe',
      '[64:ff9b::a9fe:a9fe]',
      '[::a9fe:a9fe]',
      '[fe80::1]',
      '[fd00:ec2::254]',
      '100.100.100.200',
      'metadata.google.internal',
      '0.0.0.0',
      '0',
      '[::]',
      '224.0.0.251',
    ]) {
      const msg = problem('smtp_host', host);
      expect(msg, host).toMatch(/^smtp_host must be a mail server: an? .+ is refused/);
      expect(msg, host).not.toContain(host);
    }
    for (const host of [
      'smtp.example.com',
      'localhost',
      '127.0.0.1',
      '2130706433',
      '0x7f000001',
      '127.1',
      '[::1]',
      '::1',
      '10.0.0.25',
      '192.168.1.2',
      '172.20.0.3',
      '[fd12:3456::25]',
      '8.8.8.8',
    ])
      expect(problem('smtp_host', host), host).toBeNull();
    for (const host of ['smtp.example.com:25', '[fe80::1%eth0]', '[127.0.0.1]', 'user@smtp.example.com'])
      expect(problem('smtp_host', host), host).toBe('smtp_host must be a host name such as smtp.example.com');
  });

  it('a password is taken exactly as typed, and its message never repeats it', () => {
    expect(normaliseValue('smtp_password', '  spaced secret  ')).toBe('  spaced secret  ');
    expect(problem('smtp_password', 'hunter2')).toBeNull();
    const msg = problem('smtp_password', 'x'.repeat(1001));
    expect(msg).toBe('smtp_password must be at most 1000 characters');
  });
});

describe('every key obeys the length and form rules', () => {
  it('keys are 1 to 100 characters of a plain form', () => {
    expect(problem('feature.flag-1', 'on')).toBeNull();
    expect(problem('k'.repeat(SETTING_KEY_MAX), 'v')).toBeNull();
    expect(problem('k'.repeat(SETTING_KEY_MAX + 1), 'v')).toBe('The setting key must be 1 to 100 characters');
    expect(problem('has space', 'v')).toMatch(/^The setting key "has space" may hold only/);
    expect(problem('_leading', 'v')).toMatch(/may hold only/);
  });

  it('categories are 1 to 50 characters, values at most 10,000 and free of control characters', () => {
    expect(problem('x', 'v', { category: 'c'.repeat(SETTING_CATEGORY_MAX) })).toBeNull();
    expect(problem('x', 'v', { category: 'c'.repeat(SETTING_CATEGORY_MAX + 1) })).toBe(
      'The category of x must be 1 to 50 characters',
    );
    expect(problem('x', 'v', { category: '  ' })).toBe('The category of x must be 1 to 50 characters');
    expect(problem('x', 'v'.repeat(10_001))).toBe('x must be at most 10000 characters');
    expect(problem('x', 'a\u0000b')).toBe('x must not contain control characters');
    expect(problem('x', 'line one\nline two')).toBeNull();
  });

  it('files known keys under their category, others under general', () => {
    expect(defaultCategory('smtp_port')).toBe('smtp');
    expect(defaultCategory('website_url')).toBe('brand');
    expect(defaultCategory('test_environment_enabled')).toBe('testing');
    expect(defaultCategory('anything_else')).toBe('general');
  });
});

describe('secret keys', () => {
  it('are smtp_password and any key naming a credential', () => {
    for (const k of [
      'smtp_password',
      'twilio_auth_token',
      'openai_api_key',
      'client_secret',
      'signing_private_key',
    ])
      expect(isSecretSettingKey(k), k).toBe(true);
    for (const k of ['smtp_host', 'smtp_username', 'brand_name', 'website_url', 'test_email_addresses'])
      expect(isSecretSettingKey(k), k).toBe(false);
  });
});
