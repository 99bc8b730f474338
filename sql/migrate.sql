-- Moving an existing schema to uid (doc/migrating.md), step by step as the
-- manual gives it: two tables keyed by bigserial, the second referencing the
-- first, moved to sno keys dated by their rows' created_at (back-fill,
-- sno_new_at()); then two tables keyed by uuid moved to revts8 keys made with
-- revts8_from_parts().  Every row keeps its identity (its old key maps to
-- one new key, its references follow) and its order (the new keys sort as
-- (created_at, old key) did), and rows inserted afterwards with the new
-- DEFAULT sort after every old one.
SET TimeZone = 'UTC';

-- sno's back-fill range (doc/types.md, "Back-fill"): 256 sequences below
-- every back-fill range this server has used before, and the live range
-- below it.  (Messages would show the numbers; none is shown.)
SELECT coalesce(backfill_used_min, 65536) - 256 AS mig_lo,
       coalesce(backfill_used_min, 65536) - 1 AS mig_hi,
       coalesce(backfill_used_min, 65536) - 257 AS mig_live_hi
FROM sno_snapshot() \gset
ALTER SYSTEM SET uid.sno_sequence_max = :mig_live_hi;
ALTER SYSTEM SET uid.sno_backfill_min = :mig_lo;
ALTER SYSTEM SET uid.sno_backfill_max = :mig_hi;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_backfill_max', :'mig_hi') FROM generate_series(1, 200) \gexec
\set ECHO all

-- The schema before: several rows in one millisecond, rows with equal times,
-- times out of the keys' order (a row made later with an earlier time), and
-- the two tables' times interleaved.
CREATE TABLE customers (
    id bigserial PRIMARY KEY,
    created_at timestamptz NOT NULL,
    name text NOT NULL
);
CREATE TABLE orders (
    id bigserial PRIMARY KEY,
    customer_id bigint NOT NULL REFERENCES customers,
    created_at timestamptz NOT NULL,
    amount numeric NOT NULL
);
CREATE INDEX ON orders (customer_id);
INSERT INTO customers (created_at, name)
SELECT timestamptz '2024-03-01 09:00' + (g / 3) * interval '1.5 ms' - (g % 7 = 0)::int * interval '10 ms',
       'customer ' || g
FROM generate_series(1, 300) g;
INSERT INTO orders (customer_id, created_at, amount)
SELECT 1 + (g * 37) % 300, timestamptz '2024-03-01 09:00' + (g / 4) * interval '0.3 ms', g
FROM generate_series(1, 2000) g;
CREATE TEMP TABLE before_rows AS
SELECT o.id AS order_id, o.created_at, o.amount, c.id AS customer_id, c.name
FROM orders o JOIN customers c ON c.id = o.customer_id;

-- 1. Each row's new key, made in the old order, in one pass over both
-- tables in time order: back-fill goes forward in time (a second pass over
-- earlier times is refused).  A volatile function in the select list is
-- evaluated after the ORDER BY's sort, so rows of one 4 ms unit take its
-- sequences in that order.
BEGIN;
CREATE TEMP TABLE new_keys ON COMMIT DROP AS
SELECT tab, old_id, sno_new_at(0, created_at) AS new_id
FROM (SELECT 'customers' AS tab, id AS old_id, created_at FROM customers
      UNION ALL
      SELECT 'orders', id, created_at FROM orders) AS all_rows
ORDER BY created_at, tab, old_id;
-- 2. The new columns, filled: the key, and the reference through the old key.
ALTER TABLE customers ADD COLUMN new_id sno;
UPDATE customers c SET new_id = k.new_id FROM new_keys k WHERE k.tab = 'customers' AND k.old_id = c.id;
ALTER TABLE orders ADD COLUMN new_id sno, ADD COLUMN new_customer_id sno;
UPDATE orders o SET new_id = k.new_id FROM new_keys k WHERE k.tab = 'orders' AND k.old_id = o.id;
UPDATE orders o SET new_customer_id = c.new_id FROM customers c WHERE c.id = o.customer_id;
-- 3. The keys swapped: the foreign key dropped, the primary keys moved, the
-- foreign key made again on the new columns; the old keys kept as legacy_id.
ALTER TABLE orders DROP CONSTRAINT orders_customer_id_fkey;
ALTER TABLE orders DROP CONSTRAINT orders_pkey;
ALTER TABLE customers DROP CONSTRAINT customers_pkey;
ALTER TABLE customers RENAME COLUMN id TO legacy_id;
ALTER TABLE customers RENAME COLUMN new_id TO id;
ALTER TABLE customers ALTER COLUMN legacy_id DROP DEFAULT, ALTER COLUMN legacy_id DROP NOT NULL,
    ALTER COLUMN id SET DEFAULT sno_new(0), ADD PRIMARY KEY (id);
