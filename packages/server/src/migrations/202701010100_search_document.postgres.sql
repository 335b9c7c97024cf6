-- PostgreSQL's search of ideas bounded by one project's matches (issue 30, 100,000 ideas): a
-- stored tsvector per idea whose every lexeme starts with the idea's project id and a space
-- (`bench-roadmap-100 checkout`), title words weighted A, description words D. A search asks for
-- `'<project> <word>':*` (board-read-model.ts), so the GIN index yields only that project's
-- matches, even for a word every other project uses too, and no row needs its text parsed again:
-- the page's filter, the recheck and ts_rank read the stored column. The lexemes are those of
-- to_tsvector('simple', …) as before (202611250100_board_search, whose index this replaces).
-- Written as tsvector text: each lexeme quoted ('' and \\ escaped), its positions and weights.
CREATE FUNCTION feature_search_document(project_id text, title text, description text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT COALESCE(string_agg(
    '''' || replace(replace(project_id || ' ' || d.lexeme, '\', '\\'), '''', '''''') || ''':'
      || array_to_string(ARRAY(SELECT x.p || x.w FROM unnest(d.positions, d.weights) AS x(p, w)), ','),
    ' '), '')::tsvector
  FROM unnest(setweight(to_tsvector('simple', title), 'A') || setweight(to_tsvector('simple', description), 'D')) AS d
$$;
ALTER TABLE features ADD COLUMN search_document tsvector
  GENERATED ALWAYS AS (feature_search_document(project_id, title, description)) STORED;
CREATE INDEX features_search_document ON features USING GIN (search_document);
DROP INDEX features_search;
