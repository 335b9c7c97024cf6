/**
 * Log lines (issue 32): a table of lines, newest first, each with its own time, level (and `fatal`
 * when the line was), message, source and its data behind a disclosure; pages through the API's
 * cursor; and a live tail (server-sent events from `/logs/tail`, filtered like the list) that puts
 * new lines on top. Used by the explorer's "Lines" view and a log group's page.
 */
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client.ts';
import { LEVEL_LABELS, type Level, type LineListQuery, type LogLine, logsKey } from '../api/logs.ts';
import { Button, ErrorNote } from '../ui.tsx';
import { Empty, Loading } from '../widgets/states.tsx';
import { DataTable } from '../widgets/data-table.tsx';
import { useCursorList } from '../api/use-cursor-list.ts';
import { LoadMore } from '../widgets/load-more.tsx';

const PAGE_SIZE = 100;
/** Lines the live tail keeps on screen. */
const TAIL_KEEP = 500;
/**
 * Pages a search reads on its own while it has found nothing. The server searches a window of
 * lines a page (10,000 on SQLite, store-line-reads.ts): a rare value further back would otherwise
 * show "no match" first. Fifty windows are about half a million lines; then the reader decides.
 */
const SEARCH_ON_ITS_OWN = 50;

export interface LinesProps {
  projectId: string;
  /** The list's filters (the tail takes the same, without the time range). */
  query: LineListQuery;
  /** The lines of one group: its own lines route, no message column. */
  groupId?: string;
  /** Shown when nothing matches. */
  empty: string;
  /** Whether to offer the live tail. */
  tail?: boolean;
}

export function LogLines({ projectId, query, groupId, empty, tail = false }: LinesProps) {
  const [live, setLive] = useState(false);
  const liveId = useId();
  const { list, rows: read } = useCursorList(
    [...logsKey(projectId), 'lines', groupId ?? '', query],
    PAGE_SIZE,
    (paging) =>
      groupId
        ? api.GET('/projects/{projectId}/logs/{reportId}/lines', {
            params: {
              path: { projectId, reportId: groupId },
              query: { ...(query.from ? { from: query.from, to: query.to } : {}), ...paging },
            },
          })
        : api.GET('/projects/{projectId}/logs/lines', {
            params: { path: { projectId }, query: { ...query, ...paging } },
          }),
    (page) => page.lines,
  );
  const { lines: tailed, connected } = useTail(projectId, query, live && tail);
  const rows = [...tailed, ...read];
  // A tailed line may also be on a page read since: shown once.
  const unique = [...new Map(rows.map((row) => [row.id, row])).values()];
  // While nothing matched and older lines remain, the search goes on by itself up to
  // SEARCH_ON_ITS_OWN pages; "Search older lines" allows as many more; a new query starts over.
  const queryId = JSON.stringify([groupId, query]);
  const [allowed, setAllowed] = useState({ queryId, pages: SEARCH_ON_ITS_OWN });
  const searchUntil = allowed.queryId === queryId ? allowed.pages : SEARCH_ON_ITS_OWN;
  const pagesRead = list.data?.pages.length ?? 0;
  const searching = unique.length === 0 && list.hasNextPage && pagesRead < searchUntil;
  const { fetchNextPage, isFetching } = list;
  useEffect(() => {
    if (searching && !isFetching) void fetchNextPage();
  }, [searching, isFetching, fetchNextPage]);

  return (
    <div className="stack">
      {tail ? (
        <div className="row log-tail">
          <label htmlFor={liveId} className="logs-level">
            <input id={liveId} type="checkbox" checked={live} onChange={(event) => setLive(event.target.checked)} />
            Live tail
          </label>
          <span className="muted" role="status">
            {!live
              ? ''
              : connected
                ? `Live: new lines appear on top${tailed.length ? ` (${tailed.length} so far)` : ''}.`
                : 'Connecting…'}
          </span>
        </div>
      ) : null}
      {list.isPending ? (
        <Loading what="log lines" />
      ) : list.isError ? (
        <ErrorNote error={list.error} />
      ) : unique.length === 0 && !list.hasNextPage ? (
        <Empty>
          <p>{empty}</p>
        </Empty>
      ) : unique.length === 0 ? (
        // A search reads a window of lines a page: none matched in them, older lines remain.
        <div className="row">
          <p className="muted" role="status">
            {searching ? 'Searching older lines…' : 'No match in the newest lines read so far.'}
          </p>
          {searching ? null : (
            <Button
              variant="secondary"
              busy={list.isFetchingNextPage}
              onPress={() => setAllowed({ queryId, pages: pagesRead + SEARCH_ON_ITS_OWN })}
            >
              Search older lines
            </Button>
          )}
        </div>
      ) : (
        <>
          <LineTable rows={unique} projectId={projectId} withMessage={!groupId} />
          <LoadMore list={list}>Load more lines</LoadMore>
        </>
      )}
    </div>
  );
}

