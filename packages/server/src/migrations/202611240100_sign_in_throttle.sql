-- Sign-in throttling by client and by client+account (see management/accounts/sign-in-throttle.ts),
-- replacing the per-address lock-out that let anyone lock an owner out of their own account.
-- One row per bucket: the failures counted since the bucket last went quiet, and the last one's
-- time (epoch milliseconds).
CREATE TABLE sign_in_throttle (
  bucket TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  last_failure_at BIGINT NOT NULL
);
CREATE INDEX sign_in_throttle_by_time ON sign_in_throttle (last_failure_at);
