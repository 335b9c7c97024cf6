import type { Permission } from './context.ts';

export const PERMISSIONS: Record<Permission, string> = {
  'public:read': 'Read site configuration and translations, report missing translation keys.',
  'features:read': 'Read features, roadmap, changelog and comments.',
  'features:write': 'Submit and update features, vote and comment.',
  'bugs:write': 'Report bugs.',
  'errors:write': 'Report errors.',
  'logs:write': 'Send log entries.',
};
