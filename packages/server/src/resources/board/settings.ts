/**
 * A board's settings as the management API takes and shows them: the checks a change must pass
 * beyond its schema (every one before anything is written), and the board's address.
 */
import { BadRequestError } from '../../kernel/errors.ts';
import type { BoardChanges, BoardSettings, RoadmapStatus } from './store.ts';

const invalid = (field: string, message: string) =>
  new BadRequestError(`Invalid field ${field}: ${message}`, [{ field, message }]);

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const HOST_NAME = new RegExp(`^${LABEL}(?:\\.${LABEL})+$`);

/** An https address of an image (http only on this machine, for development). */
export function checkLogoUrl(value: string): string {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  const allowed = url?.protocol === 'https:' || (url?.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
  if (!url || !allowed) throw invalid('logoUrl', 'must be an https URL (http only on localhost)');
  if (url.username || url.password) throw invalid('logoUrl', 'must not contain a user name or password');
  return value;
}

/**
 * A custom domain: a lower-cased host name of at least two labels (no scheme, port, path or IP
 * address), and not the host of the server's own PUBLIC_URL, whose `/` is not a board's.
 */
export function checkCustomDomain(value: string, publicUrl: string): string {
  const host = value.trim().toLowerCase();
  if (/[/:@?#]/.test(host)) throw invalid('customDomain', 'must be a host name only: no scheme, port or path');
  if (host.length > 253 || !HOST_NAME.test(host) || /^[0-9]+$/.test(host.slice(host.lastIndexOf('.') + 1))) {
    throw invalid('customDomain', 'must be a host name such as feedback.example.com');
  }
  if (URL.canParse(publicUrl) && new URL(publicUrl).hostname.toLowerCase() === host) {
    throw invalid('customDomain', "must not be the server's own host (PUBLIC_URL)");
  }
  return host;
}

export interface BoardUpdate {
  enabled?: boolean | undefined;
  private?: boolean | undefined;
  title?: string | null | undefined;
  logoUrl?: string | null | undefined;
  accentColor?: string | null | undefined;
  customDomain?: string | null | undefined;
  anonymousVotes?: boolean | undefined;
  moderation?: boolean | undefined;
  shipOnPublish?: boolean | undefined;
  roadmapColumns?: { status: RoadmapStatus; label?: string | null | undefined }[] | null | undefined;
}

/** The store's changes for a request body, or a 400 naming the first bad field. */
export function boardChanges(body: BoardUpdate, publicUrl: string): BoardChanges {
  const changes: BoardChanges = {};
  for (const field of ['enabled', 'private', 'anonymousVotes', 'moderation', 'shipOnPublish'] as const) {
    if (body[field] !== undefined) changes[field] = body[field];
  }
  if (body.title !== undefined) {
    const title = body.title === null ? null : body.title.trim();
    if (title === '') throw invalid('title', 'must not be blank');
    changes.title = title;
  }
  if (body.roadmapColumns !== undefined) {
    const columns = body.roadmapColumns;
    if (columns !== null && new Set(columns.map((column) => column.status)).size !== columns.length) {
      throw invalid('roadmapColumns', 'each status at most once');
    }
    changes.roadmapColumns =
      columns?.map((column) => {
        const label = column.label?.trim() ?? null;
        if (label === '') throw invalid('roadmapColumns', 'a label must not be blank (null: the status’s own)');
        return { status: column.status, label };
      }) ?? null;
  }
  if (body.logoUrl !== undefined) changes.logoUrl = body.logoUrl === null ? null : checkLogoUrl(body.logoUrl);
  if (body.accentColor !== undefined) changes.accentColor = body.accentColor?.toLowerCase() ?? null;
  if (body.customDomain !== undefined) {
    changes.customDomain = body.customDomain === null ? null : checkCustomDomain(body.customDomain, publicUrl);
  }
  return changes;
}

/** Where the board answers: its custom domain when set, else `<PUBLIC_URL>/b/<slug>`. */
export function boardUrl(settings: Pick<BoardSettings, 'customDomain'>, publicUrl: string, slug: string): string {
  if (settings.customDomain) return `https://${settings.customDomain}/`;
  return `${publicUrl.replace(/\/+$/, '')}/b/${encodeURIComponent(slug)}`;
}
