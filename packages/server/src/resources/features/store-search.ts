/**
 * The words of the search indexes, for correcting search words that match nothing: SQLite reads
 * FTS5's own vocabulary (features_fts_vocab, every project's words of titles and descriptions;
 * migration 202612310100), PostgreSQL its feature_words table (each project's, kept by a trigger;
 * migration 202612130500).
 *
 * A word is corrected only when no word of the project's ideas starts with it (so a word that
 * matches stays as typed, and an exact match always ranks first: a corrected word has no exact
 * match at all).
 * Candidates share the word's first letter and are at most allowedEdits() edits away; the closest
 * few are kept.
 */
import type { Database } from '../../db/database.ts';
import { ftsInProject } from './fts-scope.ts';
import { allowedEdits, editDistance, folded } from './typo.ts';
import { compareText } from '../../kernel/compare-text.ts';

/** The most corrections kept per word. */
const MAX_VARIANTS = 4;
/** The most candidate words read per search word. */
const MAX_CANDIDATES = 5000;

/** The first string after every string that starts with `prefix` (for a range scan). */
const after = (prefix: string) => `${prefix}\u{10ffff}`;

async function hasPrefix(db: Database, projectId: string, word: string): Promise<boolean> {
  // SQLite's vocabulary is every project's: whether this project has the word asks its index.
  const row =
    db.dialect === 'sqlite'
      ? await db.get('SELECT rowid FROM features_fts WHERE features_fts MATCH ? LIMIT 1', [
          ftsInProject(projectId, `"${word}"*`),
        ])
      : await db.get('SELECT word FROM feature_words WHERE project_id = ? AND word >= ? AND word < ? LIMIT 1', [
          projectId,
          word,
          after(word),
        ]);
  return row !== undefined;
}

async function candidates(db: Database, projectId: string, word: string, edits: number): Promise<string[]> {
  const first = word[0]!;
  const [min, max] = [word.length - edits, word.length + edits];
  const rows =
    db.dialect === 'sqlite'
      ? await db.all<{ w: string }>(
          `SELECT DISTINCT term AS w FROM features_fts_vocab WHERE term >= ? AND term < ?
            AND col IN ('title', 'description') AND length(term) BETWEEN ? AND ? LIMIT ?`,
          [first, after(first), min, max, MAX_CANDIDATES],
        )
      : await db.all<{ w: string }>(
          `SELECT word AS w FROM feature_words WHERE project_id = ? AND word >= ? AND word < ?
            AND length(word) BETWEEN ? AND ? LIMIT ?`,
          [projectId, first, after(first), min, max, MAX_CANDIDATES],
        );
  return rows.map((row) => row.w);
}

/**
 * For each search word that no indexed word starts with, the indexed words it may be a typo of,
 * closest first (words with none are left out of the map). Words are searchWords() output.
 */
export async function typoCorrections(
  db: Database,
  projectId: string,
  words: readonly string[],
): Promise<Map<string, string[]>> {
  const corrections = new Map<string, string[]>();
  for (const word of words) {
    // FTS5 keeps words without accents (remove_diacritics); PostgreSQL's `simple` keeps them.
    const key = db.dialect === 'sqlite' ? folded(word) : word.toLowerCase();
    const edits = allowedEdits(key.length);
    if (edits === 0 || !/^[\p{L}\p{N}]/u.test(key) || (await hasPrefix(db, projectId, key))) continue;
    const near = (await candidates(db, projectId, key, edits))
      .map((candidate) => ({ candidate, distance: editDistance(key, candidate, edits) }))
      .filter((found) => found.distance <= edits && /^[\p{L}\p{N}]+$/u.test(found.candidate))
      .sort((a, b) => a.distance - b.distance || compareText(a.candidate, b.candidate))
      .slice(0, MAX_VARIANTS)
      .map((found) => found.candidate);
    if (near.length > 0) corrections.set(word, near);
  }
  return corrections;
}
