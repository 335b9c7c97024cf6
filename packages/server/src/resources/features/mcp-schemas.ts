import { z } from 'zod';
import { FEATURE_STATUSES, SUBMITTED_TYPES } from './schemas.ts';

export { ProjectIdInput } from '../../routing/mcp/tool-context.ts';

/** A feature as the tools return it: the REST API's full feature. */
export const FeatureOutput = z.object({
  id: z.string(),
  projectId: z.string(),
  title: z.string(),
  description: z.string(),
  status: z.enum(FEATURE_STATUSES),
  type: z.enum(['feature', 'bug']),
  voteCount: z.number().int(),
  commentCount: z.number().int(),
  createdAt: z.string(),
  internal: z.boolean().describe('true: hidden from the public board, feeds and public APIs'),
  developerNotes: z.string().nullable(),
});

export const TypeInput = z
  .enum(SUBMITTED_TYPES, { error: 'Invalid type. Allowed values: bug, feature, error' })
  .describe('feature (default), bug or error; bug and error are stored as bug with status new');

export const StatusInput = z
  .enum(FEATURE_STATUSES, { error: `status must be one of: ${FEATURE_STATUSES.join(', ')}` })
  .describe(`The new status: ${FEATURE_STATUSES.join(', ')}`);
