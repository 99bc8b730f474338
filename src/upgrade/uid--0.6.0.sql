-- uid: settings and counters shared by every ID type

CREATE FUNCTION uid_config(OUT name text, OUT setting text, OUT effective text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_config'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid_config() IS
'the uid.* settings: as set, and as the generators use them (values drawn at server start resolved)';

CREATE FUNCTION uid_stats(OUT type text, OUT issued bigint, OUT overflow_waits bigint,
                          OUT overflow_wait_us bigint, OUT clock_regressions bigint,
                          OUT tick_flips bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_stats'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid_stats() IS
'per-type generator counters since the state file was created: IDs issued, waits for the next tick after a used-up sequence and the microseconds spent in them, calls that found the clock behind the last ID, tick-tock flips';

CREATE FUNCTION uid_lease(OUT lease timestamptz, OUT wal_lease timestamptz,
                          OUT last_fence timestamptz, OUT renewals bigint, OUT fences bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_lease'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid_lease() IS
'the generators'' lease: no ID issued so far reaches lease (state file) or wal_lease (replication origin uid_fence, as WAL holds it); last_fence, the lease the last fence moved a type past; leases WAL-logged and fences applied since the state file was made';

-- The lease lives in a replication origin, shared by every database of the
-- server: the first CREATE EXTENSION makes it.
SELECT pg_catalog.pg_replication_origin_create('uid_fence')
WHERE pg_catalog.pg_replication_origin_oid('uid_fence') IS NULL;

CREATE FUNCTION uid_identity(OUT type text, OUT field text, OUT value bigint, OUT source text,
                             OUT pool text, OUT lease_id integer, OUT expires_at timestamptz,
                             OUT several_servers_safe boolean, OUT note text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_identity'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid_identity() IS
'what each type embeds on this server now (sno partition, muid medallion, snowflake_si machine id, revts8 generator and cluster, uid60 worker), its source (setting, default, drawn, or lease from uid.coordinator with its pool, id and expiry) and whether that source keeps several servers apart';

CREATE FUNCTION uid_identity_renew(OUT pool text, OUT lease_id integer, OUT token bigint,
                                   OUT expires_at timestamptz)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_identity_renew'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION uid_identity_renew() IS
'renews this server''s lease from the coordinator in uid.coordinator now, or claims one, and returns it; raises what failed';
REVOKE EXECUTE ON FUNCTION uid_identity_renew() FROM PUBLIC;
-- uid: the lease pool (see the README, section "Several servers")
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
-- it returns only once it has committed (a claim rolled back, or lost in a
-- crash, gives its id and its token to the next claim).
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

CREATE FUNCTION uid_pool_grace() RETURNS interval
AS 'MODULE_PATHNAME', 'uid_pool_grace'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid_pool_grace() IS
'a coordinator''s grace period, the server setting uid.pool_grace: an expired or released lease is handed out again only this long after it ended';

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

-- What uid_pool_claim(), uid_pool_renew() and uid_pool_release() do first,
-- once each has refused its null arguments: check their other arguments,
-- lock the pool's row, and read the clock once (t, which all their
-- decisions use).  Each passes the arguments it has, by name; the others
-- stay null and are not checked.  A claim (size given) creates a missing
-- pool with its size and refuses a pool of another size; for a renewal or
-- a release, pool_size is null when there is no such pool.  Internal: they
-- call it through the extension's current schema, as they reach its tables.
CREATE FUNCTION uid_pool_prepare(pool text, size integer DEFAULT NULL, holder text DEFAULT NULL,
                                 id integer DEFAULT NULL, ttl interval DEFAULT NULL,
                                 OUT pool_size integer, OUT t timestamptz)
RETURNS record
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp name;               -- the extension's schema
BEGIN
    IF pool = '' OR octet_length(pool) > 63 THEN
        RAISE EXCEPTION 'invalid pool name "%": a pool name has 1 to 63 bytes', pool
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF size < 1 OR size > 65536 THEN
        RAISE EXCEPTION 'pool size must be between 1 and 65536, not %', size
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF holder = '' THEN
        RAISE EXCEPTION 'holder must not be empty'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF id < 0 OR id > 65535 THEN
        RAISE EXCEPTION 'id must be between 0 and 65535, not %', id
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF ttl <= interval '0' OR ttl > interval '365 days' THEN
        RAISE EXCEPTION 'ttl must be positive and at most 365 days, not %', ttl
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    SELECT ns.nspname INTO STRICT nsp
    FROM pg_catalog.pg_extension ext JOIN pg_catalog.pg_namespace ns ON ns.oid = ext.extnamespace
    WHERE ext.extname = 'uid';

    -- The pool's row, locked (see the top of this file): a claim that hands
    -- an id out runs wholly before or wholly after every other claim,
    -- renewal and release of the pool.  The first claim creates the row.
    -- ON CONFLICT DO NOTHING waits for a concurrent creator: if that one
    -- commits, the next SELECT (READ COMMITTED) sees its row; under
    -- REPEATABLE READ the INSERT fails with 40001 instead.  A pool deleted
    -- while a claim waited for its lock is created again.
    LOOP
        EXECUTE format('SELECT p.size FROM %I.uid_pool p WHERE p.pool = $1 FOR UPDATE', nsp)
            INTO pool_size USING pool;
        EXIT WHEN pool_size IS NOT NULL OR size IS NULL;
        EXECUTE format('INSERT INTO %I.uid_pool (pool, size) VALUES ($1, $2) ON CONFLICT (pool) DO NOTHING', nsp)
            USING pool, size;
    END LOOP;
    IF pool_size <> size THEN
        RAISE EXCEPTION 'pool "%" has size %, not %', pool, pool_size, size
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A pool''s size is fixed by the claim that created it; every claimant must give that size.';
    END IF;

    t := clock_timestamp();
END
$$;
COMMENT ON FUNCTION uid_pool_prepare(text, integer, text, integer, interval) IS
'internal: checks the arguments of uid_pool_claim(), uid_pool_renew() or uid_pool_release(), locks the pool''s row (a claim creates it) and reads the clock; returns the pool''s size (null if there is no pool) and the time';
-- Only the pool's functions call it, as the extension's owner: it is not for
-- GRANTs.
REVOKE EXECUTE ON FUNCTION uid_pool_prepare(text, integer, text, integer, interval) FROM PUBLIC;

CREATE FUNCTION uid_pool_claim(pool text, size integer, holder text,
                               ttl interval DEFAULT '3600 s')
RETURNS TABLE (id integer, token bigint, expires_at timestamptz)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp name;               -- the extension's schema
    pool_size integer;
    claim_token bigint;
    t timestamptz;          -- the one clock reading, after the lock
    grace interval;
    free_id integer;
    next_id integer;
    next_at timestamptz;
    next_released boolean;
    n bigint;
BEGIN
    IF pool IS NULL OR size IS NULL OR holder IS NULL OR ttl IS NULL THEN
        RAISE EXCEPTION 'uid_pool_claim: pool, size, holder and ttl must not be null'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    SELECT ns.nspname INTO STRICT nsp
    FROM pg_catalog.pg_extension ext JOIN pg_catalog.pg_namespace ns ON ns.oid = ext.extnamespace
    WHERE ext.extname = 'uid';

    -- the checks, the pool's row (created by the first claim) locked, the clock
    EXECUTE format('SELECT * FROM %I.uid_pool_prepare(pool => $1, size => $2, holder => $3, ttl => $4)', nsp)
        INTO pool_size, t USING pool, size, holder, ttl;
    EXECUTE format('SELECT %I.uid_pool_grace()', nsp) INTO grace;

    -- The lowest free id.  It is 0, one above an id that has a row, or an id
    -- whose row is free: so the candidates come from the pool's rows, without
    -- a scan over all the ids of the pool.  Rows at or above the pool's size
    -- (left by an administrator who shrank it) are never handed out.
    EXECUTE format($q$
        SELECT min(c) FROM (
            SELECT 0 AS c
            WHERE NOT EXISTS (SELECT FROM %1$I.uid_pool_lease l WHERE l.pool = $1 AND l.id = 0)
            UNION ALL
            SELECT l.id + 1 FROM %1$I.uid_pool_lease l
            WHERE l.pool = $1 AND l.id + 1 < $2
              AND NOT EXISTS (SELECT FROM %1$I.uid_pool_lease m WHERE m.pool = $1 AND m.id = l.id + 1)
            UNION ALL
            SELECT l.id FROM %1$I.uid_pool_lease l
            WHERE l.pool = $1 AND l.id < $2 AND least(l.expires_at, l.released_at) + $3 <= $4
        ) candidates$q$, nsp)
        INTO free_id USING pool, pool_size, grace, t;

    IF free_id IS NULL THEN
        EXECUTE format($q$
            SELECT l.id, least(l.expires_at, l.released_at) + $2, l.released_at IS NOT NULL
            FROM %I.uid_pool_lease l WHERE l.pool = $1 AND l.id < $3
            ORDER BY 2, 1 LIMIT 1$q$, nsp)
            INTO next_id, next_at, next_released USING pool, grace, pool_size;
        RAISE EXCEPTION 'pool "%" is exhausted: %', pool,
                CASE WHEN pool_size = 1 THEN 'its one id is leased'
                     ELSE format('all %s ids are leased', pool_size) END
            USING ERRCODE = 'configuration_limit_exceeded',
                  DETAIL = CASE
                      WHEN next_released THEN
                          format('The first id to become reusable is %s (released), at %s.', next_id, next_at)
                      ELSE
                          format('The first id to become reusable is %s, at %s, unless its holder renews its lease first.',
                                 next_id, next_at)
                      END,
                  HINT = 'An id becomes reusable uid.pool_grace after its lease expires or is released; holders that stop should release theirs with uid_pool_release().';
    END IF;

    EXECUTE format('UPDATE %I.uid_pool p SET claims = p.claims + 1 WHERE p.pool = $1 RETURNING p.claims', nsp)
        INTO claim_token USING pool;

    -- The row of a free id is replaced.  The WHERE repeats the test for a
    -- free row, so that even a writer that bypassed the pool's lock (a
    -- direct UPDATE of the table) cannot make this claim take a held id.
    EXECUTE format($q$
        INSERT INTO %I.uid_pool_lease AS l
            (pool, id, holder, token, claimed_at, renewed_at, expires_at, released_at)
        VALUES ($1, $2, $3, $4, $5, $5, $5 + $6, NULL)
        ON CONFLICT (pool, id) DO UPDATE
        SET holder = excluded.holder, token = excluded.token, claimed_at = excluded.claimed_at,
            renewed_at = excluded.renewed_at, expires_at = excluded.expires_at, released_at = NULL
        WHERE least(l.expires_at, l.released_at) + $7 <= $5$q$, nsp)
        USING pool, free_id, holder, claim_token, t, ttl, grace;
    GET DIAGNOSTICS n = ROW_COUNT;
    IF n <> 1 THEN
        RAISE EXCEPTION 'lease % of pool "%" changed while it was being claimed', free_id, pool
            USING ERRCODE = 'serialization_failure',
                  HINT = 'Its row was written without the pool''s lock. Retry the claim.';
    END IF;

    id := free_id;
    token := claim_token;
    expires_at := t + ttl;
    RETURN NEXT;
END
$$;
COMMENT ON FUNCTION uid_pool_claim(text, integer, text, interval) IS
'claims the lowest free id of a pool (made on first claim with this size) for holder, for ttl; returns the id, the claim''s token and when the lease expires; 53400 when every id is leased';

CREATE FUNCTION uid_pool_renew(pool text, id integer, token bigint,
                               ttl interval DEFAULT '3600 s')
RETURNS timestamptz
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp name;
    t timestamptz;
    new_expiry timestamptz;
    pool_size integer;      -- null: there is no such pool
    cur_token bigint;
    cur_holder text;
    cur_released timestamptz;
    why text;
BEGIN
    IF pool IS NULL OR id IS NULL OR token IS NULL OR ttl IS NULL THEN
        RAISE EXCEPTION 'uid_pool_renew: pool, id, token and ttl must not be null'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    SELECT ns.nspname INTO STRICT nsp
    FROM pg_catalog.pg_extension ext JOIN pg_catalog.pg_namespace ns ON ns.oid = ext.extnamespace
    WHERE ext.extname = 'uid';

    -- the checks, the pool's row locked (a claim that hands this id to
    -- another holder runs wholly before or wholly after this renewal), the clock
    EXECUTE format('SELECT * FROM %I.uid_pool_prepare(pool => $1, id => $2, ttl => $3)', nsp)
        INTO pool_size, t USING pool, id, ttl;

    -- A lease that expired but that nobody claimed since still has this
    -- token: it is renewed, even after its grace period.
    EXECUTE format($q$
        UPDATE %I.uid_pool_lease l SET renewed_at = $4, expires_at = $4 + $5
        WHERE l.pool = $1 AND l.id = $2 AND l.token = $3 AND l.released_at IS NULL
        RETURNING l.expires_at$q$, nsp)
        INTO new_expiry USING pool, id, token, t, ttl;
    IF new_expiry IS NOT NULL THEN
        RETURN new_expiry;
    END IF;

    EXECUTE format('SELECT l.token, l.holder, l.released_at FROM %I.uid_pool_lease l WHERE l.pool = $1 AND l.id = $2', nsp)
        INTO cur_token, cur_holder, cur_released USING pool, id;
    why := CASE
        WHEN pool_size IS NULL THEN format('There is no pool "%s".', pool)
        WHEN cur_token IS NULL THEN 'The id is not leased.'
        WHEN cur_token <> token THEN format('The id is leased with token %s, to holder "%s".', cur_token, cur_holder)
        ELSE format('The lease of token %s was released at %s.', token, cur_released)
        END;
    RAISE EXCEPTION 'lease % of pool "%" is not held by token %', id, pool, token
        USING ERRCODE = 'object_not_in_prerequisite_state',
              DETAIL = why,
              HINT = 'The holder must stop using the id; it may claim another with uid_pool_claim().';
END
$$;
COMMENT ON FUNCTION uid_pool_renew(text, integer, bigint, interval) IS
'renews the lease of an id held by the claim''s token: it expires ttl from now (returned); 55000 if the token does not hold it (released, or claimed by another); an expired lease nobody claimed since is renewed';

CREATE FUNCTION uid_pool_release(pool text, id integer, token bigint)
RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp name;
    t timestamptz;
    n bigint;
BEGIN
    IF pool IS NULL OR id IS NULL OR token IS NULL THEN
        RAISE EXCEPTION 'uid_pool_release: pool, id and token must not be null'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    SELECT ns.nspname INTO STRICT nsp
    FROM pg_catalog.pg_extension ext JOIN pg_catalog.pg_namespace ns ON ns.oid = ext.extnamespace
    WHERE ext.extname = 'uid';

    -- the checks, the pool's row locked, the clock
    EXECUTE format('SELECT p.t FROM %I.uid_pool_prepare(pool => $1, id => $2) p', nsp)
        INTO t USING pool, id;

    -- The id becomes free uid_pool_grace() after the release (or after the
    -- lease expired, if that was earlier).  Released twice, or after another
    -- claim took the id: false, and nothing changes.
    EXECUTE format($q$
        UPDATE %I.uid_pool_lease l SET released_at = $4
        WHERE l.pool = $1 AND l.id = $2 AND l.token = $3 AND l.released_at IS NULL$q$, nsp)
        USING pool, id, token, t;
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n = 1;
END
$$;
COMMENT ON FUNCTION uid_pool_release(text, integer, bigint) IS
'releases the lease of an id held by the claim''s token: true; false if the token does not hold it (already released, or claimed by another); the id is free uid_pool_grace() later';

-- In SQL, not PL/pgSQL: its argument and its first result column are both
-- named pool, which PL/pgSQL refuses.  The body is parsed when the function
-- is created (BEGIN ATOMIC) and names the table and uid_pool_grace() by
-- their OIDs, so neither search_path nor a relocation of the extension
-- changes what it reads.
CREATE FUNCTION uid_pool_leases(pool text DEFAULT NULL)
RETURNS TABLE (pool text, id integer, holder text, token bigint,
               claimed_at timestamptz, renewed_at timestamptz, expires_at timestamptz,
               released_at timestamptz, state text, reusable_at timestamptz)
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    -- the states by the rules of uid_pool_claim(), at one clock reading
    -- ($1 is the argument: a bare "pool" would be the column)
    WITH now_ AS MATERIALIZED (SELECT clock_timestamp() AS t, uid_pool_grace() AS grace)
    SELECT l.pool, l.id, l.holder, l.token, l.claimed_at, l.renewed_at, l.expires_at,
           l.released_at,
           CASE WHEN l.released_at IS NULL AND c.t < l.expires_at THEN 'held'
                WHEN c.t < least(l.expires_at, l.released_at) + c.grace THEN 'grace'
                ELSE 'free' END,
           least(l.expires_at, l.released_at) + c.grace
    FROM uid_pool_lease l CROSS JOIN now_ c
    WHERE $1 IS NULL OR l.pool = $1
    ORDER BY l.pool, l.id;
END;
COMMENT ON FUNCTION uid_pool_leases(text) IS
'the lease of every id ever claimed, of one pool or (null) of all: state held (not released, not expired), grace (ended, not yet reusable) or free (reusable from reusable_at)';

-- An administrator GRANTs EXECUTE on these to the roles that claim.
REVOKE EXECUTE ON FUNCTION uid_pool_claim(text, integer, text, interval) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_pool_renew(text, integer, bigint, interval) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_pool_release(text, integer, bigint) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_pool_leases(text) FROM PUBLIC;
-- sno: 10-byte K-sortable IDs of muyo/sno

CREATE TYPE sno;

CREATE FUNCTION sno_in(cstring) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_out(sno) RETURNS cstring
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_recv(internal) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_send(sno) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE sno (
    INPUT = sno_in,
    OUTPUT = sno_out,
    RECEIVE = sno_recv,
    SEND = sno_send,
    INTERNALLENGTH = 10,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE sno IS
'sno ID (muyo/sno): 10 bytes, 4 ms time units since 2010, tick-tock bit, metabyte, partition, sequence; text is 16 characters, sortable';

COMMENT ON FUNCTION sno_in(cstring) IS 'sno input from its 16-character text (upper case folded)';
COMMENT ON FUNCTION sno_out(sno) IS 'sno output as 16 lower-case characters';
COMMENT ON FUNCTION sno_recv(internal) IS 'sno binary input: exactly 10 bytes';
COMMENT ON FUNCTION sno_send(sno) IS 'sno binary output: its 10 bytes';


CREATE FUNCTION sno_eq(sno, sno) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_ne(sno, sno) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_lt(sno, sno) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_le(sno, sno) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_gt(sno, sno) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_ge(sno, sno) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_cmp(sno, sno) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_smaller(sno, sno) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_larger(sno, sno) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_sortsupport(internal) RETURNS void
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_hash(sno) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION sno_hash_extended(sno, bigint) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

COMMENT ON FUNCTION sno_eq(sno, sno) IS 'equal';
COMMENT ON FUNCTION sno_ne(sno, sno) IS 'not equal';
COMMENT ON FUNCTION sno_lt(sno, sno) IS 'less than (earlier)';
COMMENT ON FUNCTION sno_le(sno, sno) IS 'less than or equal';
COMMENT ON FUNCTION sno_gt(sno, sno) IS 'greater than (later)';
COMMENT ON FUNCTION sno_ge(sno, sno) IS 'greater than or equal';
COMMENT ON FUNCTION sno_cmp(sno, sno) IS 'btree comparison in time order: -1, 0 or 1';
COMMENT ON FUNCTION sno_smaller(sno, sno) IS 'the smaller of two values (in time order)';
COMMENT ON FUNCTION sno_larger(sno, sno) IS 'the larger of two values (in time order)';
COMMENT ON FUNCTION sno_sortsupport(internal) IS 'btree sort support';
COMMENT ON FUNCTION sno_hash(sno) IS 'hash';
COMMENT ON FUNCTION sno_hash_extended(sno, bigint) IS 'hash with seed';

CREATE OPERATOR = (
    LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = sno, RIGHTARG = sno, PROCEDURE = sno_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS sno_ops
DEFAULT FOR TYPE sno USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 sno_cmp(sno, sno),
    FUNCTION 2 sno_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS sno_ops USING btree IS 'sno in time order, the default';

CREATE OPERATOR CLASS sno_hash_ops
DEFAULT FOR TYPE sno USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 sno_hash(sno),
    FUNCTION 2 sno_hash_extended(sno, bigint);
COMMENT ON OPERATOR CLASS sno_hash_ops USING hash IS 'sno hashing';

CREATE OPERATOR CLASS sno_minmax_ops
DEFAULT FOR TYPE sno USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS sno_minmax_ops USING brin IS 'sno BRIN minmax, in time order';

CREATE AGGREGATE min(sno) (
    SFUNC = sno_smaller, STYPE = sno, COMBINEFUNC = sno_smaller,
    SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(sno) (
    SFUNC = sno_larger, STYPE = sno, COMBINEFUNC = sno_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(sno) IS 'the earliest sno (smallest in the default btree order)';
COMMENT ON AGGREGATE max(sno) IS 'the latest sno (largest in the default btree order)';

CREATE FUNCTION sno_to_bytea(sno) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION bytea_to_sno(bytea) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (sno AS bytea) WITH FUNCTION sno_to_bytea(sno);
CREATE CAST (bytea AS sno) WITH FUNCTION bytea_to_sno(bytea);
COMMENT ON FUNCTION sno_to_bytea(sno) IS 'the 10 bytes of a sno';
COMMENT ON FUNCTION bytea_to_sno(bytea) IS 'a sno from exactly 10 bytes';

CREATE FUNCTION sno_timestamp(sno) RETURNS timestamptz
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_meta(sno) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_partition(sno) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_sequence(sno) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_tick(sno) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_from_parts("time" timestamptz, meta integer, "partition" integer,
                               sequence integer, tick integer DEFAULT 0) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_boundary(timestamptz) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION sno_new(meta integer DEFAULT 0) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION sno_timestamp(sno) IS 'the time of a sno (its 4 ms unit; the tick bit is not part of it)';
COMMENT ON FUNCTION sno_meta(sno) IS 'the metabyte of a sno, 0..255';
COMMENT ON FUNCTION sno_partition(sno) IS 'the partition of a sno, 0..65535';
COMMENT ON FUNCTION sno_sequence(sno) IS 'the sequence of a sno within its 4 ms unit, 0..65535';
COMMENT ON FUNCTION sno_tick(sno) IS 'the tick-tock bit of a sno, 0 or 1 (flips when the clock goes back)';
COMMENT ON FUNCTION sno_from_parts(timestamptz, integer, integer, integer, integer) IS
'the sno of the given time (floored to 4 ms), metabyte, partition, sequence and tick bit';
COMMENT ON FUNCTION sno_boundary(timestamptz) IS
'the smallest sno whose time is at or after the argument: id >= sno_boundary(a) AND id < sno_boundary(b) selects IDs made in [a, b)';
COMMENT ON FUNCTION sno_new(integer) IS
'a new sno with the given metabyte (0..255), partition uid.partition and a sequence in uid.sno_sequence_min..max; unique across all backends of the server';

CREATE FUNCTION sno_new_at(meta integer, "time" timestamptz) RETURNS sno
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION sno_new_at(integer, timestamptz) IS
'a new sno dated at the given time, which has passed (floored to 4 ms; tick bit 0), with a sequence from the back-fill range uid.sno_backfill_min..max: never equal to another sno of this server; back-fill goes forward in time in two lanes';
-- Back-fill moves the server's lanes for every session: only the roles an
-- administrator chose may (GRANT EXECUTE, as for the lease pool).
REVOKE EXECUTE ON FUNCTION sno_new_at(integer, timestamptz) FROM PUBLIC;

CREATE FUNCTION sno_range(OUT live_min integer, OUT live_max integer,
                          OUT backfill_min integer, OUT backfill_max integer,
                          OUT taken_at timestamptz,
                          OUT previous_min integer, OUT previous_max integer,
                          OUT previous_until timestamptz)
RETURNS record
AS 'MODULE_PATHNAME', 'sno_range'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION sno_range() IS
'the sequence ranges this server issues sno from now (live, and back-fill or null), when a reload delivered them, and the live range before with the time its IDs reached: another server may take that range once its clock is past previous_until';

CREATE FUNCTION sno_snapshot(
    OUT timeline integer, OUT flips bigint,
    OUT timeline0_time timestamptz, OUT timeline0_sequence integer,
    OUT timeline1_time timestamptz, OUT timeline1_sequence integer,
    OUT clock_high timestamptz,
    OUT sequence_min integer, OUT sequence_max integer,
    OUT capacity_per_tick integer, OUT capacity_per_second bigint,
    OUT backfill_min integer, OUT backfill_max integer,
    OUT backfill_used_min integer, OUT backfill_used_max integer,
    OUT backfill_lane0_time timestamptz, OUT backfill_lane0_sequence integer,
    OUT backfill_lane1_time timestamptz, OUT backfill_lane1_sequence integer,
    OUT overflow_notified_time timestamptz, OUT overflow_ticks integer,
    OUT issued bigint, OUT overflow_waits bigint, OUT overflow_wait_us bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'sno_snapshot'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION sno_snapshot() IS
'the sno generator''s state, read without changing it: the active tick-tock timeline and flips, each timeline''s mark (time and last sequence), the highest clock reading, this session''s live sequence range and capacity, the back-fill range in use, every back-fill range used and the two lanes'' marks, the last overflow notification and its run of ticks, and the counters';
-- muid: 16-byte IDs of Gink (x5e/gink), one timestamp per transaction

CREATE TYPE muid;

CREATE FUNCTION muid_in(cstring) RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_out(muid) RETURNS cstring
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_recv(internal) RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_send(muid) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE muid (
    INPUT = muid_in,
    OUTPUT = muid_out,
    RECEIVE = muid_recv,
    SEND = muid_send,
    INTERNALLENGTH = 16,
    ALIGNMENT = char,
    STORAGE = plain
);
COMMENT ON TYPE muid IS
'muid (Gink): 16 bytes of microsecond timestamp (52 bits), medallion (44 bits) and offset in the transaction (32 bits); text TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO, sortable';
COMMENT ON FUNCTION muid_in(cstring) IS
'muid input: hex digits (either case) in groups of 13, 11 and 8 joined by dashes, or the first group or two (zero medallion and offset left out)';
COMMENT ON FUNCTION muid_out(muid) IS 'muid output: TTTTTTTTTTTTT-MMMMMMMMMMM-OOOOOOOO in upper-case hex';
COMMENT ON FUNCTION muid_recv(internal) IS 'muid binary input: exactly 16 bytes';
COMMENT ON FUNCTION muid_send(muid) IS 'muid binary output: its 16 bytes';


CREATE FUNCTION muid_eq(muid, muid) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_ne(muid, muid) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_lt(muid, muid) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_le(muid, muid) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_gt(muid, muid) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_ge(muid, muid) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_cmp(muid, muid) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_smaller(muid, muid) RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_larger(muid, muid) RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_sortsupport(internal) RETURNS void
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_hash(muid) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION muid_hash_extended(muid, bigint) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

COMMENT ON FUNCTION muid_eq(muid, muid) IS 'equal';
COMMENT ON FUNCTION muid_ne(muid, muid) IS 'not equal';
COMMENT ON FUNCTION muid_lt(muid, muid) IS 'less than (earlier)';
COMMENT ON FUNCTION muid_le(muid, muid) IS 'less than or equal';
COMMENT ON FUNCTION muid_gt(muid, muid) IS 'greater than (later)';
COMMENT ON FUNCTION muid_ge(muid, muid) IS 'greater than or equal';
COMMENT ON FUNCTION muid_cmp(muid, muid) IS 'btree comparison in time order: -1, 0 or 1';
COMMENT ON FUNCTION muid_smaller(muid, muid) IS 'the smaller of two values (in time order)';
COMMENT ON FUNCTION muid_larger(muid, muid) IS 'the larger of two values (in time order)';
COMMENT ON FUNCTION muid_sortsupport(internal) IS 'btree sort support';
COMMENT ON FUNCTION muid_hash(muid) IS 'hash';
COMMENT ON FUNCTION muid_hash_extended(muid, bigint) IS 'hash with seed';

CREATE OPERATOR = (
    LEFTARG = muid, RIGHTARG = muid, PROCEDURE = muid_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = muid, RIGHTARG = muid, PROCEDURE = muid_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = muid, RIGHTARG = muid, PROCEDURE = muid_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = muid, RIGHTARG = muid, PROCEDURE = muid_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = muid, RIGHTARG = muid, PROCEDURE = muid_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = muid, RIGHTARG = muid, PROCEDURE = muid_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS muid_ops
DEFAULT FOR TYPE muid USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 muid_cmp(muid, muid),
    FUNCTION 2 muid_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS muid_ops USING btree IS 'muid in time order, the default';

CREATE OPERATOR CLASS muid_hash_ops
DEFAULT FOR TYPE muid USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 muid_hash(muid),
    FUNCTION 2 muid_hash_extended(muid, bigint);
COMMENT ON OPERATOR CLASS muid_hash_ops USING hash IS 'muid hashing';

CREATE OPERATOR CLASS muid_minmax_ops
DEFAULT FOR TYPE muid USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS muid_minmax_ops USING brin IS 'muid BRIN minmax, in time order';

CREATE AGGREGATE min(muid) (
    SFUNC = muid_smaller, STYPE = muid, COMBINEFUNC = muid_smaller,
    SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(muid) (
    SFUNC = muid_larger, STYPE = muid, COMBINEFUNC = muid_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(muid) IS 'the earliest muid (smallest in the default btree order)';
COMMENT ON AGGREGATE max(muid) IS 'the latest muid (largest in the default btree order)';

CREATE FUNCTION muid_to_bytea(muid) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION bytea_to_muid(bytea) RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (muid AS bytea) WITH FUNCTION muid_to_bytea(muid);
CREATE CAST (bytea AS muid) WITH FUNCTION bytea_to_muid(bytea);
COMMENT ON FUNCTION muid_to_bytea(muid) IS 'the 16 bytes of a muid';
COMMENT ON FUNCTION bytea_to_muid(bytea) IS 'a muid from exactly 16 bytes';

-- uuid and muid are both 16 bytes by reference with char alignment, and
-- every 16 bytes are a valid value of each: the casts copy nothing.
CREATE CAST (muid AS uuid) WITHOUT FUNCTION;
CREATE CAST (uuid AS muid) WITHOUT FUNCTION;

CREATE FUNCTION muid_timestamp(muid) RETURNS timestamptz
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_medallion(muid) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_offset(muid) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_from_parts("time" timestamptz, medallion bigint, "offset" integer DEFAULT 0)
RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_boundary(timestamptz) RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION muid_new() RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;
CREATE FUNCTION muid_txn() RETURNS muid
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE STRICT PARALLEL RESTRICTED;

COMMENT ON FUNCTION muid_timestamp(muid) IS 'the time of a muid, exact to the microsecond (its transaction''s timestamp)';
COMMENT ON FUNCTION muid_medallion(muid) IS 'the medallion of a muid: the server that made it, 0 .. 2^44 - 1';
COMMENT ON FUNCTION muid_offset(muid) IS 'the offset of a muid in its transaction, signed: 0 names the transaction, muid_new() gives 1, 2, 3 ...';
COMMENT ON FUNCTION muid_from_parts(timestamptz, bigint, integer) IS
'the muid of the given time (exact to the microsecond), medallion (0 .. 2^44 - 1) and offset';
COMMENT ON FUNCTION muid_boundary(timestamptz) IS
'the smallest muid whose time is at or after the argument: id >= muid_boundary(a) AND id < muid_boundary(b) selects IDs made in [a, b)';
COMMENT ON FUNCTION muid_new() IS
'a new muid: the transaction''s timestamp (unique across the server, taken by the first call), medallion uid.medallion, and the next offset 1, 2, 3 ... of the transaction';
COMMENT ON FUNCTION muid_txn() IS
'the muid of the current transaction itself: its timestamp and medallion with offset 0';
-- snowflake_si: 53-bit JavaScript-safe IDs of Snowflake-SI (@litert/uuid)

CREATE TYPE snowflake_si;

CREATE FUNCTION snowflake_si_in(cstring) RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_out(snowflake_si) RETURNS cstring
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_recv(internal) RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_send(snowflake_si) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE snowflake_si (
    INPUT = snowflake_si_in,
    OUTPUT = snowflake_si_out,
    RECEIVE = snowflake_si_recv,
    SEND = snowflake_si_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE snowflake_si IS
'Snowflake-SI ID: 53-bit integer (safe in JavaScript) of 40-bit milliseconds after uid.snowflake_si_epoch, machine id and per-millisecond index; text is decimal';

COMMENT ON FUNCTION snowflake_si_in(cstring) IS 'snowflake_si input from decimal digits, 0 .. 2^53 - 1';
COMMENT ON FUNCTION snowflake_si_out(snowflake_si) IS 'snowflake_si output in decimal';
COMMENT ON FUNCTION snowflake_si_recv(internal) IS 'snowflake_si binary input: a big-endian 8-byte integer, 0 .. 2^53 - 1';
COMMENT ON FUNCTION snowflake_si_send(snowflake_si) IS 'snowflake_si binary output: a big-endian 8-byte integer';


CREATE FUNCTION snowflake_si_eq(snowflake_si, snowflake_si) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION snowflake_si_ne(snowflake_si, snowflake_si) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION snowflake_si_lt(snowflake_si, snowflake_si) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION snowflake_si_le(snowflake_si, snowflake_si) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION snowflake_si_gt(snowflake_si, snowflake_si) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION snowflake_si_ge(snowflake_si, snowflake_si) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION snowflake_si_cmp(snowflake_si, snowflake_si) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION snowflake_si_smaller(snowflake_si, snowflake_si) RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION snowflake_si_larger(snowflake_si, snowflake_si) RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION snowflake_si_sortsupport(internal) RETURNS void
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_hash(snowflake_si) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION snowflake_si_hash_extended(snowflake_si, bigint) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

COMMENT ON FUNCTION snowflake_si_eq(snowflake_si, snowflake_si) IS 'equal';
COMMENT ON FUNCTION snowflake_si_ne(snowflake_si, snowflake_si) IS 'not equal';
COMMENT ON FUNCTION snowflake_si_lt(snowflake_si, snowflake_si) IS 'less than (earlier)';
COMMENT ON FUNCTION snowflake_si_le(snowflake_si, snowflake_si) IS 'less than or equal';
COMMENT ON FUNCTION snowflake_si_gt(snowflake_si, snowflake_si) IS 'greater than (later)';
COMMENT ON FUNCTION snowflake_si_ge(snowflake_si, snowflake_si) IS 'greater than or equal';
COMMENT ON FUNCTION snowflake_si_cmp(snowflake_si, snowflake_si) IS 'btree comparison in time order: -1, 0 or 1';
COMMENT ON FUNCTION snowflake_si_smaller(snowflake_si, snowflake_si) IS 'the smaller of two values (in time order)';
COMMENT ON FUNCTION snowflake_si_larger(snowflake_si, snowflake_si) IS 'the larger of two values (in time order)';
COMMENT ON FUNCTION snowflake_si_sortsupport(internal) IS 'btree sort support';
COMMENT ON FUNCTION snowflake_si_hash(snowflake_si) IS 'hash';
COMMENT ON FUNCTION snowflake_si_hash_extended(snowflake_si, bigint) IS 'hash with seed';

CREATE OPERATOR = (
    LEFTARG = snowflake_si, RIGHTARG = snowflake_si, PROCEDURE = snowflake_si_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = snowflake_si, RIGHTARG = snowflake_si, PROCEDURE = snowflake_si_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = snowflake_si, RIGHTARG = snowflake_si, PROCEDURE = snowflake_si_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = snowflake_si, RIGHTARG = snowflake_si, PROCEDURE = snowflake_si_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = snowflake_si, RIGHTARG = snowflake_si, PROCEDURE = snowflake_si_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = snowflake_si, RIGHTARG = snowflake_si, PROCEDURE = snowflake_si_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS snowflake_si_ops
DEFAULT FOR TYPE snowflake_si USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 snowflake_si_cmp(snowflake_si, snowflake_si),
    FUNCTION 2 snowflake_si_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS snowflake_si_ops USING btree IS 'snowflake_si in time order, the default';

CREATE OPERATOR CLASS snowflake_si_hash_ops
DEFAULT FOR TYPE snowflake_si USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 snowflake_si_hash(snowflake_si),
    FUNCTION 2 snowflake_si_hash_extended(snowflake_si, bigint);
COMMENT ON OPERATOR CLASS snowflake_si_hash_ops USING hash IS 'snowflake_si hashing';

CREATE OPERATOR CLASS snowflake_si_minmax_ops
DEFAULT FOR TYPE snowflake_si USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS snowflake_si_minmax_ops USING brin IS 'snowflake_si BRIN minmax, in time order';

CREATE AGGREGATE min(snowflake_si) (
    SFUNC = snowflake_si_smaller, STYPE = snowflake_si, COMBINEFUNC = snowflake_si_smaller,
    SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(snowflake_si) (
    SFUNC = snowflake_si_larger, STYPE = snowflake_si, COMBINEFUNC = snowflake_si_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(snowflake_si) IS 'the earliest snowflake_si (smallest in the default btree order)';
COMMENT ON AGGREGATE max(snowflake_si) IS 'the latest snowflake_si (largest in the default btree order)';

CREATE FUNCTION snowflake_si_to_bigint(snowflake_si) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION bigint_to_snowflake_si(bigint) RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (snowflake_si AS bigint) WITH FUNCTION snowflake_si_to_bigint(snowflake_si);
CREATE CAST (bigint AS snowflake_si) WITH FUNCTION bigint_to_snowflake_si(bigint);
COMMENT ON FUNCTION snowflake_si_to_bigint(snowflake_si) IS 'the integer value of a snowflake_si';
COMMENT ON FUNCTION bigint_to_snowflake_si(bigint) IS 'a snowflake_si from an integer 0 to 2^53 - 1';

CREATE FUNCTION snowflake_si_timestamp(snowflake_si) RETURNS timestamptz
AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_timestamp(snowflake_si, epoch timestamptz) RETURNS timestamptz
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_machine(snowflake_si) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_machine(snowflake_si, index_bits integer) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_index(snowflake_si) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_index(snowflake_si, index_bits integer) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_from_parts("time" timestamptz, machine integer, index integer)
RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_from_parts("time" timestamptz, machine integer, index integer,
                                        epoch timestamptz, index_bits integer)
RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_boundary(timestamptz) RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION snowflake_si_new() RETURNS snowflake_si
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION snowflake_si_timestamp(snowflake_si) IS
'the time of a snowflake_si (its millisecond), after the base clock uid.snowflake_si_epoch';
COMMENT ON FUNCTION snowflake_si_timestamp(snowflake_si, timestamptz) IS
'the time of a snowflake_si (its millisecond), after the given base clock';
COMMENT ON FUNCTION snowflake_si_machine(snowflake_si) IS
'the machine id (MID) of a snowflake_si, for the width uid.snowflake_si_index_bits';
COMMENT ON FUNCTION snowflake_si_machine(snowflake_si, integer) IS
'the machine id (MID) of a snowflake_si, for the given index width (1..13)';
COMMENT ON FUNCTION snowflake_si_index(snowflake_si) IS
'the per-millisecond index (UIN) of a snowflake_si, for the width uid.snowflake_si_index_bits';
COMMENT ON FUNCTION snowflake_si_index(snowflake_si, integer) IS
'the per-millisecond index (UIN) of a snowflake_si, for the given index width (1..13)';
COMMENT ON FUNCTION snowflake_si_from_parts(timestamptz, integer, integer) IS
'the snowflake_si of the given time (floored to the millisecond), machine id and index, under the current settings';
COMMENT ON FUNCTION snowflake_si_from_parts(timestamptz, integer, integer, timestamptz, integer) IS
'the snowflake_si of the given time (floored to the millisecond), machine id and index, for the given base clock and index width';
COMMENT ON FUNCTION snowflake_si_boundary(timestamptz) IS
'the smallest snowflake_si whose time is at or after the argument: id >= snowflake_si_boundary(a) AND id < snowflake_si_boundary(b) selects IDs made in [a, b)';
COMMENT ON FUNCTION snowflake_si_new() IS
'a new snowflake_si with machine id uid.generator; unique across all backends of the server, at most 2^k per millisecond';
-- revts8: 8-byte IDs of LableOrg/java-uniqueid (bit-reversed timestamp)

CREATE TYPE revts8;

CREATE FUNCTION revts8_in(cstring) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_out(revts8) RETURNS cstring
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_recv(internal) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_send(revts8) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE revts8 (
    INPUT = revts8_in,
    OUTPUT = revts8_out,
    RECEIVE = revts8_recv,
    SEND = revts8_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE revts8 IS
'revts8 ID (LableOrg/java-uniqueid): 8 bytes of bit-reversed 42-bit millisecond timestamp, sequence, generator and cluster; text is 16 hex digits; sorts in time order by default';

COMMENT ON FUNCTION revts8_in(cstring) IS 'revts8 input from 16 hex digits (either case) of the Lable bytes';
COMMENT ON FUNCTION revts8_out(revts8) IS 'revts8 output as 16 lower-case hex digits of the Lable bytes';
COMMENT ON FUNCTION revts8_recv(internal) IS 'revts8 binary input: its 8 Lable bytes';
COMMENT ON FUNCTION revts8_send(revts8) IS 'revts8 binary output: its 8 Lable bytes';


CREATE FUNCTION revts8_eq(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_ne(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_lt(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_le(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_gt(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_ge(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_cmp(revts8, revts8) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_smaller(revts8, revts8) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_larger(revts8, revts8) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_sortsupport(internal) RETURNS void
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_hash(revts8) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_hash_extended(revts8, bigint) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

COMMENT ON FUNCTION revts8_eq(revts8, revts8) IS 'equal';
COMMENT ON FUNCTION revts8_ne(revts8, revts8) IS 'not equal';
COMMENT ON FUNCTION revts8_lt(revts8, revts8) IS 'less than (earlier)';
COMMENT ON FUNCTION revts8_le(revts8, revts8) IS 'less than or equal';
COMMENT ON FUNCTION revts8_gt(revts8, revts8) IS 'greater than (later)';
COMMENT ON FUNCTION revts8_ge(revts8, revts8) IS 'greater than or equal';
COMMENT ON FUNCTION revts8_cmp(revts8, revts8) IS 'btree comparison in time order: -1, 0 or 1';
COMMENT ON FUNCTION revts8_smaller(revts8, revts8) IS 'the smaller of two values (in time order)';
COMMENT ON FUNCTION revts8_larger(revts8, revts8) IS 'the larger of two values (in time order)';
COMMENT ON FUNCTION revts8_sortsupport(internal) IS 'btree sort support';
COMMENT ON FUNCTION revts8_hash(revts8) IS 'hash';
COMMENT ON FUNCTION revts8_hash_extended(revts8, bigint) IS 'hash with seed';

CREATE OPERATOR = (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS revts8_ops
DEFAULT FOR TYPE revts8 USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 revts8_cmp(revts8, revts8),
    FUNCTION 2 revts8_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS revts8_ops USING btree IS 'revts8 in time order, the default';

CREATE OPERATOR CLASS revts8_hash_ops
DEFAULT FOR TYPE revts8 USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 revts8_hash(revts8),
    FUNCTION 2 revts8_hash_extended(revts8, bigint);
COMMENT ON OPERATOR CLASS revts8_hash_ops USING hash IS 'revts8 hashing';

CREATE OPERATOR CLASS revts8_minmax_ops
DEFAULT FOR TYPE revts8 USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS revts8_minmax_ops USING brin IS 'revts8 BRIN minmax, in time order';

CREATE AGGREGATE min(revts8) (
    SFUNC = revts8_smaller, STYPE = revts8, COMBINEFUNC = revts8_smaller,
    SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(revts8) (
    SFUNC = revts8_larger, STYPE = revts8, COMBINEFUNC = revts8_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(revts8) IS 'the earliest revts8 (smallest in the default btree order)';
COMMENT ON AGGREGATE max(revts8) IS 'the latest revts8 (largest in the default btree order)';


-- Raw byte order, the order an HBase-style store sees: a second btree class.
CREATE FUNCTION revts8_bytes_lt(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_bytes_le(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_bytes_gt(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_bytes_ge(revts8, revts8) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_bytes_cmp(revts8, revts8) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION revts8_bytes_sortsupport(internal) RETURNS void
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION revts8_bytes_lt(revts8, revts8) IS 'less than in byte order';
COMMENT ON FUNCTION revts8_bytes_le(revts8, revts8) IS 'less than or equal in byte order';
COMMENT ON FUNCTION revts8_bytes_gt(revts8, revts8) IS 'greater than in byte order';
COMMENT ON FUNCTION revts8_bytes_ge(revts8, revts8) IS 'greater than or equal in byte order';
COMMENT ON FUNCTION revts8_bytes_cmp(revts8, revts8) IS 'btree comparison in byte order: -1, 0 or 1';
COMMENT ON FUNCTION revts8_bytes_sortsupport(internal) IS 'btree sort support in byte order';

CREATE OPERATOR ~<~ (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_bytes_lt,
    COMMUTATOR = ~>~, NEGATOR = ~>=~,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR ~<=~ (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_bytes_le,
    COMMUTATOR = ~>=~, NEGATOR = ~>~,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR ~>~ (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_bytes_gt,
    COMMUTATOR = ~<~, NEGATOR = ~<=~,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR ~>=~ (
    LEFTARG = revts8, RIGHTARG = revts8, PROCEDURE = revts8_bytes_ge,
    COMMUTATOR = ~<=~, NEGATOR = ~<~,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS revts8_bytes_ops
FOR TYPE revts8 USING btree AS
    OPERATOR 1 ~<~,
    OPERATOR 2 ~<=~,
    OPERATOR 3 =,
    OPERATOR 4 ~>=~,
    OPERATOR 5 ~>~,
    FUNCTION 1 revts8_bytes_cmp(revts8, revts8),
    FUNCTION 2 revts8_bytes_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS revts8_bytes_ops USING btree IS
'revts8 in raw byte order (bit-reversed time, as HBase-style row keys see it); not the default';

CREATE FUNCTION revts8_to_bytea(revts8) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION bytea_to_revts8(bytea) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_to_bigint(revts8) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION bigint_to_revts8(bigint) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (revts8 AS bytea) WITH FUNCTION revts8_to_bytea(revts8);
CREATE CAST (bytea AS revts8) WITH FUNCTION bytea_to_revts8(bytea);
CREATE CAST (revts8 AS bigint) WITH FUNCTION revts8_to_bigint(revts8);
CREATE CAST (bigint AS revts8) WITH FUNCTION bigint_to_revts8(bigint);
COMMENT ON FUNCTION revts8_to_bytea(revts8) IS 'the 8 bytes of a revts8';
COMMENT ON FUNCTION bytea_to_revts8(bytea) IS 'a revts8 from exactly 8 bytes with the reserved bits clear';
COMMENT ON FUNCTION revts8_to_bigint(revts8) IS 'the 8 bytes of a revts8 as a signed big-endian integer';
COMMENT ON FUNCTION bigint_to_revts8(bigint) IS 'a revts8 from the signed big-endian integer of its 8 bytes';

CREATE FUNCTION revts8_timestamp(revts8) RETURNS timestamptz
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_sequence(revts8) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_generator(revts8) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_cluster(revts8) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_from_parts("time" timestamptz, sequence integer, generator integer,
                                  "cluster" integer) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_boundary(timestamptz) RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION revts8_new() RETURNS revts8
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION revts8_timestamp(revts8) IS 'the time of a revts8 (its millisecond)';
COMMENT ON FUNCTION revts8_sequence(revts8) IS 'the sequence of a revts8 within its millisecond, 0..63';
COMMENT ON FUNCTION revts8_generator(revts8) IS 'the generator id of a revts8, 0..63';
COMMENT ON FUNCTION revts8_cluster(revts8) IS 'the cluster id of a revts8, 0..15';
COMMENT ON FUNCTION revts8_from_parts(timestamptz, integer, integer, integer) IS
'the revts8 of the given time (floored to the millisecond), sequence, generator and cluster';
COMMENT ON FUNCTION revts8_boundary(timestamptz) IS
'the smallest revts8 in time order whose time is at or after the argument: id >= revts8_boundary(a) AND id < revts8_boundary(b) selects IDs made in [a, b)';
COMMENT ON FUNCTION revts8_new() IS
'a new revts8 with generator uid.generator (0..63) and cluster uid.cluster; unique across all backends of the server, at most 64 per millisecond';
-- uid60: 60-bit IDs of abyss-club/uexky, shown as 10 random-looking characters

CREATE TYPE uid60;

CREATE FUNCTION uid60_in(cstring) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_out(uid60) RETURNS cstring
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_recv(internal) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_send(uid60) RETURNS bytea
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE uid60 (
    INPUT = uid60_in,
    OUTPUT = uid60_out,
    RECEIVE = uid60_recv,
    SEND = uid60_send,
    INTERNALLENGTH = 8,
    PASSEDBYVALUE,
    ALIGNMENT = double,
    STORAGE = plain
);
COMMENT ON TYPE uid60 IS
'uid60 ID (abyss-club/uexky): 60-bit integer of 32-bit seconds since 2018-03-01, worker, sequence and random bits; text is 10 base64url characters with the timestamp bit-reversed; sorts in time order';


CREATE FUNCTION uid60_eq(uid60, uid60) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_ne(uid60, uid60) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_lt(uid60, uid60) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_le(uid60, uid60) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_gt(uid60, uid60) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_ge(uid60, uid60) RETURNS boolean
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_cmp(uid60, uid60) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_smaller(uid60, uid60) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_larger(uid60, uid60) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_sortsupport(internal) RETURNS void
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_hash(uid60) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION uid60_hash_extended(uid60, bigint) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;

COMMENT ON FUNCTION uid60_eq(uid60, uid60) IS 'equal';
COMMENT ON FUNCTION uid60_ne(uid60, uid60) IS 'not equal';
COMMENT ON FUNCTION uid60_lt(uid60, uid60) IS 'less than (earlier)';
COMMENT ON FUNCTION uid60_le(uid60, uid60) IS 'less than or equal';
COMMENT ON FUNCTION uid60_gt(uid60, uid60) IS 'greater than (later)';
COMMENT ON FUNCTION uid60_ge(uid60, uid60) IS 'greater than or equal';
COMMENT ON FUNCTION uid60_cmp(uid60, uid60) IS 'btree comparison in time order: -1, 0 or 1';
COMMENT ON FUNCTION uid60_smaller(uid60, uid60) IS 'the smaller of two values (in time order)';
COMMENT ON FUNCTION uid60_larger(uid60, uid60) IS 'the larger of two values (in time order)';
COMMENT ON FUNCTION uid60_sortsupport(internal) IS 'btree sort support';
COMMENT ON FUNCTION uid60_hash(uid60) IS 'hash';
COMMENT ON FUNCTION uid60_hash_extended(uid60, bigint) IS 'hash with seed';

CREATE OPERATOR = (
    LEFTARG = uid60, RIGHTARG = uid60, PROCEDURE = uid60_eq,
    COMMUTATOR = =, NEGATOR = <>,
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR <> (
    LEFTARG = uid60, RIGHTARG = uid60, PROCEDURE = uid60_ne,
    COMMUTATOR = <>, NEGATOR = =,
    RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR < (
    LEFTARG = uid60, RIGHTARG = uid60, PROCEDURE = uid60_lt,
    COMMUTATOR = >, NEGATOR = >=,
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR <= (
    LEFTARG = uid60, RIGHTARG = uid60, PROCEDURE = uid60_le,
    COMMUTATOR = >=, NEGATOR = >,
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR > (
    LEFTARG = uid60, RIGHTARG = uid60, PROCEDURE = uid60_gt,
    COMMUTATOR = <, NEGATOR = <=,
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR >= (
    LEFTARG = uid60, RIGHTARG = uid60, PROCEDURE = uid60_ge,
    COMMUTATOR = <=, NEGATOR = <,
    RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS uid60_ops
DEFAULT FOR TYPE uid60 USING btree AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 uid60_cmp(uid60, uid60),
    FUNCTION 2 uid60_sortsupport(internal),
    FUNCTION 4 btequalimage(oid);
COMMENT ON OPERATOR CLASS uid60_ops USING btree IS 'uid60 in time order, the default';

CREATE OPERATOR CLASS uid60_hash_ops
DEFAULT FOR TYPE uid60 USING hash AS
    OPERATOR 1 =,
    FUNCTION 1 uid60_hash(uid60),
    FUNCTION 2 uid60_hash_extended(uid60, bigint);
COMMENT ON OPERATOR CLASS uid60_hash_ops USING hash IS 'uid60 hashing';

CREATE OPERATOR CLASS uid60_minmax_ops
DEFAULT FOR TYPE uid60 USING brin AS
    OPERATOR 1 <,
    OPERATOR 2 <=,
    OPERATOR 3 =,
    OPERATOR 4 >=,
    OPERATOR 5 >,
    FUNCTION 1 brin_minmax_opcinfo(internal),
    FUNCTION 2 brin_minmax_add_value(internal, internal, internal, internal),
    FUNCTION 3 brin_minmax_consistent(internal, internal, internal),
    FUNCTION 4 brin_minmax_union(internal, internal, internal);
COMMENT ON OPERATOR CLASS uid60_minmax_ops USING brin IS 'uid60 BRIN minmax, in time order';

CREATE AGGREGATE min(uid60) (
    SFUNC = uid60_smaller, STYPE = uid60, COMBINEFUNC = uid60_smaller,
    SORTOP = <, PARALLEL = SAFE
);
CREATE AGGREGATE max(uid60) (
    SFUNC = uid60_larger, STYPE = uid60, COMBINEFUNC = uid60_larger,
    SORTOP = >, PARALLEL = SAFE
);
COMMENT ON AGGREGATE min(uid60) IS 'the earliest uid60 (smallest in the default btree order)';
COMMENT ON AGGREGATE max(uid60) IS 'the latest uid60 (largest in the default btree order)';

-- after the shared comparisons, so that these descriptions are the ones that stay
COMMENT ON FUNCTION uid60_in(cstring) IS 'uid60 input from its 10 characters of A-Z, a-z, 0-9, - and _ (case-sensitive)';
COMMENT ON FUNCTION uid60_out(uid60) IS 'uid60 output as its 10 characters';
COMMENT ON FUNCTION uid60_recv(internal) IS 'uid60 binary input: a big-endian 64-bit integer, 0 to 2^60 - 1';
COMMENT ON FUNCTION uid60_send(uid60) IS 'uid60 binary output: its integer as a big-endian 64-bit integer';

CREATE FUNCTION uid60_to_bigint(uid60) RETURNS bigint
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT LEAKPROOF PARALLEL SAFE;
CREATE FUNCTION bigint_to_uid60(bigint) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (uid60 AS bigint) WITH FUNCTION uid60_to_bigint(uid60);
CREATE CAST (bigint AS uid60) WITH FUNCTION bigint_to_uid60(bigint);
COMMENT ON FUNCTION uid60_to_bigint(uid60) IS 'the integer value of a uid60 (the original''s storage form)';
COMMENT ON FUNCTION bigint_to_uid60(bigint) IS 'a uid60 from an integer 0 to 2^60 - 1';

CREATE FUNCTION uid60_timestamp(uid60) RETURNS timestamptz
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_worker(uid60) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_sequence(uid60) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_random(uid60) RETURNS integer
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_from_parts("time" timestamptz, worker integer, sequence integer,
                                 random integer) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_boundary(timestamptz) RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uid60_new() RETURNS uid60
AS 'MODULE_PATHNAME' LANGUAGE C VOLATILE PARALLEL SAFE;

COMMENT ON FUNCTION uid60_timestamp(uid60) IS 'the time of a uid60 (its second)';
COMMENT ON FUNCTION uid60_worker(uid60) IS 'the worker id of a uid60, 0..511';
COMMENT ON FUNCTION uid60_sequence(uid60) IS 'the sequence of a uid60, 0..1023 (not reset each second)';
COMMENT ON FUNCTION uid60_random(uid60) IS 'the 9 random bits of a uid60, 0..511';
COMMENT ON FUNCTION uid60_from_parts(timestamptz, integer, integer, integer) IS
'the uid60 of the given time (floored to the second), worker, sequence and random bits';
COMMENT ON FUNCTION uid60_boundary(timestamptz) IS
'the smallest uid60 whose time is at or after the argument: id >= uid60_boundary(a) AND id < uid60_boundary(b) selects IDs made in [a, b)';
COMMENT ON FUNCTION uid60_new() IS
'a new uid60 with worker uid.generator; unique across all backends of the server, at most 1024 per second (it waits for the next second when they are used up)';
-- uid: partitions by time (see the README, section "Partitioning by time")
--
-- A table whose key is one of the ID types can be range-partitioned by the
-- key itself: the bounds of a partition are the IDs T_boundary(a) and
-- T_boundary(b), and the partition then holds exactly the IDs made in
-- [a, b).  uid_create_partitions() writes those partitions for whole days,
-- weeks, months or years in UTC.
--
-- Bounds are values.  CREATE TABLE ... PARTITION OF evaluates a bound
-- expression once, and the catalog (and pg_dump) keeps the ID it gave.  For
-- snowflake_si that ID depends on uid.snowflake_si_epoch at the time the
-- partition was made: partitions made under one base clock do not fit IDs
-- made under another (the README says never to change it once IDs exist).
--
-- The function runs with the caller's privileges (SECURITY INVOKER):
-- creating a partition needs ownership of the parent and CREATE on its
-- schema, as CREATE TABLE ... PARTITION OF does.  The search_path is pinned
-- and the boundary functions are called through the extension's current
-- schema, so neither the caller's search_path nor ALTER EXTENSION ... SET
-- SCHEMA changes what it does.

CREATE FUNCTION uid_create_partitions(parent regclass, count integer DEFAULT 3,
                                      start timestamptz DEFAULT now(),
                                      width interval DEFAULT '1 month')
RETURNS TABLE (partition regclass, from_time timestamptz, to_time timestamptz)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp name;               -- the extension's schema
    nsp_oid oid;
    rel_nsp name;           -- the parent's schema and name
    rel_name name;
    rel_kind "char";
    rel_owner oid;
    strategy "char";
    key_count integer;
    key_att smallint;
    key_class oid;
    key_name name;
    key_type oid;
    typ name;               -- the key's ID type
    opclass_default boolean;
    months numeric;         -- the width's fields
    days numeric;
    secs numeric;
    unit text;              -- day, week, month or year
    name_format text;       -- to_char() format of a partition's suffix
    first_start timestamp;  -- periods are computed in UTC, without time zone
    lo timestamp;
    hi timestamp;
    lo_id text;             -- the bounds, in the key type's text form
    hi_id text;
    bound text;             -- as pg_get_expr() shows a partition's bound
    suffix text;
    base text;
    pname text;
    max_len integer := current_setting('max_identifier_length')::integer;
    taken regclass;
    taken_bound text;
    msg text;
BEGIN
    IF parent IS NULL OR count IS NULL OR start IS NULL OR width IS NULL THEN
        RAISE EXCEPTION 'uid_create_partitions: parent, count, start and width must not be null'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF count < 1 THEN
        RAISE EXCEPTION 'count must be at least 1, not %', count
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    -- The width, field by field: interval comparison would take '1 month'
    -- for '30 days' and '1 day' for '24 hours'.
    months := extract(year FROM width) * 12 + extract(month FROM width);
    days := extract(day FROM width);
    secs := extract(hour FROM width) * 3600 + extract(minute FROM width) * 60
            + extract(second FROM width);
    IF months = 0 AND days = 1 AND secs = 0 THEN
        unit := 'day';   name_format := 'YYYYMMDD';
    ELSIF months = 0 AND days = 7 AND secs = 0 THEN
        unit := 'week';  name_format := 'IYYY"w"IW';
    ELSIF months = 1 AND days = 0 AND secs = 0 THEN
        unit := 'month'; name_format := 'YYYYMM';
    ELSIF months = 12 AND days = 0 AND secs = 0 THEN
        unit := 'year';  name_format := 'YYYY';
    ELSE
        RAISE EXCEPTION 'invalid partition width: %', width
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The width is 1 day, 1 week, 1 month or 1 year.';
    END IF;

    SELECT ns.nspname, ns.oid INTO STRICT nsp, nsp_oid
    FROM pg_catalog.pg_extension ext JOIN pg_catalog.pg_namespace ns ON ns.oid = ext.extnamespace
    WHERE ext.extname = 'uid';

    SELECT n.nspname, c.relname, c.relkind, c.relowner INTO STRICT rel_nsp, rel_name, rel_kind, rel_owner
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.oid = parent;
    IF rel_kind <> 'p' THEN
        RAISE EXCEPTION '"%" is not a partitioned table', parent
            USING ERRCODE = 'wrong_object_type';
    END IF;
    -- what CREATE TABLE ... PARTITION OF would say, before the lock below
    -- (which a role without privileges on the table cannot take)
    IF NOT pg_has_role(rel_owner, 'USAGE') THEN
        RAISE EXCEPTION 'must be owner of table %', rel_name
            USING ERRCODE = 'insufficient_privilege';
    END IF;

    -- The key: one column, range partitioning, the type's default btree
    -- operator class (time order; revts8_bytes_ops orders by the reversed
    -- bytes, in which a period of time is no range).
    SELECT pt.partstrat, pt.partnatts, pt.partattrs[0], pt.partclass[0]
    INTO STRICT strategy, key_count, key_att, key_class
    FROM pg_partitioned_table pt WHERE pt.partrelid = parent;
    IF strategy <> 'r' THEN
        RAISE EXCEPTION '"%" is partitioned by %, not by RANGE', parent,
                CASE strategy WHEN 'l' THEN 'LIST' WHEN 'h' THEN 'HASH' ELSE strategy::text END
            USING ERRCODE = 'wrong_object_type';
    END IF;
    IF key_count <> 1 OR key_att = 0 THEN
        RAISE EXCEPTION 'the partition key of "%" is not a single column', parent
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = format('The key is %s.', pg_get_partkeydef(parent)),
                  HINT = 'uid_create_partitions() makes partitions of a table partitioned by RANGE on one column of an ID type.';
    END IF;
    SELECT a.attname, a.atttypid INTO STRICT key_name, key_type
    FROM pg_attribute a WHERE a.attrelid = parent AND a.attnum = key_att;
    SELECT t.typname INTO typ
    FROM pg_type t
    WHERE t.oid = key_type AND t.typnamespace = nsp_oid
      AND t.typname IN ('sno', 'muid', 'snowflake_si', 'revts8', 'uid60');
    IF typ IS NULL THEN
        RAISE EXCEPTION 'the partition key "%" of "%" is of type %, not an ID type of uid', key_name, parent,
                format_type(key_type, NULL)
            USING ERRCODE = 'datatype_mismatch',
                  HINT = 'The ID types are sno, muid, snowflake_si, revts8 and uid60.';
    END IF;
    SELECT o.opcdefault INTO STRICT opclass_default FROM pg_opclass o WHERE o.oid = key_class;
    IF NOT opclass_default THEN
        RAISE EXCEPTION 'the partition key of "%" uses operator class %, not the time order of %', parent,
                (SELECT o.opcname FROM pg_opclass o WHERE o.oid = key_class), typ
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'Partitions by time need the default btree operator class of the type.';
    END IF;

    -- Concurrent calls for one parent run one after the other, and each
    -- sees what the one before it made (a new snapshot per statement, in
    -- READ COMMITTED).  The lock lets reads and writes of the table through;
    -- CREATE TABLE ... PARTITION OF takes ACCESS EXCLUSIVE on the parent for
    -- the rest of the transaction.
    EXECUTE format('LOCK TABLE ONLY %I.%I IN SHARE UPDATE EXCLUSIVE MODE', rel_nsp, rel_name);

    first_start := date_trunc(unit, start AT TIME ZONE 'UTC');
    FOR i IN 0 .. count - 1 LOOP
        -- Without time zone, so that the session's TimeZone plays no part.
        lo := first_start + i * width;
        hi := first_start + (i + 1) * width;
        EXECUTE format('SELECT %1$I.%2$I($1)::text, %1$I.%2$I($2)::text', nsp, typ || '_boundary')
            INTO lo_id, hi_id USING lo AT TIME ZONE 'UTC', hi AT TIME ZONE 'UTC';
        IF lo_id = hi_id THEN
            RAISE EXCEPTION 'no % is made from % to % UTC', typ, to_char(lo, 'YYYY-MM-DD'), to_char(hi, 'YYYY-MM-DD')
                USING ERRCODE = 'datetime_field_overflow',
                      DETAIL = format('Every %s of that %s would be outside the type''s time range.', typ, unit);
        END IF;

        -- A partition with exactly these bounds covers the period, whatever
        -- its name.
        bound := format('FOR VALUES FROM (%L) TO (%L)', lo_id, hi_id);
        IF EXISTS (SELECT FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                   WHERE i.inhparent = parent AND pg_get_expr(c.relpartbound, c.oid) = bound) THEN
            CONTINUE;
        END IF;

        -- parent_pYYYYMM, in the parent's schema; the parent's name is cut
        -- (never the suffix) to fit an identifier.
        suffix := '_p' || to_char(lo, name_format);
        base := rel_name;
        WHILE octet_length(base || suffix) > max_len LOOP
            base := left(base, -1);
        END LOOP;
        pname := base || suffix;

        SELECT c.oid::regclass, pg_get_expr(c.relpartbound, c.oid) INTO taken, taken_bound
        FROM pg_class c WHERE c.relnamespace = (SELECT n.oid FROM pg_namespace n WHERE n.nspname = rel_nsp)
          AND c.relname = pname;
        IF taken IS NOT NULL THEN
            RAISE EXCEPTION 'relation "%" already exists and is not the partition of "%" from % to % UTC',
                    taken, parent, to_char(lo, 'YYYY-MM-DD'), to_char(hi, 'YYYY-MM-DD')
                USING ERRCODE = 'duplicate_table',
                      DETAIL = CASE WHEN taken_bound IS NULL
                                    THEN format('The partition would have %s.', bound)
                                    ELSE format('It has %s; the partition would have %s.', taken_bound, bound) END;
        END IF;

        BEGIN
            EXECUTE format('CREATE TABLE %I.%I PARTITION OF %I.%I FOR VALUES FROM (%L) TO (%L)',
                           rel_nsp, pname, rel_nsp, rel_name, lo_id, hi_id);
        EXCEPTION WHEN invalid_object_definition THEN
            -- "would overlap partition ...": a partition that is not this
            -- period's covers part of it.
            GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT;
            RAISE EXCEPTION '%', msg
                USING ERRCODE = 'invalid_object_definition',
                      DETAIL = format('The partition "%s" of the %s from %s to %s UTC would have %s.',
                                      pname, unit, to_char(lo, 'YYYY-MM-DD'), to_char(hi, 'YYYY-MM-DD'), bound),
                      HINT = 'Another partition covers part of that period: detach it or create that period''s partition by hand.';
        END;

        partition := format('%I.%I', rel_nsp, pname)::regclass;
        from_time := lo AT TIME ZONE 'UTC';
        to_time := hi AT TIME ZONE 'UTC';
        RETURN NEXT;
    END LOOP;
END
$$;
COMMENT ON FUNCTION uid_create_partitions(regclass, integer, timestamptz, interval) IS
'creates the partitions of a table range-partitioned on an ID column for count whole days, weeks, months or years (width) in UTC from the one containing start, named parent_pYYYYMMDD, parent_pIYYYwIW, parent_pYYYYMM or parent_pYYYY; skips periods that have their partition; returns the partitions it created';
