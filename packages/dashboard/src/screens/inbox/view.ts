/**
 * The inbox's view as the URL holds it (search, filters, sort, page; the selected idea is the
 * path's last segment), and the list query it makes. Unknown values fall back to the default.
 */
import { type FeatureSort, type FeatureStatus, type FeatureType, STATUSES, TYPES } from '../../api/features.ts';

export const PAGE_SIZE = 25;

export const SORTS: readonly { value: FeatureSort; label: string }[] = [
  { value: 'newest', label: 'Newest' },
  { value: 'votes', label: 'Most votes' },
  { value: 'value', label: 'Value (revenue of voters’ companies)' },
  { value: 'trending', label: 'Trending (votes this week)' },
  { value: 'updated', label: 'Recently updated' },
  { value: 'comments', label: 'Most comments' },
  { value: 'oldest', label: 'Oldest' },
];

export type InboxView = ReturnType<typeof readView>;

export function readView(params: URLSearchParams) {
  const pick = <T extends string>(name: string, allowed: readonly T[]): T | '' => {
    const value = params.get(name) ?? '';
    return (allowed as readonly string[]).includes(value) ? (value as T) : '';
  };
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  return {
    q: params.get('q') ?? '',
    status: pick<FeatureStatus>(
      'status',
      STATUSES.map((s) => s.value),
    ),
    type: pick<FeatureType>(
      'type',
      TYPES.map((t) => t.value),
    ),
    visibility: pick<'internal' | 'public'>('visibility', ['internal', 'public']),
    triage: pick<'needed' | 'done'>('triage', ['needed', 'done']),
    tag: params.get('tag') ?? '',
    /** A company's id (GET /projects/{id}/companies): ideas its people voted for. */
    company: params.get('company') ?? '',
    sort: pick<FeatureSort>(
      'sort',
      SORTS.map((s) => s.value),
    ),
    page,
  };
}

export const isFiltered = (view: InboxView) =>
  Boolean(view.q || view.status || view.type || view.visibility || view.triage || view.tag || view.company);

/** GET /projects/{id}/features's query for the view. */
export function listQuery(view: InboxView) {
  return {
    ...(view.q ? { q: view.q } : {}),
    ...(view.status ? { status: view.status } : {}),
    ...(view.type ? { type: view.type } : {}),
    ...(view.visibility ? { internal: view.visibility === 'internal' } : {}),
    ...(view.tag ? { tag: view.tag } : {}),
    ...(view.company ? { company: view.company } : {}),
    ...(view.triage ? { triaged: view.triage === 'done' } : {}),
    sort: view.sort || 'newest',
    limit: PAGE_SIZE,
    offset: (view.page - 1) * PAGE_SIZE,
  } as const;
}

/** How long ago, short: "5 min", "3 h", "12 d", "4 mo", "2 y". */
export function age(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h`;
  const days = Math.floor(hours / 24);
  if (days < 60) return `${days} d`;
  const months = Math.floor(days / 30);
  if (months < 24) return `${months} mo`;
  return `${Math.floor(days / 365)} y`;
}
