-- The release an idea or bug shipped in when a release went live (issue 33): written with its move
-- to `done` by resources/features (release-shipping.ts), shown on the board ("Fixed in 2.1.0" for
-- a bug, "Shipped in 2.1.0" for an idea) while the item is done.
ALTER TABLE features ADD COLUMN released_in TEXT;
