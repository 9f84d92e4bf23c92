import { Fragment } from 'react';

/** A block of a post body: a section heading or a paragraph (its lines). */
export type BodyBlock = { kind: 'heading'; text: string } | { kind: 'paragraph'; lines: string[] };

const HEADING_MAX_CHARS = 80;
const HEADING_MAX_WORDS = 12;

/**
 * Splits a body into blocks (spec: paragraphs on blank lines; single line breaks become line
 * breaks). Posts are plain text: the AI writers put section headings on a line of their own,
 * so a short one-line block without closing punctuation, followed by more text, is shown as a
 * heading. Nothing is ever parsed as HTML.
 */
export function bodyBlocks(content: string): BodyBlock[] {
  const chunks = content
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((c) => c.replace(/^\n+|\s+$/g, ''))
    .filter((c) => c.trim());
  return chunks.map((chunk, i): BodyBlock => {
    const text = chunk.trim();
    const heading =
      i < chunks.length - 1 &&
      !text.includes('\n') &&
      text.length <= HEADING_MAX_CHARS &&
      text.split(/\s+/).length <= HEADING_MAX_WORDS &&
      /[\p{L}\p{N}]$/u.test(text);
    return heading ? { kind: 'heading', text } : { kind: 'paragraph', lines: chunk.split('\n') };
  });
}

/** The body of a post, rendered as text only: any markup in it shows as characters and never runs. */
export function PostBody({ content }: { content: string }) {
  return (
    <div className="space-y-5 text-lg leading-relaxed text-slate-200" data-testid="post-body">
      {bodyBlocks(content).map((block, i) =>
        block.kind === 'heading' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks have no identity beyond their order.
          <h2 key={i} className="pt-4 text-2xl font-semibold tracking-tight text-white">
            {block.text}
          </h2>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
          <p key={i} className="break-words">
            {block.lines.map((line, j) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines are positional.
              <Fragment key={j}>
                {j > 0 ? <br /> : null}
                {line}
              </Fragment>
            ))}
          </p>
        ),
      )}
    </div>
  );
}
