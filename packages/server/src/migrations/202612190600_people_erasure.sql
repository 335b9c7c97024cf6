-- Issue 36: what erasing a person does with what they wrote (their ideas and comments), per
-- project: 'anonymise' keeps the text without its author, 'delete' removes it. A project without
-- a row anonymises (the column default, read by the people store until the first change).
CREATE TABLE people_settings (
  project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
  erase_content TEXT NOT NULL DEFAULT 'anonymise',
  updated_at TEXT NOT NULL
);
