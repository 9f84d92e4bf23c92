import type { SettingEntry } from '@parley/contracts';
import { Loader2, Save } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { AdminForm, useFormFeedback } from '../components/form-feedback.tsx';
import { PasswordInput } from '../components/password-input.tsx';
import {
  cardClass,
  ErrorState,
  FieldError,
  inputClass,
  LoadingState,
  labelClass,
  primaryButton,
} from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import { SaveError, useSaveSettings, useSettings } from './api.ts';
import { savedToast } from './save-outcome.ts';

export interface FieldDef {
  key: string;
  label: string;
  kind?: 'text' | 'email' | 'url' | 'port' | 'password' | 'textarea' | 'tel';
  placeholder?: string;
  hint?: string;
  autoComplete?: string;
  /** Shown (and saved) when nothing is stored yet. */
  defaultValue?: string;
  /** Spans both columns. */
  wide?: boolean;
}

/** The entries a settings form saves: non-empty fields only (spec §5), values as typed but trimmed. */
export function entriesToSave(fields: FieldDef[], values: Record<string, string>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const f of fields) {
    const raw = values[f.key] ?? '';
    // A password is saved exactly as typed; other fields lose edge spaces.
    const value = f.kind === 'password' ? raw : raw.trim();
    if (value.trim()) out.push([f.key, value]);
  }
  return out;
}

function initialValues(fields: FieldDef[], saved: Map<string, SettingEntry>): Record<string, string> {
  return Object.fromEntries(
    fields.map((f) => {
      const entry = saved.get(f.key);
      // A secret never comes back: its field starts empty ("leave empty to keep it").
      if (f.kind === 'password') return [f.key, ''];
      return [f.key, entry?.value ?? f.defaultValue ?? ''];
    }),
  );
}

/**
 * A settings form (SMTP, Brand): fields filled from the saved settings; Save sends one call
 * per non-empty field; a refusal marks its field with the server's message.
 */
export function SettingsForm({
  title,
  description,
  fields,
  submitLabel,
  children,
  onValuesChange,
}: {
  title: string;
  description?: ReactNode;
  fields: FieldDef[];
  submitLabel: string;
  children?: ReactNode;
  onValuesChange?: (values: Record<string, string>) => void;
}) {
  const id = useId();
  const settings = useSettings();
  const save = useSaveSettings();
  const [values, setValues] = useState<Record<string, string> | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const feedback = useFormFeedback<HTMLFormElement>();

  // Filled once from the saved settings; later reads (after a save) do not overwrite typing.
  useEffect(() => {
    if (settings.data && values === null) setValues(initialValues(fields, settings.data));
  }, [settings.data, values, fields]);
  useEffect(() => {
    if (values) onValuesChange?.(values);
  }, [values, onValuesChange]);

  if (settings.isPending) return <LoadingState label="Loading settings..." />;
  if (settings.isError)
    return (
      <ErrorState
        title="Settings could not be loaded"
        message={messageOr(settings.error, 'Failed to load settings')}
        onRetry={() => void settings.refetch()}
      />
    );
  if (!values) return <LoadingState label="Loading settings..." />;

  const isSecret = (key: string) => fields.find((f) => f.key === key)?.kind === 'password';
  const submit = () => {
    if (save.isPending) return;
    const entries = entriesToSave(fields, values);
    setErrors({});
    if (entries.length === 0) {
      toast({ title: 'Nothing to save', description: 'Fill in at least one field.' });
      return;
    }
    save.mutate(entries, {
      onSuccess: (outcome) => {
        toast(savedToast(outcome));
        // The password was saved: its field goes back to "leave empty to keep it".
        setValues((v) =>
          v ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, isSecret(k) ? '' : x])) : v,
        );
      },
      onError: (err) => {
        const message = err instanceof SaveError ? err.message : messageOr(err, 'Failed to save settings');
        if (err instanceof SaveError) {
          setErrors({ [err.key]: message });
          feedback.report({ [err.key]: message });
        }
        toast({ variant: 'destructive', title: 'Update failed', description: message });
      },
    });
  };
  const field = (f: FieldDef) => {
    const fieldId = `${id}-${f.key}`;
    const error = errors[f.key];
    const saved = settings.data?.get(f.key);
    const hint =
      f.kind === 'password' && saved?.isSet
        ? 'A password is saved. Leave this empty to keep it.'
        : f.kind === 'password'
          ? 'No password saved yet.'
          : f.hint;
    const common = {
      id: fieldId,
      value: values[f.key] ?? '',
      placeholder: f.placeholder,
      'aria-invalid': error ? true : undefined,
      'aria-describedby':
        [error ? `${fieldId}-error` : '', hint ? `${fieldId}-hint` : ''].filter(Boolean).join(' ') ||
        undefined,
      onChange: (e: { target: { value: string } }) => {
        const v = e.target.value;
        setValues((x) => (x ? { ...x, [f.key]: v } : x));
        if (error) setErrors((x) => ({ ...x, [f.key]: '' }));
      },
    };
    return (
      <div key={f.key} className={f.wide ? 'sm:col-span-2' : undefined}>
        <label htmlFor={fieldId} className={labelClass}>
          {f.label}
        </label>
        {f.kind === 'password' ? (
          <PasswordInput {...common} autoComplete={f.autoComplete ?? 'new-password'} maxLength={1000} />
        ) : f.kind === 'textarea' ? (
          <textarea {...common} rows={3} maxLength={2000} className={inputClass} />
        ) : (
          <input
            {...common}
            type={f.kind === 'email' ? 'email' : f.kind === 'url' ? 'url' : f.kind === 'tel' ? 'tel' : 'text'}
            inputMode={f.kind === 'port' ? 'numeric' : undefined}
            autoComplete={f.autoComplete ?? 'off'}
            maxLength={f.kind === 'url' ? 2048 : 320}
            className={inputClass}
          />
        )}
        {hint ? (
          <p id={`${fieldId}-hint`} className="mt-1 text-xs text-slate-400">
            {hint}
          </p>
        ) : null}
        <FieldError id={`${fieldId}-error`} message={error || undefined} />
      </div>
    );
  };

  return (
    <AdminForm
      feedback={feedback}
      onSubmit={submit}
      aria-labelledby={`${id}-title`}
      className={`${cardClass} space-y-4 p-4 sm:p-5`}
    >
      <div>
        <h2 id={`${id}-title`} className="text-lg font-semibold text-white">
          {title}
        </h2>
        {description ? <p className="mt-1 text-sm text-slate-400">{description}</p> : null}
      </div>
      {children}
      <div className="grid gap-4 sm:grid-cols-2">{fields.map(field)}</div>
      <button type="submit" className={primaryButton} disabled={save.isPending} aria-busy={save.isPending}>
        {save.isPending ? (
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
        ) : (
          <Save className="h-4 w-4" aria-hidden="true" />
        )}
        {save.isPending ? 'Saving...' : submitLabel}
      </button>
    </AdminForm>
  );
}
