/** Query parameters the log group and log line routes share. */
import { BadRequestError } from '../../kernel/errors.ts';
import { LOG_LEVELS } from './schemas.ts';

export function parseLevels(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const wanted = [
    ...new Set(
      raw
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    ),
  ];
  if (wanted.length === 0 || wanted.some((value) => !(LOG_LEVELS as readonly string[]).includes(value))) {
    const message = `must be a comma-separated list of: ${LOG_LEVELS.join(', ')}`;
    throw new BadRequestError(`Invalid query parameter level: ${message}`, [{ field: 'level', message }]);
  }
  return wanted;
}