ALTER TABLE orders RENAME COLUMN id TO legacy_id;
ALTER TABLE orders RENAME COLUMN new_id TO id;
ALTER TABLE orders RENAME COLUMN customer_id TO legacy_customer_id;
ALTER TABLE orders RENAME COLUMN new_customer_id TO customer_id;
ALTER TABLE orders ALTER COLUMN legacy_id DROP DEFAULT, ALTER COLUMN legacy_id DROP NOT NULL,
    ALTER COLUMN legacy_customer_id DROP NOT NULL,
    ALTER COLUMN id SET DEFAULT sno_new(0), ADD PRIMARY KEY (id),
    ALTER COLUMN customer_id SET NOT NULL,
    ADD FOREIGN KEY (customer_id) REFERENCES customers;
CREATE INDEX ON orders (customer_id);
DROP SEQUENCE customers_id_seq, orders_id_seq;
COMMIT;

-- Every row is there once, with its data, its reference and its creation time.
SELECT count(*) AS orders, count(DISTINCT o.id) AS distinct_keys,
       count(*) FILTER (WHERE b.order_id IS NULL) AS lost,
       count(*) FILTER (WHERE c.legacy_id <> b.customer_id OR c.name <> b.name OR o.amount <> b.amount) AS changed
FROM orders o JOIN customers c ON c.id = o.customer_id
LEFT JOIN before_rows b ON b.order_id = o.legacy_id;
SELECT count(*) FILTER (WHERE sno_timestamp(id) <> date_bin('4 ms', created_at, timestamptz '2010-01-01')) AS customers_dated_wrong
FROM customers;
SELECT count(*) FILTER (WHERE sno_timestamp(id) <> date_bin('4 ms', created_at, timestamptz '2010-01-01')) AS orders_dated_wrong
FROM orders;
-- The new keys sort as (created_at, old key) did.
SELECT count(*) FILTER (WHERE by_old <> by_new) AS customers_out_of_order
FROM (SELECT row_number() OVER (ORDER BY created_at, legacy_id) AS by_old,
             row_number() OVER (ORDER BY id) AS by_new FROM customers) s;
SELECT count(*) FILTER (WHERE by_old <> by_new) AS orders_out_of_order
FROM (SELECT row_number() OVER (ORDER BY created_at, legacy_id) AS by_old,
             row_number() OVER (ORDER BY id) AS by_new FROM orders) s;
-- The foreign key holds and is enforced on the new column.
SELECT uid_try($$INSERT INTO orders (customer_id, created_at, amount) VALUES (sno_new(0), now(), 1)$$) AS dangling_reference;
-- New rows take the new DEFAULT (and no legacy key) and sort after every old row.
INSERT INTO customers (created_at, name) VALUES (now(), 'new customer');
INSERT INTO orders (customer_id, created_at, amount)
SELECT id, now(), 1 FROM customers WHERE legacy_id IS NULL;
SELECT (SELECT id FROM customers WHERE legacy_id IS NULL) > ALL (SELECT id FROM customers WHERE legacy_id IS NOT NULL) AS new_customer_sorts_last,
       (SELECT id FROM orders WHERE legacy_id IS NULL) > ALL (SELECT id FROM orders WHERE legacy_id IS NOT NULL) AS new_order_sorts_last;

-- From uuid keys to revts8: the key made from the row's time with
-- revts8_from_parts(), its sequence the row's rank within its millisecond (at
-- most 64), and a generator and cluster no server generates with (here 63,
-- 15), so that no ID made later by a server can equal a moved one.
CREATE TABLE accounts (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    created_at timestamptz NOT NULL
);
CREATE TABLE logins (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    account_id uuid NOT NULL REFERENCES accounts,
    created_at timestamptz NOT NULL
);
INSERT INTO accounts (created_at)
SELECT timestamptz '2024-04-01 08:00' + (g / 5) * interval '1 ms' FROM generate_series(1, 200) g;
INSERT INTO logins (account_id, created_at)
SELECT a.id, a.created_at + g * interval '1 s' FROM accounts a, generate_series(1, 3) g;
CREATE TEMP TABLE before_logins AS SELECT id AS login_id, account_id FROM logins;

