/**
 * An error event as shown: its minified frames mapped back to the original files, functions and
 * context lines through the project's uploaded source maps (resources/source-maps), at read time,
 * so a map uploaded after the event arrived still applies. The stored event is never changed; a
 * mapped frame keeps its minified position under `minified`.
 */
import type { Queryable } from '../../db/database.ts';
import { resolveEventFrames, type SentryEventLike } from '../source-maps/index.ts';

type Json = Record<string, unknown>;

const object = (value: unknown): Json | undefined =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined;

/** The event with each exception's frames resolved; the same object when nothing maps. */
export async function symbolicatedEvent(db: Queryable, projectId: string, event: Json): Promise<Json> {
  const exception = object(event['exception']);
  const values = exception?.['values'];
  if (!Array.isArray(values) || values.length === 0) return event;
  const resolved = await resolveEventFrames(db, projectId, event as SentryEventLike);
  if (!resolved.some((frames) => frames.some((frame) => frame.mapped))) return event;
  const mappedValues = values.map((value, i) => {
    const entry = object(value);
    const stacktrace = object(entry?.['stacktrace']);
    const frames = resolved[i];
    if (!entry || !stacktrace || !frames || frames.length === 0) return value;
    return { ...entry, stacktrace: { ...stacktrace, frames } };
  });
  return { ...event, exception: { ...exception, values: mappedValues } };
}
