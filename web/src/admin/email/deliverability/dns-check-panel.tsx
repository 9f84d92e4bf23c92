import type { DnsCheckResult, DnsCheckStatus, DnsRecordCheck } from '@parley/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Copy, Globe, Loader2, XCircle } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from '../../../components/toast/index.ts';
import { Badge, cardClass, labelClass, primaryButton, selectClass } from '../../components/ui.tsx';
import { messageOr } from '../../lib/api.ts';
import { checkDns, DELIVERABILITY_PATH } from './api.ts';

const STATUS: Record<DnsCheckStatus, { label: string; badge: string }> = {
  pass: { label: 'Published', badge: 'border-emerald-400/40 bg-emerald-400/10 text-emerald-200' },
  warning: {
    label: 'Published, can be stronger',
    badge: 'border-amber-300/40 bg-amber-300/10 text-amber-100',
  },
  missing: { label: 'Not found', badge: 'border-red-400/40 bg-red-400/10 text-red-200' },
  invalid: { label: 'Not valid', badge: 'border-red-400/40 bg-red-400/10 text-red-200' },
  error: { label: 'Lookup failed', badge: 'border-slate-400/40 bg-slate-400/10 text-slate-200' },
};

async function copy(text: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast({ title: 'Copied', description: 'The record is on the clipboard.' });
  } catch {
    toast({
      variant: 'destructive',
      title: 'Copy failed',
      description: 'Select the record and copy it by hand.',
    });
  }
}

/**
 * The DNS check (spec §3 "DNS check result", §8 "DNS Check Failed"): SPF, DKIM, DMARC and MX
 * of a sender domain, each with ✓ or ✗, what was found and what to publish. `domains` are the
 * sender domains in use (the settings' sender first); the first is checked unless another is chosen.
 */
export function DnsCheckPanel({ domains }: { domains: string[] }) {
  const id = useId();
  const queryClient = useQueryClient();
  const [domain, setDomain] = useState<string>('');
  const chosen = domain || domains[0] || '';
  const check = useMutation({
    mutationFn: () => checkDns(domains.length > 1 && chosen !== domains[0] ? chosen : undefined),
    onSuccess: (r) => {
      // The recommendations read the same (now refreshed) DNS result.
      void queryClient.invalidateQueries({ queryKey: [DELIVERABILITY_PATH] });
      const failed = Object.keys(r.errors);
      // Nothing could be told: as much a failure as an error answer.
      if (r.errors.domain || ['spf', 'dkim', 'dmarc', 'mx'].every((k) => failed.includes(k)))
        toast({
          variant: 'destructive',
          title: 'DNS Check Failed',
          description: `No answer from the name servers for ${r.domain}: ${Object.values(r.errors)[0] ?? ''}`,
        });
    },
    onError: (err) =>
      toast({
        variant: 'destructive',
        title: 'DNS Check Failed',
        description: messageOr(err, 'Please try again.'),
      }),
  });
  const result = check.data;

  return (
    <section
      aria-labelledby={`${id}-title`}
      className={`${cardClass} space-y-4 p-4 sm:p-5`}
      data-testid="dns-check"
    >
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h3 id={`${id}-title`} className="flex items-center gap-2 text-lg font-semibold text-white">
            <Globe className="h-5 w-5 text-brand" aria-hidden="true" />
            Sender authentication (DNS)
          </h3>
          <p className="mt-1 text-sm text-slate-400">
            SPF, DKIM and DMARC let receivers verify mail from your domain; MX lets replies and bounce reports
            reach it. Looked up live on the name servers.
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          {domains.length > 1 ? (
            <div>
              <label htmlFor={`${id}-domain`} className={labelClass}>
                Sender domain
              </label>
              <select
                id={`${id}-domain`}
                className={selectClass}
                value={chosen}
                onChange={(e) => setDomain(e.target.value)}
              >
                {domains.map((d) => (
                  <option key={d} value={d}>
                    {d}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <button
            type="button"
            className={primaryButton}
            disabled={check.isPending}
            aria-busy={check.isPending}
            onClick={() => check.mutate()}
          >
            {check.isPending ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
            ) : (
              <Globe className="h-4 w-4" aria-hidden="true" />
            )}
            {check.isPending ? 'Checking…' : 'Check DNS'}
          </button>
        </div>
      </div>
      <div aria-live="polite">{result ? <DnsResult result={result} /> : null}</div>
    </section>
  );
}

function DnsResult({ result }: { result: DnsCheckResult }) {
  return (
    <div className="space-y-3" data-testid="dns-result">
      <p className="text-sm text-slate-300">
        <span className="font-medium text-white">{result.domain}</span>
        {result.fromAddress ? <> (sender {result.fromAddress})</> : null} · DKIM selector{' '}
        <code className="text-slate-200">{result.selector}</code> · {result.durationMs} ms
        {result.nameServers.length ? <> via {result.nameServers.join(', ')}</> : null}
      </p>
      {result.errors.domain ? (
        <p role="alert" className="text-sm text-red-200">
          {result.errors.domain}
        </p>
      ) : null}
      <ul className="space-y-3" aria-label="DNS records">
        {result.checks.map((c) => (
          <DnsRow key={c.key} check={c} />
        ))}
      </ul>
    </div>
  );
}

function DnsRow({ check: c }: { check: DnsRecordCheck }) {
  const Icon = c.ok ? CheckCircle2 : XCircle;
  const s = STATUS[c.status];
  return (
    <li className="rounded-xl border border-navy-700 bg-navy-950/40 p-3" data-testid={`dns-${c.key}`}>
      <div className="flex flex-wrap items-center gap-2">
        <Icon
          className={`h-5 w-5 shrink-0 ${c.ok ? 'text-emerald-400' : 'text-red-400'}`}
          aria-hidden="true"
        />
        <span className="font-semibold text-white">
          {c.label}
          <span className="sr-only">{c.ok ? ': passes' : ': fails'}</span>
        </span>
        <Badge className={s.badge}>{s.label}</Badge>
        <code className="min-w-0 truncate text-xs text-slate-400" title={c.name}>
          {c.name}
        </code>
      </div>
      {c.found.length ? (
        <ul className="mt-2 space-y-1" aria-label={`${c.label} records found`}>
          {c.found.map((f) => (
            <li key={f}>
              <code className="block break-all rounded bg-navy-800 px-2 py-1 text-xs text-slate-200">
                {f}
              </code>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="mt-2 text-sm text-slate-300">{c.advice}</p>
      {c.suggestion ? (
        <div className="mt-2 rounded-lg border border-brand/30 bg-brand/5 p-2 text-xs">
          <p className="text-slate-300">
            Publish a <span className="font-semibold text-white">{c.suggestion.type}</span> record at{' '}
            <code className="break-all text-white">{c.suggestion.name}</code>:
          </p>
          <div className="mt-1 flex items-start gap-2">
            <code
              className="block min-w-0 flex-1 break-all text-brand"
              data-testid={`dns-${c.key}-suggestion`}
            >
              {c.suggestion.value}
            </code>
            <button
              type="button"
              className="shrink-0 rounded p-1 text-slate-400 hover:bg-navy-700 hover:text-white"
              aria-label={`Copy the ${c.label} record`}
              onClick={() => void copy(c.suggestion?.value ?? '')}
            >
              <Copy className="h-4 w-4" aria-hidden="true" />
            </button>
          </div>
        </div>
      ) : null}
    </li>
  );
}
