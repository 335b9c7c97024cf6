import type { FeatureStatus } from './schemas.ts';

/** Display labels of feature statuses, as the changelog shows them. */
export const STATUS_LABELS: Record<FeatureStatus, string> = {
  new: 'New',
  open: 'Open',
  planned: 'Planned',
  'in-progress': 'In progress',
  'in-review': 'In review',
  accepted: 'Accepted',
  done: 'Done',
  declined: 'Declined',
};
