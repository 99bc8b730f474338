-- uid: the lease pool's functions (see pool.sql for the pool itself)
--
-- Replayed by the update from the last release (CREATE OR REPLACE), so
-- this file holds functions and their comments and privileges alone.
--
-- The functions call each other through the extension's schema, and pass
-- first true::uid_internal_call, each other argument of the callee's exact
-- type: no overload a role creates in that schema can take such a call
-- over or make it ambiguous (see internal.sql).  uid_pool_prepare() is
-- called so alone; uid_pool_grace(), which users call too, has a twin that
-- takes the domain.

CREATE FUNCTION uid_pool_grace() RETURNS interval
AS 'MODULE_PATHNAME', 'uid_pool_grace'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid_pool_grace() IS
'a coordinator''s grace period, the server setting uid.pool_grace: an expired or released lease is handed out again only this long after it ended';

-- The same, for the pool's functions (the C function reads no argument).
CREATE FUNCTION uid_pool_grace(call uid_internal_call) RETURNS interval
AS 'MODULE_PATHNAME', 'uid_pool_grace'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid_pool_grace(uid_internal_call) IS
'internal: uid_pool_grace(), as the pool''s functions call it';

-- The rules for the coordinator's own failures (src/core/pool.h, which the
-- simulator models; src/pool.c): uid_pool_prepare(), uid_pool_claim() and
-- uid_pool_renew() decide by them.  A hold is a timestamptz, -infinity for
-- none.
CREATE FUNCTION uid_pool_rule_commit(call uid_internal_call) RETURNS void
AS 'MODULE_PATHNAME', 'uid_pool_rule_commit'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION uid_pool_rule_commit(uid_internal_call) IS
'internal: the transaction of a claim or renewal commits durably (synchronous_commit off or local raised to on until it ends)';
CREATE FUNCTION uid_pool_rule_went_back(call uid_internal_call, written_in text,
                                        written_timeline bigint, written_synced boolean)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_pool_rule_went_back'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION uid_pool_rule_went_back(uid_internal_call, text, bigint, boolean) IS
'internal: has a pool last written where the arguments say (nulls: never) gone back in time?';
CREATE FUNCTION uid_pool_rule_hold_end(call uid_internal_call, t timestamptz, max_ttl interval,
                                       ttl interval, grace interval, hold_until timestamptz)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uid_pool_rule_hold_end'
LANGUAGE C IMMUTABLE STRICT;
COMMENT ON FUNCTION uid_pool_rule_hold_end(uid_internal_call, timestamptz, interval, interval, interval, timestamptz) IS
'internal: when a hold found at t ends';
CREATE FUNCTION uid_pool_rule_token_floor(call uid_internal_call, claims bigint, t timestamptz)
RETURNS bigint
AS 'MODULE_PATHNAME', 'uid_pool_rule_token_floor'
LANGUAGE C IMMUTABLE STRICT;
COMMENT ON FUNCTION uid_pool_rule_token_floor(uid_internal_call, bigint, timestamptz) IS
'internal: the claims'' count once a hold begins at t';
CREATE FUNCTION uid_pool_rule_hands_out(call uid_internal_call, t timestamptz, hold_until timestamptz)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_pool_rule_hands_out'
LANGUAGE C IMMUTABLE STRICT;
COMMENT ON FUNCTION uid_pool_rule_hands_out(uid_internal_call, timestamptz, timestamptz) IS
'internal: does a claim hand out an id at t?';
CREATE FUNCTION uid_pool_rule_renews(call uid_internal_call, t timestamptz, expires_at timestamptz,
                                     hold_until timestamptz)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_pool_rule_renews'
LANGUAGE C IMMUTABLE STRICT;
COMMENT ON FUNCTION uid_pool_rule_renews(uid_internal_call, timestamptz, timestamptz, timestamptz) IS
'internal: is a lease the pool''s rows hold renewed at t?';
CREATE FUNCTION uid_pool_rule_reclaims(call uid_internal_call, same_key boolean, released boolean,
                                       expires_at timestamptz, t timestamptz)
