/**
 * An event's exceptions as the SDK sent them: the thrown one first, then its causes; each with an
 * "Unhandled" badge when mechanism.handled is false and its stack newest call first, in-app frames
 * highlighted (and named so for screen readers) with their context lines; library frames folded.
 */
type Json = Record<string, unknown>;
const object = (value: unknown): Json | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;
const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

export function EventView({ event }: { event: Json }) {
  const values = object(event['exception'])?.['values'];
  const exceptions = Array.isArray(values) ? values.map((value) => object(value) ?? {}).reverse() : [];
  const message = text(object(event['logentry'])?.['formatted']) ?? text(event['message']);
  if (exceptions.length === 0) {
    return (
      <div>
        <h3>Message</h3>
        <p>{message ?? 'No exception or message was sent.'}</p>
      </div>
    );
  }
  return (
    <div className="stack">
      {exceptions.map((exception, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: an event's exceptions never reorder
        <Exception key={index} exception={exception} cause={index > 0} />
      ))}
      {event['raw_stacktrace'] && !exceptions.some((e) => object(e['stacktrace'])) ? (
        <pre className="report-json">{String(event['raw_stacktrace'])}</pre>
      ) : null}
    </div>
  );
}

function Exception({ exception, cause }: { exception: Json; cause: boolean }) {
  const mechanism = object(exception['mechanism']);
  const frames = object(exception['stacktrace'])?.['frames'];
  const list = Array.isArray(frames) ? frames.map((frame) => object(frame) ?? {}).reverse() : [];
  const inApp = list.filter((frame) => frame['in_app'] === true);
  const shown = inApp.length > 0 ? list.filter((frame) => frame['in_app'] === true) : list.slice(0, 10);
  const folded = list.filter((frame) => !shown.includes(frame));
  return (
    <div className="stack exception">
      <h3>
        {cause ? 'Caused by ' : ''}
        {text(exception['type']) ?? 'Error'}
        {mechanism?.['handled'] === false ? <span className="badge-unhandled">Unhandled</span> : null}
      </h3>
      <p>{text(exception['value']) ?? ''}</p>
      {list.length === 0 ? (
        <p className="muted">No stack trace was sent with this exception.</p>
      ) : (
        <>
          <ol className="frames" aria-label={`Frames of ${text(exception['type']) ?? 'the exception'}, newest first`}>
            {shown.map((frame, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: frames never reorder
              <Frame key={index} frame={frame} />
            ))}
          </ol>
          {folded.length > 0 ? (
            <details>
              <summary>
                {folded.length === 1 ? 'Show 1 more frame' : `Show ${folded.length} more frames`} (not in the app)
              </summary>
              <ol className="frames" aria-label="Other frames">
                {folded.map((frame, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: frames never reorder
                  <Frame key={index} frame={frame} />
                ))}
              </ol>
            </details>
          ) : null}
        </>
      )}
    </div>
  );
}

function Frame({ frame }: { frame: Json }) {
  const file = text(frame['filename']) ?? text(frame['abs_path']) ?? text(frame['module']) ?? '<unknown>';
  const line = text(frame['lineno']);
  const column = text(frame['colno']);
  const inApp = frame['in_app'] === true;
  const pre = Array.isArray(frame['pre_context']) ? frame['pre_context'].map(String) : [];
  const post = Array.isArray(frame['post_context']) ? frame['post_context'].map(String) : [];
  const current = text(frame['context_line']);
  const first = line ? Number(line) - pre.length : 1;
  return (
    <li className={inApp ? 'in-app' : undefined}>
      <div>
        {inApp ? <span className="visually-hidden">In app: </span> : null}
        at {text(frame['function']) ?? '<anonymous>'} ({file}
        {line ? `:${line}` : ''}
        {line && column ? `:${column}` : ''})
      </div>
      {current !== undefined ? (
        <pre className="frame-context">
          {[...pre, current, ...post].map((source, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of a frame never reorder
            <div key={index} className={index === pre.length ? 'current' : undefined}>
              {`${String(first + index).padStart(5)}  ${source}`}
            </div>
          ))}
        </pre>
      ) : null}
    </li>
  );
}
