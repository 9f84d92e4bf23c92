import clsx from 'clsx';
import {
  BookOpen,
  Bot,
  CalendarCheck,
  FileText,
  History,
  Lock,
  MessageSquare,
  PhoneForwarded,
  Settings2,
  Workflow,
  Zap,
} from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { PageMeta } from '../../../components/seo/page-meta.tsx';
import { Tabs } from '../../../components/tabs.tsx';
import { openBookingModal } from '../../../lib/events.ts';
import * as ui from '../shared/ui.ts';
import {
  ACTIONS,
  AGENT,
  CALLS,
  type CallOutcome,
  DOCUMENTS,
  FLOW_STEPS,
  GUARDRAILS,
  LANGUAGES,
  RESPONSE_SPEEDS,
  SAMPLE_ANSWERS,
  SELECTED_SPEED,
  VOICE_MODELS,
} from './sample.ts';

type TabKey = 'configure' | 'knowledge' | 'behavior' | 'actions' | 'history';

const TABS = [
  { key: 'configure', label: 'Configure', icon: <Settings2 className="h-4 w-4" aria-hidden="true" /> },
  { key: 'knowledge', label: 'Knowledge Base', icon: <BookOpen className="h-4 w-4" aria-hidden="true" /> },
  { key: 'behavior', label: 'Behavior', icon: <Workflow className="h-4 w-4" aria-hidden="true" /> },
  { key: 'actions', label: 'Actions', icon: <Zap className="h-4 w-4" aria-hidden="true" /> },
  { key: 'history', label: 'Call History', icon: <History className="h-4 w-4" aria-hidden="true" /> },
] satisfies { key: TabKey; label: string; icon: ReactNode }[];

const DESCRIPTION =
  'A read-only tour of the Parley voice agent platform: configure an agent’s voice and language, give it a knowledge base, shape its conversation flow, connect actions and review call history.';

const OUTCOME_STYLES: Record<CallOutcome, string> = {
  Completed: 'bg-emerald-400/15 text-emerald-200',
  Transferred: 'bg-sky-400/15 text-sky-200',
  'No Answer': 'bg-amber-400/15 text-amber-200',
};

/** A switch that shows a setting's state; always disabled in the preview. */
function PreviewSwitch({ label, on }: { label: string; on: boolean }) {
  return (
    <div className="flex items-center justify-between gap-4 py-3">
      <span className="text-sm text-slate-200">{label}</span>
      <button
        type="button"
        role="switch"
        aria-checked={on}
        aria-label={label}
        disabled
        className={clsx(
          'relative inline-flex h-6 w-11 shrink-0 cursor-not-allowed items-center rounded-full border transition',
          on ? 'border-brand/60 bg-brand/70' : 'border-navy-600 bg-navy-800',
        )}
      >
        <span
          aria-hidden="true"
          className={clsx(
            'inline-block h-4 w-4 rounded-full bg-white shadow transition',
            on ? 'translate-x-6' : 'translate-x-1',
          )}
        />
      </button>
    </div>
  );
}

/** One tab's content: a disabled fieldset, so every control in it is visibly read-only. */
function Panel({ title, noteId, children }: { title: string; noteId: string; children: ReactNode }) {
  return (
    <fieldset disabled aria-describedby={noteId} className={clsx(ui.card, 'min-w-0')}>
      <legend className="sr-only">{title}</legend>
      <h2 className={ui.cardTitle}>{title}</h2>
      <div className="mt-4">{children}</div>
    </fieldset>
  );
}

