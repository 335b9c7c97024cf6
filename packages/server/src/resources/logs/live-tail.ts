/**
 * The live tail (issue 32): server-sent events of new log lines, filtered like the line list and
 * read by the same query (store-line-reads.ts `linesAfter`: the lines after the last one sent,
 * which every process sees, whichever process wrote them). Bounded per connection: one poll at a
 * time every POLL_MS, at most BATCH lines an event (more are skipped and counted in a `skipped`
 * event), a heartbeat comment every HEARTBEAT_MS, closed after MAX_OPEN_MS (EventSource
 * reconnects), and at most `tailMaxPerProject` connections per project in a process (429).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.ts';
import { TooManyRequestsError } from '../../kernel/errors.ts';
import { presentLine } from './presenter.ts';
import { lastLineId, linesAfter, type LineFilter } from './store-line-reads.ts';

export const POLL_MS = 250;
const HEARTBEAT_MS = 15_000;
const MAX_OPEN_MS = 30 * 60_000;
const BATCH = 200;

type Row = Record<string, any>;

export class LiveTails {
  private readonly open = new Map<string, Set<() => void>>();

  private readonly db: Database;
  private readonly maxPerProject: number;

  constructor(db: Database, maxPerProject: number) {
    this.db = db;
    this.maxPerProject = maxPerProject;
  }

  /** Ends every open tail (the server is closing). */
  closeAll(): void {
    for (const closers of this.open.values()) for (const close of [...closers]) close();
  }

  async serve(request: FastifyRequest, reply: FastifyReply, projectId: string, filter: LineFilter): Promise<void> {
    const closers = this.open.get(projectId) ?? new Set();
    if (closers.size >= this.maxPerProject)
      throw new TooManyRequestsError(`At most ${this.maxPerProject} live tails per project are open at a time`, {
        'retry-after': '30',
      });
    let after = await lastLineId(this.db);
    this.open.set(projectId, closers);
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    raw.write(`retry: 2000\nevent: ready\ndata: ${JSON.stringify({ after })}\n\n`);
    let closed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastWrite = Date.now();
    const opened = Date.now();
    const close = () => {
      if (closed) return;
      closed = true;
      if (timer) clearTimeout(timer);
      closers.delete(close);
      if (closers.size === 0 && this.open.get(projectId) === closers) this.open.delete(projectId);
      raw.end();
    };
    closers.add(close);
    request.raw.on('close', close);
    const poll = async () => {
      timer = undefined;
      if (closed) return;
      try {
        const rows = await linesAfter<Row>(this.db, projectId, filter, after, BATCH + 1);
        if (closed) return;
        if (rows.length > BATCH) {
          // Too many to send: jump to the newest and say how far.
          const newest = await lastLineId(this.db);
          raw.write(`event: skipped\ndata: ${JSON.stringify({ from: after, to: newest })}\n\n`);
          after = newest;
          lastWrite = Date.now();
        } else if (rows.length > 0) {
          after = String(rows.at(-1)!.id);
          raw.write(`event: lines\nid: ${after}\ndata: ${JSON.stringify(rows.map(presentLine))}\n\n`);
          lastWrite = Date.now();
        }
        if (Date.now() - lastWrite >= HEARTBEAT_MS) {
          raw.write(': heartbeat\n\n');
          lastWrite = Date.now();
        }
        if (Date.now() - opened >= MAX_OPEN_MS) return close();
      } catch (error) {
        request.log.warn({ err: error }, 'log tail: poll failed');
        return close();
      }
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    timer = setTimeout(() => void poll(), POLL_MS);
  }
}
