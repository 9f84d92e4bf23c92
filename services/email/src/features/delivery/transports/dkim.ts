/**
 * DKIM (RFC 6376) with nodemailer's signer, loaded only when a key is configured. It signs the
 * fields that say who, what and when, the list fields, and the two that change what a
 * receiver does with the mail: List-Unsubscribe-Post (RFC 8058 §4: one-click is offered only
 * when the signature covers it and List-Unsubscribe) and Auto-Submitted (RFC 3834). A field a
 * message does not have is left out of h=.
 */

export interface DkimKey {
  domainName: string;
  keySelector: string;
  privateKey: string;
}

export const DKIM_SIGNED_FIELDS = [
  'From',
  'Sender',
  'Reply-To',
  'Subject',
  'Date',
  'Message-ID',
  'To',
  'Cc',
  'MIME-Version',
  'Content-Type',
  'Content-Transfer-Encoding',
  'In-Reply-To',
  'References',
  'List-Id',
  'List-Help',
  'List-Unsubscribe',
  'List-Unsubscribe-Post',
  'List-Subscribe',
  'List-Post',
  'List-Owner',
  'List-Archive',
  'Auto-Submitted',
];

export type Signer = (raw: Buffer) => Promise<Buffer>;

/**
 * A signer for `key`. `skip` leaves fields out that the transport rewrites: Amazon SES may set
 * its own Message-ID and Date, and asks that manual signatures leave both out.
 */
export function dkimSigner(key: DkimKey, skip: string[] = []): Signer {
  const without = new Set(skip.map((f) => f.toLowerCase()));
  const headerFieldNames = DKIM_SIGNED_FIELDS.filter((f) => !without.has(f.toLowerCase())).join(':');
  let loaded: Promise<Signer> | null = null;
  return (raw) => {
    loaded ??= import('nodemailer/lib/dkim').then(({ default: DKIM }) => {
      const signer = new DKIM({ ...key, headerFieldNames });
      return async (input: Buffer) => {
        const chunks: Buffer[] = [];
        for await (const chunk of signer.sign(input)) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      };
    });
    return loaded.then((sign) => sign(raw));
  };
}
