import type { BrandAnalysis } from '@parley/contracts';
import { Brain, Loader2, Sparkles } from 'lucide-react';
import type { ReactNode } from 'react';
import { toast } from '../../components/toast/index.ts';
import { formatShortDateTime } from '../../lib/time.ts';
import {
  Badge,
  cardClass,
  ErrorState,
  LoadingState,
  primaryButton,
  secondaryButton,
} from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import { useBrandCrawl, useBrandSettings } from './api.ts';

/** Brand keywords shown before '+N more' (spec §9). */
export const KEYWORDS_SHOWN = 5;

function Swatch({ label, color }: { label: string; color: string | null }) {
  return (
    <div className="flex items-center gap-2" data-testid={`color-${label.toLowerCase()}`}>
      <span
        className="h-8 w-8 shrink-0 rounded-lg border border-navy-600"
        style={color ? { backgroundColor: color } : undefined}
        aria-hidden="true"
      />
      <div>
        <p className="text-xs text-slate-400">{label}</p>
        <p className="font-mono text-sm text-white">{color ?? 'Not found'}</p>
      </div>
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-400">{label}</dt>
      <dd className="text-sm break-words text-white">{children}</dd>
    </div>
  );
}

export function AnalysisView({ analysis }: { analysis: BrandAnalysis }) {
  const keywords = analysis.voice.keywords;
  const more = keywords.length - KEYWORDS_SHOWN;
  return (
    <div className="space-y-5" data-testid="brand-analysis">
      <div className="flex flex-wrap items-center gap-2 text-xs text-slate-400">
        <Badge className="border-cyan-400/40 bg-cyan-400/10 text-cyan-200">
          {analysis.provider === 'openai' ? 'Refined by OpenAI' : 'Local analysis'}
        </Badge>
        <span>
          {new URL(analysis.url).host} · {analysis.sources.length} documents read ·{' '}
          {formatShortDateTime(analysis.analyzedAt)}
        </span>
      </div>
      <section aria-label="Colors">
        <h3 className="mb-2 text-sm font-semibold text-slate-200">Colors</h3>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Swatch label="Primary" color={analysis.colors.primary} />
          <Swatch label="Secondary" color={analysis.colors.secondary} />
          <Swatch label="Accent" color={analysis.colors.accent} />
        </div>
      </section>
      <dl className="grid gap-4 sm:grid-cols-2">
        <Row label="Primary font">{analysis.typography.primaryFont ?? 'Not found'}</Row>
        <Row label="Secondary font">{analysis.typography.secondaryFont ?? 'Not found'}</Row>
        <Row label="Tagline">{analysis.messaging.tagline || 'Not found'}</Row>
        <Row label="Calls to action">{analysis.messaging.ctaStyle}</Row>
        <Row label="Tone">{analysis.voice.tone}</Row>
        <Row label="Personality">{analysis.voice.personality}</Row>
        <Row label="Writing style">{analysis.voice.writingStyle}</Row>
        <Row label="Keywords">
          <span className="flex flex-wrap gap-1" data-testid="brand-keywords">
            {keywords.slice(0, KEYWORDS_SHOWN).map((k) => (
              <Badge key={k}>{k}</Badge>
            ))}
            {more > 0 ? <Badge>+{more} more</Badge> : null}
            {keywords.length === 0 ? 'None found' : null}
          </span>
        </Row>
      </dl>
    </div>
  );
}

/** Intelligence (spec §2, §4): Brand Intelligence crawls the saved website; busy, then complete or failed. */
export function IntelligenceTab({ onOpenBrand }: { onOpenBrand: () => void }) {
  const brand = useBrandSettings();
  const crawl = useBrandCrawl();
  const website = brand.data?.settings.websiteUrl ?? null;
  const analysis = crawl.data?.analysis ?? brand.data?.settings.analysis ?? null;

  const analyze = () => {
    if (crawl.isPending) return;
    crawl.mutate(undefined, {
      onSuccess: (res) =>
        toast({
          title: 'Brand Analysis Complete',
          description: `${res.analysis.sources.length} documents of ${new URL(res.analysis.url).host} read (${
            res.analysis.provider === 'openai' ? 'refined by OpenAI' : 'local analysis'
          }).`,
        }),
      onError: (err) =>
        toast({
          variant: 'destructive',
          title: 'Brand Analysis Failed',
          description: messageOr(err, 'Failed to analyze brand'),
        }),
    });
  };

  return (
    <section
      aria-labelledby="brand-intelligence-title"
      className={`${cardClass} space-y-4 p-4 sm:p-5`}
      aria-busy={crawl.isPending}
    >
      <div>
        <h2
          id="brand-intelligence-title"
          className="flex items-center gap-2 text-lg font-semibold text-white"
        >
          <Brain className="h-5 w-5 text-brand" aria-hidden="true" />
          Brand Intelligence
        </h2>
        <p className="mt-1 text-sm text-slate-400">
          Reads your website (home page, stylesheets and a few linked pages) and describes its colors,
          typography, messaging and voice.
        </p>
      </div>
      {brand.isPending ? (
        <LoadingState label="Loading brand settings..." />
      ) : brand.isError ? (
        <ErrorState
          title="Brand settings could not be loaded"
          message={messageOr(brand.error, 'Failed to load brand settings')}
          onRetry={() => void brand.refetch()}
        />
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <p className="min-w-0 text-sm break-all text-slate-300" data-testid="brand-website">
              {website ? (
                <>
                  Website: <span className="text-white">{website}</span>
                </>
              ) : (
                'No website saved yet.'
              )}
            </p>
            {website ? (
              <button
                type="button"
                className={primaryButton}
                onClick={analyze}
                disabled={crawl.isPending}
                aria-busy={crawl.isPending}
              >
                {crawl.isPending ? (
                  <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
                ) : (
                  <Sparkles className="h-4 w-4" aria-hidden="true" />
                )}
                {crawl.isPending ? 'Analyzing...' : 'Analyze Brand'}
              </button>
            ) : (
              <button type="button" className={secondaryButton} onClick={onOpenBrand}>
                Add your website in the Brand tab
              </button>
            )}
          </div>
          {crawl.isPending ? (
            <p role="status" className="flex items-center gap-2 text-sm text-slate-300">
              <Loader2 className="h-4 w-4 animate-spin text-brand" aria-hidden="true" />
              Crawling {website}... this takes up to 10 seconds.
            </p>
          ) : crawl.isError ? (
            <p role="alert" className="text-sm text-red-200" data-testid="brand-analysis-error">
              {messageOr(crawl.error, 'Failed to analyze brand')}
            </p>
          ) : null}
          {analysis ? (
            <AnalysisView analysis={analysis} />
          ) : (
            <p className="text-sm text-slate-400">No analysis yet.</p>
          )}
        </>
      )}
    </section>
  );
}
