import type { GeneratedPost } from '@parley/contracts';
import { BLOG_LIMITS } from '@parley/contracts/blog';
import { Loader2, Sparkles, Wand2 } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { toast } from '../../components/toast/index.ts';
import { useFormFeedback } from '../components/form-feedback.tsx';
import { inputClass, primaryButton } from '../components/ui.tsx';
import { messageOr } from '../lib/api.ts';
import { generateArticle, writerName } from './api.ts';

const TOPIC_REQUIRED = 'Please enter a topic or description for the article';

/**
 * The AI generation box: a topic (Enter or 'Generate Article'), 'auto-generate a featured
 * image' (on by default), and a progress line with the elapsed time while the writer works.
 */
export function AiGenerationBox({ onGenerated }: { onGenerated: (post: GeneratedPost) => void }) {
  const id = useId();
  const [topic, setTopic] = useState('');
  const [topicMissing, setTopicMissing] = useState(false);
  // Inside the post form, not a form of its own: the same rule through the hook.
  const feedback = useFormFeedback<HTMLElement>();
  const [withImage, setWithImage] = useState(true);
  const [startedAt, setStartedAt] = useState<number | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const generating = startedAt !== null;

  useEffect(() => {
    if (startedAt === null) return;
    const timer = setInterval(() => setElapsed(Math.floor((Date.now() - startedAt) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [startedAt]);

  const generate = async () => {
    if (generating) return;
    if (!topic.trim()) {
      toast({ variant: 'destructive', title: 'Error', description: TOPIC_REQUIRED });
      setTopicMissing(true);
      feedback.report([TOPIC_REQUIRED]);
      return;
    }
    setElapsed(0);
    setStartedAt(Date.now());
    try {
      const res = await generateArticle({ topic: topic.trim(), generateImage: withImage });
      if (!res?.post?.title || typeof res.post.content !== 'string') {
        toast({
          variant: 'destructive',
          title: 'Error',
          description: 'Invalid response from content generation',
        });
        return;
      }
      onGenerated(res.post);
      toast({
        title: 'Article generated',
        description: `Written by ${writerName(res.provider)}${
          res.post.featuredImage ? ', with a featured image' : ''
        }. Review it, then save.`,
      });
    } catch (err) {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: `Generation failed: ${messageOr(err, 'Failed to generate blog post')}`,
      });
    } finally {
      setStartedAt(null);
    }
  };

  return (
    <section
      ref={feedback.ref}
      aria-labelledby={`${id}-title`}
      className="rounded-xl border border-brand/30 bg-gradient-to-br from-cyan-500/10 to-transparent p-4"
    >
      {feedback.announcer}
      <h3 id={`${id}-title`} className="flex items-center gap-2 text-sm font-semibold text-white">
        <Sparkles className="h-4 w-4 text-brand" aria-hidden="true" />
        AI Content Generation
      </h3>
      <label htmlFor={`${id}-topic`} className="mt-3 mb-1 block text-sm text-slate-300">
        Topic or description
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={`${id}-topic`}
          className={inputClass}
          value={topic}
          maxLength={BLOG_LIMITS.topic}
          disabled={generating}
          placeholder="e.g. How dental clinics cut no-shows with AI phone agents"
          aria-invalid={topicMissing ? true : undefined}
          onChange={(e) => {
            setTopic(e.target.value);
            setTopicMissing(false);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              // Enter generates; it must not submit the post form around it.
              e.preventDefault();
              void generate();
            }
          }}
        />
        <button
          type="button"
          className={`${primaryButton} shrink-0`}
          disabled={generating}
          aria-busy={generating}
          onClick={() => void generate()}
        >
          {generating ? (
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />
          ) : (
            <Wand2 className="h-4 w-4" aria-hidden="true" />
          )}
          {generating ? 'Generating...' : 'Generate Article'}
        </button>
      </div>
      <label className="mt-3 flex items-center gap-2 text-sm text-slate-300">
        <input
          type="checkbox"
          checked={withImage}
          disabled={generating}
          onChange={(e) => setWithImage(e.target.checked)}
          className="h-4 w-4 accent-cyan-400"
        />
        Auto-generate a featured image
      </label>
      {generating ? (
        <p
          role="status"
          className="mt-3 flex items-center gap-2 text-sm text-cyan-100"
          data-testid="ai-progress"
        >
          <Loader2 className="h-4 w-4 animate-spin text-brand" aria-hidden="true" />
          Writing the article{withImage ? ' and its featured image' : ''}... {elapsed}s
        </p>
      ) : null}
    </section>
  );
}
