-- uid: the lease pool (see doc/several-servers.md)
--
-- Any database with the extension can be a coordinator: it hands out small
-- integer ids (machine or generator ids) from named pools to holders
-- (application processes, or uid servers that lease their identity), each
-- for a time to live.  A pool of size n holds the ids 0 .. n - 1.
--
-- Concurrency.  Every claim, renewal and release of a pool first locks the
-- pool's row in uid_pool FOR UPDATE, so they run one after another, each
-- seeing what the ones before it committed:
--  - READ COMMITTED: PL/pgSQL takes a new snapshot for each statement, so
--    every statement after the lock sees every claim, renewal and release
--    that committed before the lock was granted.
--  - REPEATABLE READ and SERIALIZABLE: the snapshot is the transaction's.
--    Every claim updates the pool's row (its count of claims), so a claim
--    that committed after the snapshot makes the lock fail with 40001
--    (could not serialize access due to concurrent update); so does a pool
--    created after it (the INSERT ... ON CONFLICT that creates the pool).
--    A renewal or a release that committed after the snapshot leaves the
--    pool's row as it was, but changed the lease's row: a claim that would
--    hand that id out again updates that row and fails with 40001 too, and
--    one that sees the id as still held takes another id.  Callers retry on
--    40001.
-- So no id ever has two live holders.  The lock is held until the caller's
-- transaction ends: claim in a short transaction of its own, and use what
-- it returns only once it has committed (a claim rolled back gives its id
-- and its token to the next claim; one that committed is durable, and a
-- pool that went back in time goes on hold: see uid_pool_prepare() in
-- pool_functions.sql).
--
-- The functions run as the extension's owner (SECURITY DEFINER), with the
-- search_path pinned.  The extension is relocatable: the PL/pgSQL functions
-- find its tables, and uid_pool_prepare() that they share, through its
-- current schema (pg_extension) at run time, and uid_pool_leases(), in
-- SQL, names them by OID; none looks through the caller's search_path, and
-- all keep working after ALTER EXTENSION ... SET SCHEMA.  Nobody but the
-- owner may execute them or touch the tables until an administrator GRANTs
-- EXECUTE.
--
-- An id is free when it has no lease row, or when its lease ended (expired
-- or released) uid_pool_grace() ago or longer: the holder's IDs may be dated
-- a little ahead of its clock, and clocks differ.  Every decision reads
-- clock_timestamp() once, after the lock (now() is when the caller's
-- transaction began, which may be long before the lock was granted).

CREATE TABLE uid_pool (
    pool text PRIMARY KEY CHECK (pool <> '' AND length(pool) <= 63),
    size integer NOT NULL CHECK (size BETWEEN 1 AND 65536),
    claims bigint NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE uid_pool IS
'lease pools of this coordinator: the ids 0 .. size - 1 of each; written by uid_pool_claim(), kept by pg_dump';
COMMENT ON COLUMN uid_pool.pool IS 'the pool''s name';
COMMENT ON COLUMN uid_pool.size IS 'how many ids the pool holds, fixed by the claim that created it';
COMMENT ON COLUMN uid_pool.claims IS 'claims so far; each claim''s token is the new value (a fencing token that only grows)';
COMMENT ON COLUMN uid_pool.created_at IS 'when the first claim created the pool';

CREATE TABLE uid_pool_lease (
    pool text NOT NULL REFERENCES uid_pool ON DELETE CASCADE,
    id integer NOT NULL CHECK (id >= 0),
    holder text NOT NULL,
    token bigint NOT NULL,
    claimed_at timestamptz NOT NULL,
    renewed_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL,
    released_at timestamptz,
    PRIMARY KEY (pool, id)
);
COMMENT ON TABLE uid_pool_lease IS
'the latest lease of each id that was ever claimed; see uid_pool_leases() for their states; kept by pg_dump';
COMMENT ON COLUMN uid_pool_lease.pool IS 'the pool';
COMMENT ON COLUMN uid_pool_lease.id IS 'the id, 0 .. the pool''s size - 1';
COMMENT ON COLUMN uid_pool_lease.holder IS 'who claimed it, as the claimant named itself';
COMMENT ON COLUMN uid_pool_lease.token IS 'the claim''s token (uid_pool.claims after it): renewals and releases must give it';
COMMENT ON COLUMN uid_pool_lease.claimed_at IS 'when it was claimed (the coordinator''s clock)';
COMMENT ON COLUMN uid_pool_lease.renewed_at IS 'when it was last claimed or renewed';
COMMENT ON COLUMN uid_pool_lease.expires_at IS 'when it expires unless renewed';
COMMENT ON COLUMN uid_pool_lease.released_at IS 'when the holder released it, or null';

-- pg_dump keeps the rows (a restored coordinator continues the tokens and
-- knows who holds what); only the extension's owner touches them.
SELECT pg_catalog.pg_extension_config_dump('uid_pool', '');
SELECT pg_catalog.pg_extension_config_dump('uid_pool_lease', '');
REVOKE ALL ON TABLE uid_pool, uid_pool_lease FROM PUBLIC;
