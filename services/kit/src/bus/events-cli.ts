import type pg from 'pg';
import { DeadLetters } from './dead-letters.ts';

const USAGE = `usage: events list                      dead letters of this service (consumers' and outbox)
       events replay <id> [<id> ...]     run them again (a running replica picks them up)
       events replay --all
       events discard <id> [<id> ...]    forget them for good`;

/**
 * The dead-letter command of a service (`tsx src/main.ts events ...`, `pnpm events ...` for the
 * embedded platform): lists what failed and why, asks for replays, discards. Returns the exit code.
 */
export async function runEventsCommand(
  service: string,
  pool: pg.Pool,
  argv: readonly string[],
  out: (line: string) => void = (l) => console.log(l),
): Promise<number> {
  const letters = new DeadLetters(pool);
  const [verb, ...rest] = argv;
  if (verb === 'list' || verb === undefined) {
    const list = await letters.list();
    if (!list.length) {
      out(`${service}: no dead letters`);
      return 0;
    }
    out(`${service}: ${list.length} dead letter${list.length === 1 ? '' : 's'}`);
    for (const d of list) {
      const who = d.kind === 'outbox' ? 'outbox (not published)' : `consumer ${d.consumer}`;
      const state = d.replayRequested ? ' [replay requested]' : '';
      out(`  ${d.id}  ${d.subject}  ${who}  ${d.deliveries} attempts  ${d.createdAt}${state}`);
      out(`      ${d.error.split('\n')[0]}`);
    }
    return 0;
  }
  if (verb === 'replay') {
    const ids = rest.includes('--all') ? 'all' : rest;
    if (ids !== 'all' && !ids.length) {
      out(USAGE);
      return 2;
    }
    const n = await letters.requestReplay(ids);
    out(`${service}: ${n} dead letter${n === 1 ? '' : 's'} queued for replay`);
    return 0;
  }
  if (verb === 'discard') {
    if (!rest.length) {
      out(USAGE);
      return 2;
    }
    const n = await letters.discard(rest);
    out(`${service}: ${n} dead letter${n === 1 ? '' : 's'} discarded`);
    return 0;
  }
  out(USAGE);
  return 2;
}