RETURNS boolean
AS 'MODULE_PATHNAME', 'uid_pool_rule_reclaims'
LANGUAGE C IMMUTABLE STRICT;
COMMENT ON FUNCTION uid_pool_rule_reclaims(uid_internal_call, boolean, boolean, timestamptz, timestamptz) IS
'internal: does a claim take back this lease (the claimant''s own, live)?';
REVOKE EXECUTE ON FUNCTION uid_pool_rule_commit(uid_internal_call),
                           uid_pool_rule_reclaims(uid_internal_call, boolean, boolean, timestamptz, timestamptz),
                           uid_pool_rule_went_back(uid_internal_call, text, bigint, boolean),
                           uid_pool_rule_hold_end(uid_internal_call, timestamptz, interval, interval, interval, timestamptz),
                           uid_pool_rule_token_floor(uid_internal_call, bigint, timestamptz),
                           uid_pool_rule_hands_out(uid_internal_call, timestamptz, timestamptz),
                           uid_pool_rule_renews(uid_internal_call, timestamptz, timestamptz, timestamptz)
FROM PUBLIC;

-- What uid_pool_claim(), uid_pool_renew() and uid_pool_release() do first,
-- once each has refused its null arguments: check their other arguments,
-- lock the pool's row, and read the clock once (t, which all their
-- decisions use).  Each passes the arguments it has, by name; the others
-- stay null and are not checked.  A claim (size given) creates a missing
-- pool with its size and refuses a pool of another size; for a renewal or
-- a release, pool_size is null when there is no such pool.  Internal: they
-- call it through the extension's current schema, as they reach its tables.
--
-- A claim or a renewal (ttl given) is a promise a holder acts on at once,
-- so it must outlive every failure of the coordinator:
--  - Durable whatever the session or the server says: with fsync off an
--    operating-system crash may lose it, so it is refused; with
--    synchronous_commit off or local, the transaction's commit is made to
--    wait for the WAL flush (and any synchronous standby) all the same
--    (SET LOCAL: it lasts until the caller's transaction ends).
--  - Never handed out twice by a pool that went back in time.  The guard
--    (uid_pool_guard, pool_guard.sql) records where the install and then
--    every claim and renewal of any pool was written (uid_pool_place()) and
--    whether a synchronous standby waited for it.  Found written in another
--    cluster or database (a dump restored, a copy, pg_upgrade), or on an
--    earlier timeline without a synchronous standby (a failover to an
--    asynchronous standby, a point-in-time restore), the pools may have
--    lost claims and renewals their holders act on: they go on hold, for
--    the longest time to live given plus the grace period.  Until then no
--    claim hands out an id, and only leases that are held in the rows and
--    still run are renewed; every pool's count of claims jumps to the
--    clock's microseconds, and so does where a pool made later starts its
--    count (the guard's token_floor: the lost history may have made it),
--    so no later token repeats one the lost history gave.  Every lease the
--    lost history gave has ended when the hold does.
--    uid_pool_resume() ends a hold that an administrator knows is needless.
--    The rules are core/pool.h's (src/pool.c), which the simulator models.
CREATE FUNCTION uid_pool_prepare(call uid_internal_call,
                                 pool text, size integer DEFAULT NULL, holder text DEFAULT NULL,
                                 id integer DEFAULT NULL, ttl interval DEFAULT NULL,
                                 OUT pool_size integer, OUT t timestamptz, OUT hold_until timestamptz,
                                 OUT hold_why text, OUT moved boolean)
RETURNS record
LANGUAGE plpgsql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp name;               -- the extension's schema
    g record;               -- a row of the guard
    keep tid;               -- the one it keeps
    back boolean;
    floor_tokens bigint;    -- where a pool made now starts its count of claims
    max_ttl interval;
    why text;
    here text;
    timeline bigint;
    grace interval;
    sub name;               -- a subscription that writes into the pool's tables
    subrel text;
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
    IF ttl IS NOT NULL AND current_setting('fsync') = 'off' THEN
        RAISE EXCEPTION 'this coordinator has "fsync" off: a claim or renewal could be lost'
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = 'A crash of its operating system could lose a lease that a holder already uses, and the id would be handed out again.',
                  HINT = 'Set "fsync" on on the coordinator; see "What the coordinator needs" in doc/several-servers.md.';
    END IF;

    SELECT ns.nspname INTO STRICT nsp
    FROM pg_catalog.pg_extension ext JOIN pg_catalog.pg_namespace ns ON ns.oid = ext.extnamespace
    WHERE ext.extname = 'uid';

    -- A pool has one writer: this coordinator.  Where a subscription writes
    -- another server's rows into its tables (two coordinators replicating
    -- both ways), each copy would hand out the same ids: a claim or renewal
    -- is refused, before anything is read.
    IF ttl IS NOT NULL THEN
        SELECT s.subname, r.srrelid::regclass::text INTO sub, subrel
        FROM pg_catalog.pg_subscription_rel r
        JOIN pg_catalog.pg_subscription s ON s.oid = r.srsubid
        JOIN pg_catalog.pg_class c ON c.oid = r.srrelid
        WHERE c.relnamespace = (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname = nsp)
          AND c.relname IN ('uid_pool', 'uid_pool_lease', 'uid_pool_guard')
        ORDER BY s.subname, c.relname
        LIMIT 1;
        IF sub IS NOT NULL THEN
            RAISE EXCEPTION 'this coordinator''s pools take rows from another server: subscription "%" writes into %', sub, subrel
                USING ERRCODE = 'object_not_in_prerequisite_state',
                      DETAIL = 'A pool hands out each id once only where one coordinator writes it; two copies that each take claims hand out the same ids.',
                      HINT = 'Leave uid''s pool tables out of the publications of other servers and refresh the subscription, and point every server''s "uid.coordinator" at one coordinator; see "The lease pool" in doc/multi-master.md.';
        END IF;
    END IF;

    -- A claim or renewal locks the guard first (uid_pool_guard: where the
    -- pools were last written), before its pool's row, as every other one
    -- does, and reads it: the longest TTL given, the hold, and whether a row
    -- says the pools went back in time (core/pool.h's rule; after a restore
    -- the dump's row stands beside the one of its CREATE EXTENSION).
    moved := false;
    IF ttl IS NOT NULL THEN
        EXECUTE format('SELECT p.place, p.timeline FROM %1$I.uid_pool_place(true::%1$I.uid_internal_call) p', nsp)
            INTO here, timeline;
        max_ttl := interval '0';
        floor_tokens := 0;
        FOR g IN EXECUTE format('SELECT g.ctid AS row_id, g.* FROM %I.uid_pool_guard g FOR UPDATE', nsp) LOOP
            keep := coalesce(keep, g.row_id);
            max_ttl := greatest(max_ttl, g.max_ttl);
            floor_tokens := greatest(floor_tokens, g.token_floor);
            IF g.hold_until > hold_until OR hold_until IS NULL THEN
                hold_until := g.hold_until;
                hold_why := g.hold_why;
            END IF;
            EXECUTE format('SELECT %1$I.uid_pool_rule_went_back(true::%1$I.uid_internal_call, $1, $2, $3)', nsp)
                INTO back USING g.written_in, g.written_timeline, g.written_synced;
            IF back AND NOT moved THEN
                moved := true;
                why := CASE
                    WHEN g.written_in <> here THEN
                        format('The pools were last written in %s, timeline %s; this is %s, timeline %s.',
                               g.written_in, g.written_timeline, here, timeline)
                    ELSE
                        format('The pools were last written on timeline %s without waiting for a synchronous standby; this is timeline %s.',
                               g.written_timeline, timeline)
                    END;
            END IF;
        END LOOP;
    END IF;

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
        EXECUTE format('INSERT INTO %I.uid_pool (pool, size, claims) VALUES ($1, $2, $3) ON CONFLICT (pool) DO NOTHING', nsp)
            USING pool, size, floor_tokens;
    END LOOP;
    IF pool_size <> size THEN
        RAISE EXCEPTION 'pool "%" has size %, not %', pool, pool_size, size
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'A pool''s size is fixed by the claim that created it; every claimant must give that size.';
    END IF;

    t := clock_timestamp();

    IF ttl IS NOT NULL AND pool_size IS NOT NULL THEN
        EXECUTE format('SELECT %1$I.uid_pool_rule_commit(true::%1$I.uid_internal_call)', nsp);
        IF moved THEN
            EXECUTE format('SELECT %1$I.uid_pool_grace(true::%1$I.uid_internal_call)', nsp) INTO grace;
            EXECUTE format('SELECT %1$I.uid_pool_rule_hold_end(true::%1$I.uid_internal_call, $1, $2, $3, $4, $5)', nsp)
                INTO hold_until USING t, max_ttl, ttl, grace, coalesce(hold_until, '-infinity');
            hold_why := why;
            RAISE WARNING 'this coordinator''s pools went back in time: none hands out an id until %', hold_until
                USING DETAIL = hold_why,
                      HINT = 'Holders of the leases in their rows go on renewing them.  See "When the coordinator goes back in time" in doc/several-servers.md.';
            -- every pool's tokens, and those of a pool made later (which the
            -- lost history may have made and claimed from), past those the
            -- lost history may have given
            EXECUTE format('SELECT %1$I.uid_pool_rule_token_floor(true::%1$I.uid_internal_call, $1, $2)', nsp)
                INTO floor_tokens USING floor_tokens, t;
            EXECUTE format($q$
                UPDATE %1$I.uid_pool p
                SET claims = %1$I.uid_pool_rule_token_floor(true::%1$I.uid_internal_call, p.claims, $1)$q$, nsp)
                USING t;
        END IF;
        -- Where this claim or renewal was written: the guard's one row,
        -- updated in place (the next writer's lock waits for it, then
        -- follows it), any other deleted.
        IF keep IS NULL THEN
            EXECUTE format($q$
                INSERT INTO %I.uid_pool_guard (written_in, written_timeline, written_synced)
                VALUES ('', 0, false) RETURNING ctid$q$, nsp)
                INTO keep;
        END IF;
        EXECUTE format('DELETE FROM %I.uid_pool_guard g WHERE g.ctid <> $1', nsp) USING keep;
        EXECUTE format($q$
            UPDATE %I.uid_pool_guard g
            SET written_in = $2, written_timeline = $3,
                written_synced = current_setting('synchronous_standby_names') <> '',
                max_ttl = greatest($4, $5), hold_until = $6, hold_why = $7, token_floor = $8
            WHERE g.ctid = $1$q$, nsp)
            USING keep, here, timeline, max_ttl, ttl, hold_until, hold_why, floor_tokens;
    END IF;
END
$$;
COMMENT ON FUNCTION uid_pool_prepare(uid_internal_call, text, integer, text, integer, interval) IS
'internal: checks the arguments of uid_pool_claim(), uid_pool_renew() or uid_pool_release(), locks the pool''s row (a claim creates it), reads the clock, and for a claim or renewal locks the guard first, makes its commit durable and puts pools found written elsewhere on hold; returns the pool''s size (null if there is no pool), the time, the hold, and whether this call found the pools moved';
-- Only the pool's functions call it, as the extension's owner: it is not for
-- GRANTs.
REVOKE EXECUTE ON FUNCTION uid_pool_prepare(uid_internal_call, text, integer, text, integer, interval) FROM PUBLIC;

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
    why text;               -- the detail of an exhausted pool
    n bigint;
    hold_until timestamptz; -- the pool went back in time: nothing handed out before
    hold_why text;
    moved boolean;          -- this claim found it so
    key_tag text;           -- a uid server's key, from holder
    hands_out boolean;
BEGIN
    IF pool IS NULL OR size IS NULL OR holder IS NULL OR ttl IS NULL THEN
        RAISE EXCEPTION 'uid_pool_claim: pool, size, holder and ttl must not be null'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;

    SELECT ns.nspname INTO STRICT nsp
    FROM pg_catalog.pg_extension ext JOIN pg_catalog.pg_namespace ns ON ns.oid = ext.extnamespace
    WHERE ext.extname = 'uid';

    -- the checks, the pool's row (created by the first claim) locked, the clock
    EXECUTE format('SELECT * FROM %1$I.uid_pool_prepare(call => true::%1$I.uid_internal_call, '
                   'pool => $1, size => $2, holder => $3, ttl => $4)', nsp)
        INTO pool_size, t, hold_until, hold_why, moved USING pool, size, holder, ttl;
    EXECUTE format('SELECT %1$I.uid_pool_grace(true::%1$I.uid_internal_call)', nsp) INTO grace;

    -- A pool that went back in time hands out nothing until its hold ends
    -- (see uid_pool_prepare()).  The claim that found it so returns no row,
    -- so that its transaction commits the hold; the claims after it are
    -- refused.
    IF moved THEN
        RETURN;
    END IF;
    EXECUTE format('SELECT %1$I.uid_pool_rule_hands_out(true::%1$I.uid_internal_call, $1, $2)', nsp)
        INTO hands_out USING t, coalesce(hold_until, '-infinity');
    IF NOT hands_out THEN
        RAISE EXCEPTION 'pool "%" hands out no id until %', pool, hold_until
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  DETAIL = coalesce(hold_why, 'They were put on hold by hand (uid_pool_guard.hold_until).') || ' It may have lost claims and renewals whose holders still use their ids.',
                  HINT = 'Holders of the leases in its rows go on renewing them; see "When the coordinator goes back in time" in doc/several-servers.md.';
    END IF;

    -- A uid server names itself with its lease's key at the end of holder
    -- (" key" and 16 hex digits).  A live lease of that key is one of its
    -- own claims that it gave up waiting for (uid.coordinator_timeout) and
    -- that committed later: it is handed back, with a new token, rather
    -- than left to hold a second id until it expires.
    key_tag := substring(holder FROM ' key [0-9a-f]{16}$');
    IF key_tag IS NOT NULL THEN
        EXECUTE format($q$
            SELECT min(l.id) FROM %1$I.uid_pool_lease l
            WHERE l.pool = $1 AND l.id < $2
              AND %1$I.uid_pool_rule_reclaims(true::%1$I.uid_internal_call,
                      coalesce(substring(l.holder FROM ' key [0-9a-f]{16}$') = $4, false),
                      l.released_at IS NOT NULL, l.expires_at, $3)$q$, nsp)
            INTO free_id USING pool, pool_size, t, key_tag;
    END IF;
    IF free_id IS NOT NULL THEN
        EXECUTE format('UPDATE %I.uid_pool p SET claims = p.claims + 1 WHERE p.pool = $1 RETURNING p.claims', nsp)
            INTO claim_token USING pool;
        EXECUTE format($q$
            UPDATE %I.uid_pool_lease l
            SET holder = $3, token = $4, claimed_at = $5, renewed_at = $5, expires_at = $5 + $6
            WHERE l.pool = $1 AND l.id = $2$q$, nsp)
            USING pool, free_id, holder, claim_token, t, ttl;
        id := free_id;
        token := claim_token;
        expires_at := t + ttl;
        RETURN NEXT;
        RETURN;
    END IF;

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
        -- One message a wording: a pool of one id and a larger pool are
        -- told apart by two whole sentences, not by a spliced phrase.
        why := CASE
            WHEN next_released THEN
                format('The first id to become reusable is %s (released), at %s.', next_id, next_at)
            ELSE
                format('The first id to become reusable is %s, at %s, unless its holder renews its lease first.',
                       next_id, next_at)
            END;
        IF pool_size = 1 THEN
            RAISE EXCEPTION 'pool "%" is exhausted: its one id is leased', pool
                USING ERRCODE = 'configuration_limit_exceeded', DETAIL = why,
                      HINT = 'An id becomes reusable uid.pool_grace after its lease expires or is released; holders that stop should release theirs with uid_pool_release().';
        END IF;
        RAISE EXCEPTION 'pool "%" is exhausted: all % ids are leased', pool, pool_size
            USING ERRCODE = 'configuration_limit_exceeded', DETAIL = why,
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
    hold_until timestamptz;
    hold_why text;
    moved boolean;
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
    EXECUTE format('SELECT * FROM %1$I.uid_pool_prepare(call => true::%1$I.uid_internal_call, '
                   'pool => $1, id => $2, ttl => $3)', nsp)
        INTO pool_size, t, hold_until, hold_why, moved USING pool, id, ttl;

    -- A lease that expired but that nobody claimed since still has this
    -- token: it is renewed, even after its grace period.  Not while the
    -- pool is on hold (see uid_pool_prepare()): then only a lease its rows
    -- hold now is renewed, for the history it lost may have handed the id
    -- of an expired one to another holder.
    EXECUTE format($q$
        UPDATE %1$I.uid_pool_lease l SET renewed_at = $4, expires_at = $4 + $5
        WHERE l.pool = $1 AND l.id = $2 AND l.token = $3 AND l.released_at IS NULL
          AND %1$I.uid_pool_rule_renews(true::%1$I.uid_internal_call, $4, l.expires_at, $6)
        RETURNING l.expires_at$q$, nsp)
        INTO new_expiry USING pool, id, token, t, ttl, coalesce(hold_until, '-infinity');
    IF new_expiry IS NOT NULL THEN
        RETURN new_expiry;
    END IF;

    -- On hold, a lease its rows do not hold may be one the lost history
    -- gave: its holder may use it until it ends, and no claim takes its id
    -- before the hold ends.  The renewal that found the pool moved returns
    -- null, so that its transaction commits the hold.
    IF moved THEN
        RETURN NULL;
    END IF;
    IF hold_until > t THEN  -- not uid_pool_rule_hands_out(): the hold is what the message names
        RAISE EXCEPTION 'lease % of pool "%" cannot be renewed until %', id, pool, hold_until
            USING ERRCODE = 'lock_not_available',
                  DETAIL = coalesce(hold_why, 'They were put on hold by hand (uid_pool_guard.hold_until).') || ' It may have lost this lease''s claim or renewals: its holder may use the id until the lease ends, and no claim takes the id before then.',
                  HINT = 'Renew it again once the hold has ended; see "When the coordinator goes back in time" in doc/several-servers.md.';
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
    EXECUTE format('SELECT p.t FROM %1$I.uid_pool_prepare(call => true::%1$I.uid_internal_call, '
                   'pool => $1, id => $2) p', nsp)
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

-- Ends the hold of pools that went back in time (see uid_pool_prepare()),
-- for an administrator who knows the coordinator lost no claim or renewal
-- (a failover to a standby that was synchronous although the pools could
-- not tell, pg_upgrade).  True if they were on hold.
-- In SQL, parsed at creation (BEGIN ATOMIC): it names the guard by OID,
-- as uid_pool_leases() names its table.
CREATE FUNCTION uid_pool_resume()
RETURNS boolean
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    WITH resumed AS (
        UPDATE uid_pool_guard g SET hold_until = NULL
        WHERE g.hold_until > clock_timestamp()
        RETURNING 1)
    SELECT count(*) > 0 FROM resumed;
END;
COMMENT ON FUNCTION uid_pool_resume() IS
'ends the hold of pools found written elsewhere before, for when the coordinator is known to have lost no claim or renewal; true if they were on hold';
REVOKE EXECUTE ON FUNCTION uid_pool_resume() FROM PUBLIC;

-- In SQL, not PL/pgSQL: its argument and its first result column are both
-- named pool, which PL/pgSQL refuses.  The body is parsed when the function
-- is created (BEGIN ATOMIC) and names the table and uid_pool_grace() by
-- their OIDs, so neither search_path nor a relocation of the extension
-- changes what it reads; it calls the twin of uid_pool_grace(), so that no
-- overload there when it is created (an update) is taken instead.
CREATE FUNCTION uid_pool_leases(pool text DEFAULT NULL)
RETURNS TABLE (pool text, id integer, holder text, token bigint,
               claimed_at timestamptz, renewed_at timestamptz, expires_at timestamptz,
               released_at timestamptz, state text, reusable_at timestamptz)
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    -- the states by the rules of uid_pool_claim(), at one clock reading
    -- ($1 is the argument: a bare "pool" would be the column)
    WITH now_ AS MATERIALIZED (SELECT clock_timestamp() AS t, uid_pool_grace(true::uid_internal_call) AS grace)
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

-- Every pool hands out the same ids (id n of one is id n of another): the
-- ids that more than one pool of this coordinator leases now (held, or in
-- their grace), with the pools and holders.  Servers of two such pools
-- whose IDs meet (one table, one replicated set) collide on them.  In SQL,
-- parsed at creation, like uid_pool_leases(), which it reads.
CREATE FUNCTION uid_pool_overlaps()
RETURNS TABLE (id integer, pools text[], holders text[])
LANGUAGE sql VOLATILE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
BEGIN ATOMIC
    SELECT l.id, array_agg(l.pool ORDER BY l.pool), array_agg(l.holder ORDER BY l.pool)
    FROM uid_pool_leases() l
    WHERE l.state <> 'free'
    GROUP BY l.id
    HAVING count(DISTINCT l.pool) > 1
    ORDER BY l.id;
END;
COMMENT ON FUNCTION uid_pool_overlaps() IS
'the ids that more than one pool of this coordinator leases now (held or in grace): servers of those pools whose IDs meet collide on them';
REVOKE EXECUTE ON FUNCTION uid_pool_overlaps() FROM PUBLIC;

-- The twins a uid server calls on its coordinator (identity.c), where a
-- role may create in the extension's schema: the server passes
-- uid_internal_call first, so no overload there can take its claim or
-- renewal over (src/internal.sql).  Each calls the documented function
-- (src/internal.c, uid_internal_forward) if the caller may execute that:
-- the GRANTs below are the twins' too.
CREATE FUNCTION uid_pool_claim(call uid_internal_call, pool text, size integer, holder text,
                               ttl interval)
RETURNS TABLE (id integer, token bigint, expires_at timestamptz)
AS 'MODULE_PATHNAME', 'uid_internal_forward'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION uid_pool_claim(uid_internal_call, text, integer, text, interval) IS
'internal: uid_pool_claim(pool, size, holder, ttl), as a uid server calls it on its coordinator; needs EXECUTE on that';
CREATE FUNCTION uid_pool_renew(call uid_internal_call, pool text, id integer, token bigint,
                               ttl interval)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uid_internal_forward'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION uid_pool_renew(uid_internal_call, text, integer, bigint, interval) IS
'internal: uid_pool_renew(pool, id, token, ttl), as a uid server calls it on its coordinator; needs EXECUTE on that';

-- An administrator GRANTs EXECUTE on these to the roles that claim.
REVOKE EXECUTE ON FUNCTION uid_pool_claim(text, integer, text, interval) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_pool_renew(text, integer, bigint, interval) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_pool_release(text, integer, bigint) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION uid_pool_leases(text) FROM PUBLIC;
