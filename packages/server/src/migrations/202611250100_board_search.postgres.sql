-- Full-text search over ideas with PostgreSQL's own engine: a GIN index on the same expression
-- the search query uses (the `simple` configuration: boards are in any language).
CREATE INDEX features_search ON features USING GIN (to_tsvector('simple', title || ' ' || description));
