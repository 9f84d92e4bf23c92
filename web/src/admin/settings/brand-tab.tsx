import { type FieldDef, SettingsForm } from './settings-form.tsx';

export const BRAND_FIELDS: FieldDef[] = [
  { key: 'brand_name', label: 'Brand Name', placeholder: 'Your company' },
  {
    key: 'website_url',
    label: 'Website',
    kind: 'url',
    placeholder: 'https://example.com',
    hint: 'Brand Intelligence crawls this site.',
  },
  { key: 'support_email', label: 'Support Email', kind: 'email', placeholder: 'support@example.com' },
  { key: 'company_phone', label: 'Company Phone', kind: 'tel', placeholder: '+1 (555) 010-0000' },
  {
    key: 'brand_voice',
    label: 'Brand Voice',
    kind: 'textarea',
    wide: true,
    placeholder: 'Friendly, confident and clear. We speak to busy owners in plain words.',
  },
  { key: 'company_address', label: 'Company Address', kind: 'textarea', wide: true },
];

/** Brand (spec §2): brand name, voice, website, support email, address, phone. */
export function BrandTab() {
  return (
    <SettingsForm
      title="Brand Settings"
      description="Used in emails, newsletters and by Brand Intelligence."
      fields={BRAND_FIELDS}
      submitLabel="Save Brand Settings"
    />
  );
}
