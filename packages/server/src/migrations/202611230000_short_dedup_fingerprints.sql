-- Report fingerprints are now the first 32 hex characters of the same SHA-256 (see
-- features/reports/dedup.ts). Cutting the stored ones to that prefix keeps every head matching
-- the reports that follow, so repeats within the hour are still counted across the upgrade.
UPDATE dedup_heads SET fingerprint = substr(fingerprint, 1, 32) WHERE length(fingerprint) > 32;
