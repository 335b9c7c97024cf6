/**
 * The sources an import reads (issue 36) and the options a run takes: which reader of formats/
 * turns a source's export into records (records.ts), streamed.
 */
import type { KeyEnvironment } from '../../kernel/api-keys.ts';
import { readCanny, readCannyCsv } from './formats/canny.ts';
import { readFeaturebase } from './formats/featurebase.ts';
import { readFider } from './formats/fider.ts';
import { readGenericCsv, type GenericField } from './formats/generic.ts';
import { readUserVoice } from './formats/uservoice.ts';
import type { ImportInput } from './input.ts';
import type { ImportRecord } from './records.ts';

export const IMPORT_SOURCES = ['canny', 'canny-csv', 'uservoice', 'featurebase', 'fider', 'csv'] as const;
export type ImportSource = (typeof IMPORT_SOURCES)[number];

export interface ImportOptions {
  source: ImportSource;
  dryRun: boolean;
  environment?: KeyEnvironment | undefined;
  /** `source status=signpost status` entries over the defaults (statuses.ts). */
  statusMap?: readonly string[] | undefined;
  /** The generic CSV's column mapping: field → header. */
  columns?: Partial<Record<GenericField, string>> | undefined;
}

/** The export's records, in file order, as the source's reader gives them. */
export function records(input: ImportInput, options: ImportOptions): AsyncGenerator<ImportRecord> {
  switch (options.source) {
    case 'canny':
      return readCanny(input);
    case 'canny-csv':
      return readCannyCsv(input);
    case 'uservoice':
      return readUserVoice(input);
    case 'featurebase':
      return readFeaturebase(input);
    case 'fider':
      return readFider(input);
    case 'csv':
      return readGenericCsv(input, options.columns ?? {});
  }
}
