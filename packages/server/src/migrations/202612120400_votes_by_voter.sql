-- The votes of one voter (issue 30): a person's votes on their page, and the inbox's "value" sort,
-- which goes from a project's companies to their people's votes.
CREATE INDEX votes_by_voter ON votes (voter_id);
