PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;
CREATE TABLE txn (id BLOB PRIMARY KEY NOT NULL, account_id BLOB NOT NULL, amount TEXT NOT NULL, amount_scaled INTEGER NOT NULL,
 currency_code TEXT NOT NULL, indicator INTEGER NOT NULL, description TEXT NOT NULL, original_description TEXT NOT NULL,
 status INTEGER NOT NULL, type INTEGER NOT NULL, transaction_date INTEGER NOT NULL, posted_date INTEGER, external_id TEXT, created_seq INTEGER NOT NULL,
 utc_offset INTEGER, local_day INTEGER NOT NULL DEFAULT 0);
CREATE INDEX txn_account_date ON txn(account_id, transaction_date);
CREATE INDEX txn_date ON txn(transaction_date);
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i+1 FROM n WHERE i < 999999)
INSERT INTO txn SELECT randomblob(16), 'acct' || (i % 10), '12.50', 12500000, 'USD', i%2, 'COFFEE SHOP ' || (i%500), 'COFFEE SHOP ' || (i%500),
  1, 5, 1704067200000 + (i/10) * 86400000 / 100 + (i % 7) * 3600000, NULL, 'ofx:' || i, i, -18000,
  (1704067200000 + (i/10) * 86400000 / 100 + (i % 7) * 3600000 - 18000000) / 86400000 FROM n;
ANALYZE;
