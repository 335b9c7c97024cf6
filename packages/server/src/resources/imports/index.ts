/**
 * Importers (issue 36): another tool's export (Canny, UserVoice, Featurebase, Fider, a CSV) into
 * a project. What other code (the CLI's local mode, seed, tests) may import.
 */
export { IMPORT_SOURCES, runImport, type ImportOptions, type ImportReport, type ImportSource } from './service.ts';
export { openInput, type ImportInput } from './input.ts';
