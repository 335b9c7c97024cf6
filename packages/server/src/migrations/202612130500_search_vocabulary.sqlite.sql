-- Typo-tolerant search (issue 30): the words of the full-text index, for correcting a search word
-- that matches nothing (`drak` → `dark`, `exprot` → `export`) by edit distance. FTS5's own
-- vocabulary of features_fts, kept in step by it (one index for every project; the corrected
-- words still match only the project's ideas).
CREATE VIRTUAL TABLE features_fts_vocab USING fts5vocab(features_fts, 'row');