/** New lines from the live tail while `on`, newest first, and whether the stream is open. */
function useTail(projectId: string, query: LineListQuery, on: boolean): { lines: LogLine[]; connected: boolean } {
  const [lines, setLines] = useState<LogLine[]>([]);
  const [connected, setConnected] = useState(false);
  const search = new URLSearchParams(
    Object.entries(query).filter(
      (entry): entry is [string, string] =>
        typeof entry[1] === 'string' && entry[1] !== '' && entry[0] !== 'from' && entry[0] !== 'to',
    ),
  ).toString();
  useEffect(() => {
    setLines([]);
    setConnected(false);
    if (!on) return;
    const source = new EventSource(`/api/v1/projects/${encodeURIComponent(projectId)}/logs/tail?${search}`);
    // The server starts after its newest line when it says `ready`; it reconnects on its own.
    source.addEventListener('ready', () => setConnected(true));
    source.addEventListener('error', () => setConnected(false));
    source.addEventListener('lines', (event) => {
      const added = JSON.parse((event as MessageEvent<string>).data) as LogLine[];
      setLines((shown) => [...added.reverse(), ...shown].slice(0, TAIL_KEEP));
    });
    return () => source.close();
  }, [projectId, search, on]);
  return { lines, connected };
}

/**
 * Lines as a table. Each line's time opens the lines of every group around it (log-around.tsx),
 * where `current` is the line they were opened from.
 */
export function LineTable({
  rows,
  projectId,
  withMessage,
  current,
}: {
  rows: LogLine[];
  projectId: string;
  withMessage: boolean;
  current?: string;
}) {
  return (
    <DataTable
      className="logs-table log-lines"
      label="Log lines"
      columns={['Time', 'Level', withMessage && 'Message', 'Source', 'Fields']}
    >
      {rows.map((line) => (
        <tr key={line.id} aria-current={line.id === current ? 'true' : undefined}>
          <td>
            <Link to={`/projects/${projectId}/logs/lines/${line.id}`} title="Every group's lines around this one">
              <time dateTime={line.timestamp}>{lineTime(line.timestamp)}</time>
            </Link>
          </td>
          <td>
            <span className={`level level-${line.level}`}>{LEVEL_LABELS[line.level as Level] ?? line.level}</span>
            {line.severity === 'fatal' ? <span className="badge logs-flag">Fatal</span> : null}
          </td>
          {withMessage ? (
            <td className="logs-message">
              <Link to={`/projects/${projectId}/logs/${line.groupId}`}>{line.message || '(no message)'}</Link>
            </td>
          ) : null}
          <td>{line.source ?? <span className="muted">–</span>}</td>
          <td className="log-line-data">
            {line.data === null ? (
              <span className="muted">–</span>
            ) : (
              <details>
                <summary>{summaryOf(line.data)}</summary>
                <pre>
                  <code>{JSON.stringify(line.data, null, 2)}</code>
                </pre>
              </details>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/**
 * A line's time to the millisecond, in the reader's locale and 24-hour clock: lines of one burst
 * share their minute, and their order and spacing are what an incident is read by (`when`, to
 * the minute, showed a burst as one time).
 */
const LINE_TIME = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  fractionalSecondDigits: 3,
  hourCycle: 'h23',
});
const lineTime = (iso: string) => LINE_TIME.format(new Date(iso));

/** The first fields of a line's data, on one short line. */
function summaryOf(data: Record<string, unknown>): string {
  const text = Object.entries(data)
    .slice(0, 3)
    .map(([key, value]) => `${key}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(' ');
  return text.length > 80 ? `${text.slice(0, 80)}…` : text || '{}';
}