BEGIN;
CREATE TEMP TABLE account_keys ON COMMIT DROP AS
SELECT id AS old_id,
       revts8_from_parts(created_at,
                         (row_number() OVER (PARTITION BY date_trunc('milliseconds', created_at) ORDER BY created_at, id) - 1)::int,
                         63, 15) AS new_id
FROM accounts;
CREATE TEMP TABLE login_keys ON COMMIT DROP AS
SELECT id AS old_id,
       revts8_from_parts(created_at,
                         (row_number() OVER (PARTITION BY date_trunc('milliseconds', created_at) ORDER BY created_at, id) - 1)::int,
                         63, 15) AS new_id
FROM logins;
ALTER TABLE accounts ADD COLUMN new_id revts8;
UPDATE accounts a SET new_id = k.new_id FROM account_keys k WHERE k.old_id = a.id;
ALTER TABLE logins ADD COLUMN new_id revts8, ADD COLUMN new_account_id revts8;
UPDATE logins l SET new_id = k.new_id FROM login_keys k WHERE k.old_id = l.id;
UPDATE logins l SET new_account_id = a.new_id FROM accounts a WHERE a.id = l.account_id;
ALTER TABLE logins DROP CONSTRAINT logins_account_id_fkey;
ALTER TABLE logins DROP CONSTRAINT logins_pkey;
ALTER TABLE accounts DROP CONSTRAINT accounts_pkey;
ALTER TABLE accounts RENAME COLUMN id TO legacy_id;
ALTER TABLE accounts RENAME COLUMN new_id TO id;
ALTER TABLE accounts ALTER COLUMN legacy_id DROP DEFAULT, ALTER COLUMN legacy_id DROP NOT NULL,
    ALTER COLUMN id SET DEFAULT revts8_new(), ADD PRIMARY KEY (id);
ALTER TABLE logins RENAME COLUMN id TO legacy_id;
ALTER TABLE logins RENAME COLUMN new_id TO id;
ALTER TABLE logins RENAME COLUMN account_id TO legacy_account_id;
ALTER TABLE logins RENAME COLUMN new_account_id TO account_id;
ALTER TABLE logins ALTER COLUMN legacy_id DROP DEFAULT, ALTER COLUMN legacy_id DROP NOT NULL,
    ALTER COLUMN legacy_account_id DROP NOT NULL,
    ALTER COLUMN id SET DEFAULT revts8_new(), ADD PRIMARY KEY (id),
    ALTER COLUMN account_id SET NOT NULL,
    ADD FOREIGN KEY (account_id) REFERENCES accounts;
COMMIT;

SELECT count(*) AS logins, count(DISTINCT l.id) AS distinct_keys,
       count(*) FILTER (WHERE b.account_id IS DISTINCT FROM a.legacy_id) AS wrong_reference
FROM logins l JOIN accounts a ON a.id = l.account_id
LEFT JOIN before_logins b ON b.login_id = l.legacy_id;
SELECT count(*) FILTER (WHERE by_old <> by_new) AS accounts_out_of_order
FROM (SELECT row_number() OVER (ORDER BY created_at, legacy_id) AS by_old,
             row_number() OVER (ORDER BY id) AS by_new FROM accounts) s;
SELECT count(*) FILTER (WHERE by_old <> by_new) AS logins_out_of_order
FROM (SELECT row_number() OVER (ORDER BY created_at, legacy_id) AS by_old,
             row_number() OVER (ORDER BY id) AS by_new FROM logins) s;
SELECT count(*) FILTER (WHERE revts8_timestamp(id) <> date_trunc('milliseconds', created_at)) AS accounts_dated_wrong
FROM accounts;
INSERT INTO accounts (created_at) VALUES (now());
SELECT (SELECT id FROM accounts WHERE legacy_id IS NULL) > ALL (SELECT id FROM accounts WHERE legacy_id IS NOT NULL) AS new_account_sorts_last;
SELECT uid_try($$INSERT INTO logins (account_id, created_at) VALUES (revts8_new(), now())$$) AS dangling_reference;

DROP TABLE orders, customers, logins, accounts;
ALTER SYSTEM RESET uid.sno_sequence_max;
ALTER SYSTEM RESET uid.sno_backfill_min;
ALTER SYSTEM RESET uid.sno_backfill_max;
SELECT pg_reload_conf();
\set ECHO none
SELECT format('DO $$BEGIN PERFORM pg_sleep(0.05) WHERE current_setting(%L) <> %L; END$$', 'uid.sno_backfill_max', '-1') FROM generate_series(1, 200) \gexec
\set ECHO all