function ConfigureTab({ noteId }: { noteId: string }) {
  const id = useId();
  return (
    <Panel title="Agent configuration" noteId={noteId}>
      <div className="grid gap-5 md:grid-cols-2">
        <div>
          <label htmlFor={`${id}-name`} className={ui.label}>
            Agent name
          </label>
          <input id={`${id}-name`} className={ui.field} defaultValue={AGENT.name} />
        </div>
        <div>
          <label htmlFor={`${id}-business`} className={ui.label}>
            Business
          </label>
          <input id={`${id}-business`} className={ui.field} defaultValue={AGENT.business} />
        </div>
        <div>
          <label htmlFor={`${id}-voice`} className={ui.label}>
            Voice model
          </label>
          <select id={`${id}-voice`} className={ui.field} defaultValue={VOICE_MODELS[0]}>
            {VOICE_MODELS.map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-language`} className={ui.label}>
            Language
          </label>
          <select id={`${id}-language`} className={ui.field} defaultValue={LANGUAGES[0]}>
            {LANGUAGES.map((l) => (
              <option key={l}>{l}</option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="mt-6">
        <legend className={ui.label}>Response speed</legend>
        <div className="mt-2 grid gap-3 md:grid-cols-3">
          {RESPONSE_SPEEDS.map((s) => (
            <label
              key={s.id}
              className={clsx(
                'flex cursor-not-allowed gap-3 rounded-xl border p-3',
                s.id === SELECTED_SPEED ? 'border-brand/60 bg-brand/10' : 'border-navy-600 bg-navy-800',
              )}
            >
              <input
                type="radio"
                name={`${id}-speed`}
                value={s.id}
                defaultChecked={s.id === SELECTED_SPEED}
                className="mt-1 accent-cyan-400"
              />
              <span>
                <span className="block text-sm font-medium text-white">{s.label}</span>
                <span className="block text-xs text-slate-300">{s.description}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="mt-6">
        <label htmlFor={`${id}-greeting`} className={ui.label}>
          Greeting
        </label>
        <textarea id={`${id}-greeting`} rows={3} className={ui.field} defaultValue={AGENT.greeting} />
      </div>
    </Panel>
  );
}

function KnowledgeTab({ noteId }: { noteId: string }) {
  return (
    <Panel title="Knowledge base" noteId={noteId}>
      <p className="text-sm text-slate-300">
        The agent answers from these sources only, and says so when it does not know.
      </p>
      <h3 className="mt-5 text-sm font-semibold text-slate-200">Documents</h3>
      <ul className="mt-2 divide-y divide-navy-700 rounded-xl border border-navy-700">
        {DOCUMENTS.map((d) => (
          <li key={d.name} className="flex items-center gap-3 px-4 py-3">
            <FileText className="h-5 w-5 shrink-0 text-brand" aria-hidden="true" />
            <span className="min-w-0">
              <span className="block truncate text-sm font-medium text-white">{d.name}</span>
              <span className="block text-xs text-slate-300">{d.detail}</span>
            </span>
          </li>
        ))}
      </ul>
      <button type="button" className={clsx(ui.secondaryButton, 'mt-4')}>
        Upload document
      </button>
      <h3 className="mt-6 text-sm font-semibold text-slate-200">Sample answers</h3>
      <dl className="mt-2 grid gap-3 md:grid-cols-2">
        {SAMPLE_ANSWERS.map((qa) => (
          <div key={qa.question} className="rounded-xl border border-navy-700 bg-navy-800/60 p-4">
            <dt className="flex items-center gap-2 text-sm font-medium text-white">
              <MessageSquare className="h-4 w-4 text-brand" aria-hidden="true" />
              {qa.question}
            </dt>
            <dd className="mt-1 text-sm text-slate-300">{qa.answer}</dd>
          </div>
        ))}
      </dl>
    </Panel>
  );
}

function BehaviorTab({ noteId }: { noteId: string }) {
  return (
    <Panel title="Conversation flow" noteId={noteId}>
      <ol className="grid gap-3 md:grid-cols-3">
        {FLOW_STEPS.map((s, i) => (
          <li key={s.title} className="rounded-xl border border-navy-700 bg-navy-800/60 p-4">
            <span className="inline-flex h-7 w-7 items-center justify-center rounded-full bg-brand text-sm font-bold text-navy-950">
              {i + 1}
            </span>
            <h3 className="mt-3 text-sm font-semibold text-white">{s.title}</h3>
            <p className="mt-1 text-sm text-slate-300">{s.description}</p>
          </li>
        ))}
      </ol>
      <h3 className="mt-6 text-sm font-semibold text-slate-200">Guardrails</h3>
      <div className="mt-1 divide-y divide-navy-700">
        {GUARDRAILS.map((g) => (
          <PreviewSwitch key={g.label} label={g.label} on={g.on} />
        ))}
      </div>
    </Panel>
  );
}

const ACTION_ICONS = [CalendarCheck, PhoneForwarded, MessageSquare, FileText];

function ActionsTab({ noteId }: { noteId: string }) {
  return (
    <Panel title="Actions" noteId={noteId}>
      <ul className="grid gap-3 md:grid-cols-2">
        {ACTIONS.map((a, i) => {
          const Icon = ACTION_ICONS[i] ?? Zap;
          return (
            <li key={a.name} className="rounded-xl border border-navy-700 bg-navy-800/60 p-4">
              <div className="flex items-start justify-between gap-3">
                <div className="flex items-center gap-3">
                  <Icon className="h-5 w-5 shrink-0 text-brand" aria-hidden="true" />
                  <h3 className="text-sm font-semibold text-white">{a.name}</h3>
                </div>
                <span className={clsx(ui.badge, 'bg-emerald-400/15 text-emerald-200')}>Enabled</span>
              </div>
              <p className="mt-2 text-sm text-slate-300">{a.description}</p>
              <p className="mt-2 text-xs text-slate-300">
                <span className="font-semibold text-slate-200">Trigger:</span> {a.trigger}
              </p>
            </li>
          );
        })}
      </ul>
      <button type="button" className={clsx(ui.secondaryButton, 'mt-4')}>
        Add action
      </button>
    </Panel>
  );
}

function HistoryTab({ noteId }: { noteId: string }) {
  return (
    <Panel title="Recent calls" noteId={noteId}>
      <ul className="divide-y divide-navy-700 rounded-xl border border-navy-700">
        {CALLS.map((c) => (
          <li key={c.caller} className="grid gap-2 px-4 py-4 sm:grid-cols-[1fr_auto] sm:items-center">
            <div className="min-w-0">
              <p className="text-sm font-medium text-white">
                {c.caller} <span className="font-normal text-slate-300">· {c.number}</span>
              </p>
              <p className="mt-1 text-sm text-slate-300">{c.summary}</p>
              <p className="mt-1 text-xs text-slate-300">
                {c.when} · {c.duration}
              </p>
            </div>
            <span
              className={clsx(ui.badge, 'justify-self-start sm:justify-self-end', OUTCOME_STYLES[c.outcome])}
            >
              {c.outcome}
            </span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

/**
 * The platform preview (spec §2 "Platform preview"), at /voice-agent-preview and
 * /agent-platform: a static, read-only tour of the agent console with sample content. Every
 * control is disabled and the page says so; 'Book a demo' opens the booking modal.
 */
export default function PlatformPreviewPage() {
  const [tab, setTab] = useState<TabKey>('configure');
  const noteId = useId();
  const panels: Record<TabKey, ReactNode> = {
    configure: <ConfigureTab noteId={noteId} />,
    knowledge: <KnowledgeTab noteId={noteId} />,
    behavior: <BehaviorTab noteId={noteId} />,
    actions: <ActionsTab noteId={noteId} />,
    history: <HistoryTab noteId={noteId} />,
  };

  return (
    <section aria-labelledby="preview-title" className={ui.pageSection}>
      {/* Both routes show the same screen, so both name /voice-agent-preview as canonical. */}
      <PageMeta title="Voice Agent Platform Preview" description={DESCRIPTION} path="/voice-agent-preview" />
      <div className={ui.container}>
        <header className="max-w-3xl">
          <p className={ui.eyebrow}>Voice Agent Platform</p>
          <h1 id="preview-title" className={ui.pageTitle}>
            Your AI receptionist, configured in minutes
          </h1>
          <p className={ui.lead}>{DESCRIPTION}</p>
        </header>

        <div className="mt-10 overflow-hidden rounded-3xl border border-navy-700 bg-navy-950 shadow-2xl shadow-cyan-500/5">
          <div className="flex flex-col gap-4 border-b border-navy-700 bg-navy-900 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-6">
            <div className="flex items-center gap-3">
              <span className="inline-flex h-10 w-10 items-center justify-center rounded-xl bg-brand/15 text-brand">
                <Bot className="h-5 w-5" aria-hidden="true" />
              </span>
              <div>
                <p className="font-semibold text-white">{AGENT.name}</p>
                <p className="text-sm text-slate-300">{AGENT.business}</p>
              </div>
            </div>
            <div className="flex flex-wrap items-center gap-3">
              <p
                id={noteId}
                className="inline-flex items-center gap-2 rounded-full border border-amber-300/40 bg-amber-300/10 px-3 py-1 text-sm font-medium text-amber-100"
              >
                <Lock className="h-4 w-4" aria-hidden="true" />
                Preview — read only
              </p>
              <button type="button" onClick={openBookingModal} className={ui.primaryButton}>
                <CalendarCheck className="h-4 w-4" aria-hidden="true" />
                Book a demo
              </button>
            </div>
          </div>
          <div className="p-4 sm:p-6">
            <Tabs label="Agent settings" tabs={TABS} selected={tab} onSelect={setTab}>
              {panels[tab]}
            </Tabs>
          </div>
        </div>

        <div className={clsx(ui.card, 'mt-10 flex flex-col items-start gap-4 sm:flex-row sm:items-center')}>
          <div className="flex-1">
            <h2 className={ui.cardTitle}>See it working on your own calls</h2>
            <p className="mt-1 text-sm text-slate-300">
              In a 15-minute demo we configure an agent for your business and let you call it.
            </p>
          </div>
          <button type="button" onClick={openBookingModal} className={ui.primaryButton}>
            <CalendarCheck className="h-4 w-4" aria-hidden="true" />
            Book a demo
          </button>
        </div>
      </div>
    </section>
  );
}
