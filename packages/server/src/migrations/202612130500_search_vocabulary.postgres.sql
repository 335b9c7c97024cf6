-- Typo-tolerant search (issue 30): each project's words of its ideas (the lexemes of the same
-- to_tsvector('simple', …) the search uses), for correcting a search word that matches nothing
-- (`drak` → `dark`, `exprot` → `export`) by edit distance. Kept by a trigger on every writer;
-- words are only added (a word no idea has any more is a harmless candidate). Byte order (C), so a
-- prefix is one range of the primary key.
CREATE TABLE feature_words (
  project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
  word TEXT COLLATE "C" NOT NULL,
  PRIMARY KEY (project_id, word)
);
INSERT INTO feature_words (project_id, word)
  SELECT DISTINCT project_id, unnest(tsvector_to_array(to_tsvector('simple', title || ' ' || description))) FROM features
  ON CONFLICT DO NOTHING;
CREATE FUNCTION feature_words_add() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO feature_words (project_id, word) SELECT NEW.project_id, w FROM unnest(tsvector_to_array(to_tsvector('simple', NEW.title || ' ' || NEW.description))) AS w ON CONFLICT DO NOTHING; RETURN NULL; END $$;
CREATE TRIGGER feature_words_add AFTER INSERT OR UPDATE OF title, description ON features FOR EACH ROW EXECUTE FUNCTION feature_words_add();
