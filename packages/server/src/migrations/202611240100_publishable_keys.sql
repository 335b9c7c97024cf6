-- Publishable keys: meant to be embedded in a web page or app, so they may not change existing
-- items (PATCH /features/{id} is refused). Keys are secret (0) unless created publishable.
ALTER TABLE api_keys ADD COLUMN publishable INTEGER NOT NULL DEFAULT 0;

-- The demo key is public by design. First start also marks it by its configured value; this
-- covers a database whose demo key was made before the column existed.
UPDATE api_keys SET publishable = 1 WHERE project_id = 'demo' AND name = 'Public demo key';
