-- The lease pool (src/pool.sql): a coordinator hands out the ids 0 .. size - 1
-- of named pools to holders, for a time to live.  Times differ from run to
-- run, so the output shows them only against each other and the clock.
-- (The suite runs on a server whose uid.* settings are the defaults; this
-- file resets uid.pool_grace, which it sets, with ALTER SYSTEM RESET.)
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
SET IntervalStyle = 'postgres';

-- Helper: runs a statement and shows its error as lines (SQLSTATE and
-- message, detail, hint), times masked unless mask is false; 'ok' if none.
CREATE FUNCTION pg_temp.pool_err(stmt text, mask boolean DEFAULT true) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    code text;
    msg text;
    det text;
    hnt text;
BEGIN
    EXECUTE stmt;
    RETURN NEXT 'ok';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE, msg = MESSAGE_TEXT,
                            det = PG_EXCEPTION_DETAIL, hnt = PG_EXCEPTION_HINT;
    RETURN NEXT code || ': ' || msg;
    IF det <> '' THEN
        RETURN NEXT 'DETAIL: ' || CASE WHEN mask THEN
            regexp_replace(det, '\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?\+00', '<time>', 'g') ELSE det END;
    END IF;
    IF hnt <> '' THEN
        RETURN NEXT 'HINT: ' || hnt;
    END IF;
END $$;

-- pg_dump keeps both tables' rows; the functions run as the extension's
-- owner with a fixed search_path; nobody else may execute them or touch the
-- tables, but for uid_pool_grace() and the twins of uid_pool_claim() and
-- uid_pool_renew() that uid servers call, which check EXECUTE on those.
SELECT extconfig::regclass[] AS dumped, extcondition FROM pg_extension WHERE extname = 'uid';
SELECT p.oid::regprocedure AS function, p.prosecdef, p.proconfig, p.provolatile,
       has_function_privilege('public', p.oid, 'EXECUTE') AS public_may_execute
FROM pg_proc p WHERE p.proname LIKE 'uid\_pool\_%' ORDER BY 1;
SELECT c.relname,
       has_table_privilege('public', c.oid, 'SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER') AS public_may
FROM pg_class c WHERE c.relname IN ('uid_pool', 'uid_pool_lease') ORDER BY 1;
SELECT uid_pool_grace();

-- Claims take the lowest free id: 0, 1, 2 ...; each claim's token is the
-- pool's count of claims after it.
SELECT * FROM uid_pool_leases();
SELECT id, token, expires_at - clock_timestamp() BETWEEN interval '59 min' AND interval '1 hour' AS for_an_hour
FROM uid_pool_claim('p', 4, 'a');
SELECT id, token, expires_at - clock_timestamp() BETWEEN interval '9 min' AND interval '10 min' AS for_10_min
FROM uid_pool_claim('p', 4, 'b', '10 min');
SELECT id, token FROM uid_pool_claim('p', 4, 'c');
SELECT pool, size, claims, created_at <= clock_timestamp() AS created FROM uid_pool;
SELECT pool, id, holder, token, state, renewed_at = claimed_at AS renewed_at_claim,
       expires_at - claimed_at AS ttl, released_at, reusable_at - expires_at AS grace
FROM uid_pool_leases();
-- The times are the clock's when the claim ran, not when its transaction began.
BEGIN;
SELECT pg_sleep(0.01);
SELECT id, token FROM uid_pool_claim('p', 4, 'd');
SELECT claimed_at > now() AS after_transaction_start, expires_at = claimed_at + interval '1 hour' AS expires
FROM uid_pool_lease WHERE pool = 'p' AND id = 3;
COMMIT;

-- Every id is leased: 53400, naming when the first comes free (id 1, the
-- shortest lease); a failed claim takes no token.
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('p', 4, 'e')$$);
SELECT substring(line FROM ' at (\S+ \S+),')::timestamptz = reusable_at AS detail_names_reusable_at
FROM pg_temp.pool_err($$SELECT uid_pool_claim('p', 4, 'e')$$, false) line,
     uid_pool_leases('p') l
WHERE line LIKE 'DETAIL:%' AND l.id = 1;
SELECT claims FROM uid_pool WHERE pool = 'p';
-- A pool's size is the one its first claim gave.
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('p', 8, 'e')$$);
-- A pool of one.
SELECT id, token FROM uid_pool_claim('solo', 1, 'a');
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('solo', 1, 'b')$$);

-- Renewal: the lease expires ttl after the renewal.
SELECT uid_pool_renew('p', 1, 2, '2 hours') - clock_timestamp()
       BETWEEN interval '119 min' AND interval '2 hours' AS for_two_hours;
SELECT id, holder, token, state, renewed_at > claimed_at AS renewed, expires_at - renewed_at AS ttl
FROM uid_pool_leases('p') WHERE id = 1;
SELECT uid_pool_renew('p', 1, 2) - clock_timestamp()
       BETWEEN interval '59 min' AND interval '1 hour' AS default_ttl;
SELECT expires_at - renewed_at AS ttl FROM uid_pool_lease WHERE pool = 'p' AND id = 1;
-- refused (55000) for a token that does not hold the id, an id without a
-- lease, a pool that does not exist
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('p', 1, 3)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('solo', 5, 1)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('nowhere', 0, 1)$$);

-- Release: true once; false again, for another token, for another pool.
SELECT uid_pool_release('p', 2, 3);
SELECT uid_pool_release('p', 2, 3);
SELECT uid_pool_release('p', 1, 3);
SELECT uid_pool_release('nowhere', 0, 1);
SELECT id, holder, state, released_at > renewed_at AS released, reusable_at - released_at AS grace
FROM uid_pool_leases('p') WHERE id IN (1, 2) ORDER BY id;
-- A released lease cannot be renewed, and during its grace period
-- (uid.pool_grace, 60 s by default) its id is not handed out.
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('p', 2, 3)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('p', 4, 'e')$$);

-- With no grace period (uid.pool_grace = 0) the released id is free at once.
ALTER SYSTEM SET uid.pool_grace = 0;
SELECT pg_reload_conf();
\set ECHO none
SELECT 'DO $$BEGIN PERFORM pg_sleep(0.05) WHERE uid_pool_grace() <> interval ''0''; END$$' FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT uid_pool_grace();
SELECT id, state, reusable_at = released_at AS reusable_at_release FROM uid_pool_leases('p') WHERE id = 2;
SELECT id, token FROM uid_pool_claim('p', 4, 'e');
-- The holder it was taken from: its renewal is refused, its release does nothing.
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('p', 2, 3)$$);
SELECT uid_pool_release('p', 2, 3);
SELECT id, holder, token, state FROM uid_pool_leases('p') WHERE id = 2;

-- Expiry (moved into the past in the table).  An expired lease that nobody
-- claimed since can be renewed by its holder; once another claim took the
-- id, it cannot.
UPDATE uid_pool_lease SET expires_at = clock_timestamp() - interval '1 s' WHERE pool = 'p' AND id = 0;
SELECT id, holder, state FROM uid_pool_leases('p') WHERE id = 0;
SELECT uid_pool_renew('p', 0, 1) > clock_timestamp() AS renewed;
SELECT id, holder, token, state FROM uid_pool_leases('p') WHERE id = 0;
UPDATE uid_pool_lease SET expires_at = clock_timestamp() - interval '1 s' WHERE pool = 'p' AND id = 0;
SELECT id, token FROM uid_pool_claim('p', 4, 'f');
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('p', 0, 1)$$);
SELECT uid_pool_release('p', 0, 1);

-- The lowest free id, wherever it is; ids stay dense.  A pool of 65536
-- whose first claims go to 0, 1, 2, 3, 4.
SELECT g, c.id, c.token FROM generate_series(1, 5) g, LATERAL uid_pool_claim('dense', 65536, 'h' || g) c ORDER BY g;
SELECT uid_pool_release('dense', 3, 4), uid_pool_release('dense', 1, 2);
SELECT id, token FROM uid_pool_claim('dense', 65536, 'h6');
SELECT id, token FROM uid_pool_claim('dense', 65536, 'h7');
SELECT id, token FROM uid_pool_claim('dense', 65536, 'h8');
-- a lease row an administrator deleted leaves its id free
DELETE FROM uid_pool_lease WHERE pool = 'dense' AND id = 2;
SELECT id, token FROM uid_pool_claim('dense', 65536, 'h9');
SELECT string_agg(id || ':' || holder || ':' || token, ' ' ORDER BY id) FROM uid_pool_leases('dense');
-- Pools are independent: their own ids and their own tokens.
SELECT pool, size, claims FROM uid_pool ORDER BY pool;

-- A long grace period (uid.pool_grace = 1 h): an id whose lease expired
-- 10 minutes ago is still kept from other claimants; 2 hours ago, it is not.
ALTER SYSTEM SET uid.pool_grace = '1h';
SELECT pg_reload_conf();
\set ECHO none
SELECT 'DO $$BEGIN PERFORM pg_sleep(0.05) WHERE uid_pool_grace() <> interval ''1 hour''; END$$' FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT uid_pool_grace();
UPDATE uid_pool_lease SET expires_at = clock_timestamp() - interval '10 min' WHERE pool = 'p' AND id = 3;
SELECT id, holder, state, reusable_at - expires_at AS grace FROM uid_pool_leases('p') WHERE id = 3;
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('p', 4, 'g')$$);
UPDATE uid_pool_lease SET expires_at = clock_timestamp() - interval '2 hours' WHERE pool = 'p' AND id = 3;
SELECT id, holder, state FROM uid_pool_leases('p') WHERE id = 3;
SELECT id, token FROM uid_pool_claim('p', 4, 'g');
SELECT id, holder, token, state FROM uid_pool_leases('p');
ALTER SYSTEM RESET uid.pool_grace;
SELECT pg_reload_conf();
\set ECHO none
SELECT 'DO $$BEGIN PERFORM pg_sleep(0.05) WHERE uid_pool_grace() <> interval ''60 s''; END$$' FROM generate_series(1, 200) \gexec
\set ECHO all
SELECT uid_pool_grace();

-- Bad input: 22023.
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim(NULL, 4, 'x')$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('p', NULL, 'x')$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('p', 4, NULL)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('p', 4, 'x', NULL)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('', 4, 'x')$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim(repeat('x', 64), 4, 'x')$$);
-- 32 characters, 64 bytes: the limit is in bytes, as for uid.pool
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim(repeat(U&'\00E9', 32), 4, 'x')$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('q', 0, 'x')$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('q', 65537, 'x')$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('q', 4, '')$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('q', 4, 'x', '0')$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('q', 4, 'x', '-1 s')$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('q', 4, 'x', '365 days 1 s')$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew(NULL, 0, 1)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('p', NULL, 1)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('p', 0, NULL)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('p', 0, 6, NULL)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('', 0, 6)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('p', -1, 6)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('p', 65536, 6)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('p', 0, 6, '0 s')$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('p', 0, 6, '1 year 6 days')$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_release(NULL, 0, 6)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_release('p', NULL, 6)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_release('p', 0, NULL)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_release(repeat('x', 64), 0, 6)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_release('p', -1, 6)$$);
-- nothing was created or changed by them
SELECT pool, size, claims FROM uid_pool ORDER BY pool;
-- the limits themselves are accepted
SELECT id, token, expires_at - clock_timestamp() > interval '364 days' AS long
FROM uid_pool_claim(repeat('x', 63), 65536, 'x', '365 days');
SELECT id, token FROM uid_pool_claim(repeat(U&'\00E9', 31), 1, 'x', '1 ms');
SELECT uid_pool_renew('p', 0, 6, '1 ms') <= clock_timestamp() + interval '1 ms' AS short;

-- The extension's tables are found through its current schema, wherever
-- it moves, never through search_path.
CREATE SCHEMA uid_pool_moved;
ALTER EXTENSION uid SET SCHEMA uid_pool_moved;
SELECT id, token FROM uid_pool_moved.uid_pool_claim('moved', 2, 'x');
SELECT pool, id, holder, state FROM uid_pool_moved.uid_pool_leases('moved');
SELECT uid_pool_moved.uid_pool_renew('moved', 0, 1) > clock_timestamp() AS renewed,
       uid_pool_moved.uid_pool_release('moved', 0, 1) AS released;
SELECT count(*) FROM uid_pool_moved.uid_pool_lease WHERE pool = 'moved';
ALTER EXTENSION uid SET SCHEMA public;
DROP SCHEMA uid_pool_moved;

-- Privileges: a role may claim only once it is granted EXECUTE, and never
-- touches the tables itself.
CREATE ROLE uid_pool_claimant;
SET ROLE uid_pool_claimant;
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('r', 2, 'x')$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('p', 0, 6)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_release('p', 0, 6)$$);
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_leases()$$);
SELECT uid_pool_grace();
RESET ROLE;
GRANT EXECUTE ON FUNCTION uid_pool_claim(text, integer, text, interval),
                          uid_pool_renew(text, integer, bigint, interval),
                          uid_pool_release(text, integer, bigint),
                          uid_pool_leases(text)
TO uid_pool_claimant;
SET ROLE uid_pool_claimant;
SELECT id, token FROM uid_pool_claim('r', 2, 'claimant');
SELECT pool, id, holder, token, state FROM uid_pool_leases('r');
SELECT uid_pool_renew('r', 0, 1) > clock_timestamp() AS renewed;
SELECT uid_pool_release('r', 0, 1);
SELECT * FROM pg_temp.pool_err($$SELECT * FROM uid_pool_lease$$);
SELECT * FROM pg_temp.pool_err($$UPDATE uid_pool SET claims = 0$$);
SELECT * FROM pg_temp.pool_err($$INSERT INTO uid_pool_lease VALUES ('r', 1, 'x', 1, now(), now(), now(), NULL)$$);
SELECT * FROM pg_temp.pool_err($$DELETE FROM uid_pool_lease$$);
SELECT * FROM pg_temp.pool_err($$TRUNCATE uid_pool CASCADE$$);
RESET ROLE;

-- A caller's search_path cannot reach into the functions: functions of its
-- own that shadow pg_catalog's (a clock of 2000) and tables that shadow the
-- extension's change nothing.
CREATE SCHEMA uid_pool_evil;
GRANT USAGE, CREATE ON SCHEMA uid_pool_evil TO uid_pool_claimant;
SET ROLE uid_pool_claimant;
CREATE FUNCTION uid_pool_evil.clock_timestamp() RETURNS timestamptz
LANGUAGE sql AS $$SELECT timestamptz '2000-01-01 00:00:00+00'$$;
CREATE FUNCTION uid_pool_evil.uid_pool_grace() RETURNS interval
LANGUAGE sql AS $$SELECT interval '0'$$;
CREATE TABLE uid_pool_evil.uid_pool_lease (pool text, id integer, holder text, token bigint,
    claimed_at timestamptz, renewed_at timestamptz, expires_at timestamptz, released_at timestamptz);
CREATE TEMP TABLE uid_pool (pool text, size integer, claims bigint, created_at timestamptz);
SET search_path = pg_temp, uid_pool_evil, pg_catalog, public;
SELECT clock_timestamp() AS callers_clock, uid_pool_grace() AS callers_grace;
SELECT id, token, expires_at > '2001-01-01' AS real_clock FROM public.uid_pool_claim('evil', 1, 'claimant');
SELECT pool, id, holder, token, state, reusable_at - expires_at AS grace FROM public.uid_pool_leases('evil');
-- released, the id is kept for the server's grace period, not the caller's 0
SELECT public.uid_pool_release('evil', 0, 1);
SELECT * FROM pg_temp.pool_err($$SELECT public.uid_pool_claim('evil', 1, 'claimant')$$);
SELECT (SELECT count(*) FROM uid_pool_evil.uid_pool_lease) AS evil_leases,
       (SELECT count(*) FROM pg_temp.uid_pool) AS temp_pools;
RESET search_path;
RESET ROLE;
DROP TABLE pg_temp.uid_pool;
DROP SCHEMA uid_pool_evil CASCADE;
REVOKE EXECUTE ON FUNCTION uid_pool_claim(text, integer, text, interval),
                           uid_pool_renew(text, integer, bigint, interval),
                           uid_pool_release(text, integer, bigint),
                           uid_pool_leases(text)
FROM uid_pool_claimant;
DROP ROLE uid_pool_claimant;

-- Overloads in the extension's schema: a role that may create functions
-- there can neither take over the calls between the pool's functions nor
-- make them ambiguous (src/internal.sql).  Overloads of uid_pool_prepare()
-- and uid_pool_grace() with defaults, of a polymorphic type and VARIADIC,
-- each of which would fail a call or hand out a held id, change nothing.
CREATE ROLE regress_uid_overloader;
GRANT CREATE ON SCHEMA public TO regress_uid_overloader;
GRANT EXECUTE ON FUNCTION uid_pool_claim(text, integer, text, interval),
                          uid_pool_renew(text, integer, bigint, interval),
                          uid_pool_release(text, integer, bigint)
TO regress_uid_overloader;
SET ROLE regress_uid_overloader;
CREATE FUNCTION public.uid_pool_prepare(pool text, size integer DEFAULT NULL, holder text DEFAULT NULL,
                                        id integer DEFAULT NULL, ttl interval DEFAULT NULL,
                                        z integer DEFAULT 0, OUT pool_size integer, OUT t timestamptz)
LANGUAGE sql AS $$SELECT 1, timestamptz '2000-01-01 00:00:00+00'$$;
CREATE FUNCTION public.uid_pool_prepare(call anyelement, pool text, size integer DEFAULT NULL,
                                        holder text DEFAULT NULL, id integer DEFAULT NULL,
                                        ttl interval DEFAULT NULL, z integer DEFAULT 0,
                                        OUT pool_size integer, OUT t timestamptz)
LANGUAGE sql AS $$SELECT 1, timestamptz '2000-01-01 00:00:00+00'$$;
CREATE FUNCTION public.uid_pool_prepare(VARIADIC call anyarray, OUT pool_size integer, OUT t timestamptz)
LANGUAGE sql AS $$SELECT 1, timestamptz '2000-01-01 00:00:00+00'$$;
CREATE FUNCTION public.uid_pool_grace(z integer DEFAULT 0) RETURNS interval
LANGUAGE sql AS $$SELECT interval '0'$$;
CREATE FUNCTION public.uid_pool_grace(call anyelement, z integer DEFAULT 0) RETURNS interval
LANGUAGE sql AS $$SELECT interval '0'$$;
CREATE FUNCTION public.uid_pool_grace(VARIADIC call anyarray) RETURNS interval
LANGUAGE sql AS $$SELECT interval '0'$$;
-- (uid_pool_grace() itself is now ambiguous for its callers, uid's own aside)
SELECT line FROM pg_temp.pool_err($$SELECT uid_pool_grace()$$) line LIMIT 1;
SELECT id, token FROM uid_pool_claim('overloaded', 1, 'x');
SELECT uid_pool_renew('overloaded', 0, 1) > clock_timestamp() AS renewed;
SELECT uid_pool_release('overloaded', 0, 1);
-- the grace period is the server's, not an overload's 0: the id is kept
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_claim('overloaded', 1, 'y')$$);
RESET ROLE;
SELECT pool, id, holder, token, state, reusable_at - released_at AS grace FROM uid_pool_leases('overloaded');
DROP FUNCTION public.uid_pool_prepare(text, integer, text, integer, interval, integer),
              public.uid_pool_prepare(anyelement, text, integer, text, integer, interval, integer),
              public.uid_pool_prepare(anyarray),
              public.uid_pool_grace(integer),
              public.uid_pool_grace(anyelement, integer),
              public.uid_pool_grace(anyarray);
REVOKE EXECUTE ON FUNCTION uid_pool_claim(text, integer, text, interval),
                           uid_pool_renew(text, integer, bigint, interval),
                           uid_pool_release(text, integer, bigint)
FROM regress_uid_overloader;
REVOKE CREATE ON SCHEMA public FROM regress_uid_overloader;
DROP ROLE regress_uid_overloader;

-- A claim and a renewal are durable whatever the session says: with
-- synchronous_commit off or local, their transaction commits with "on"
-- (SET LOCAL inside them: it lasts until the transaction ends); a stronger
-- setting is kept; a release changes nothing.
BEGIN;
SET LOCAL synchronous_commit = off;
SELECT id, token FROM uid_pool_claim('durable', 4, 'a');
SHOW synchronous_commit;
COMMIT;
BEGIN;
SET LOCAL synchronous_commit = local;
SELECT uid_pool_renew('durable', 0, 1) > clock_timestamp() AS renewed;
SHOW synchronous_commit;
COMMIT;
BEGIN;
SET LOCAL synchronous_commit = remote_apply;
SELECT id, token FROM uid_pool_claim('durable', 4, 'b');
SHOW synchronous_commit;
COMMIT;
BEGIN;
SET LOCAL synchronous_commit = off;
SELECT uid_pool_release('durable', 1, 2);
SHOW synchronous_commit;
COMMIT;

-- A holder that ends in " key" and 16 hex digits (as uid servers name
-- themselves) gets its own live lease back when it claims again: a claim
-- it gave up waiting for that committed later.  With a new token, the old
-- one no longer renews.  Another key, or a holder without one, takes
-- another id.
SELECT id, token FROM uid_pool_claim('again', 8, 'h:5432 system 1 key 00000000000000a1');
SELECT id, token FROM uid_pool_claim('again', 8, 'h:5432 system 1 key 00000000000000a1');
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('again', 0, 1)$$);
-- the host part may differ (a rename): the key decides
SELECT id, token FROM uid_pool_claim('again', 8, 'renamed:5432 system 1 key 00000000000000a1');
SELECT id, token FROM uid_pool_claim('again', 8, 'h:5432 system 1 key 00000000000000b2');
SELECT id, token FROM uid_pool_claim('again', 8, 'app');
SELECT id, token FROM uid_pool_claim('again', 8, 'app');
-- an expired or released lease is not handed back: the lowest free id is
-- taken as for anyone (here the released id 2, with no grace period left)
UPDATE uid_pool_lease SET expires_at = clock_timestamp() - interval '1 s' WHERE pool = 'again' AND id = 0;
SELECT uid_pool_release('again', 1, 4);
UPDATE uid_pool_lease SET released_at = clock_timestamp() - interval '2 min' WHERE pool = 'again' AND id = 1;
SELECT id, token FROM uid_pool_claim('again', 8, 'h:5432 system 1 key 00000000000000a1');
SELECT id, holder, token, state FROM uid_pool_leases('again');

-- The guard: one row, where the install and then the last claim or renewal
-- of any pool was written, and the longest time to live given.
SELECT count(*) AS rows,
       bool_and(written_in = (SELECT place FROM uid_pool_place(true::uid_internal_call))) AS written_here,
       bool_and(written_timeline = (SELECT timeline FROM uid_pool_place(true::uid_internal_call))) AS on_this_timeline,
       bool_and(written_synced) AS synced, max(max_ttl) AS max_ttl, max(hold_until) AS hold_until
FROM uid_pool_guard;
SELECT c.relname, has_table_privilege('public', c.oid, 'SELECT, INSERT, UPDATE, DELETE') AS public_may,
       c.oid = ANY (e.extconfig) AS dumped
FROM pg_class c, pg_extension e WHERE c.relname = 'uid_pool_guard' AND e.extname = 'uid';

-- A dump restored into another cluster or database (as if): its guard row,
-- of where it was taken, beside the one its CREATE EXTENSION wrote.  The
-- pools went back in time.  The claim that finds it so hands out nothing
-- and warns; it commits the hold, and the claims after it are refused
-- (55000) until the longest time to live and the grace period have passed.
-- Leases the rows hold are still renewed; one they do not (a claim of the
-- lost history) or one that expired is not confirmed (55P03) until the
-- hold ends.  Every pool's tokens jump past anything the lost history
-- could have given.
-- pool_err() with this cluster and database masked too, and the times
-- in the message.
CREATE FUNCTION pg_temp.pool_err_here(stmt text) RETURNS SETOF text
LANGUAGE sql AS $$
    SELECT regexp_replace(regexp_replace(line, 'system \d+ database \d+', 'system <N> database <M>', 'g'),
                          '\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?\+00', '<time>', 'g')
    FROM pg_temp.pool_err(stmt) line
$$;
SELECT id, token FROM uid_pool_claim('restored', 4, 'a', '1 hour');
SELECT id, token FROM uid_pool_claim('restored', 4, 'b', '90 min');
SELECT id, token FROM uid_pool_claim('restored', 4, 'c', '10 min');
UPDATE uid_pool_lease SET expires_at = clock_timestamp() - interval '1 s' WHERE pool = 'restored' AND id = 2;
-- (the longest TTL given here so far is 365 days, the limit above: the
-- dump's row says 2 hours)
UPDATE uid_pool_guard SET max_ttl = interval '0';
INSERT INTO uid_pool_guard (written_in, written_timeline, written_synced, max_ttl)
VALUES ('system 1 database 1', 1, true, '2 hours');
-- (the warning names this cluster and the time: not shown)
SET client_min_messages = error;
SELECT count(*) AS ids FROM uid_pool_claim('restored', 4, 'd');
RESET client_min_messages;
SELECT count(*) AS rows,
       hold_until - clock_timestamp() BETWEEN interval '2 hours 50 s' AND interval '2 hours 60 s' AS two_hours_and_grace,
       regexp_replace(hold_why, 'system \d+ database \d+', 'system <N> database <M>', 'g') AS hold_why
FROM uid_pool_guard GROUP BY 2, 3;
SELECT pool, claims > 1000000000000000 AS tokens_jumped FROM uid_pool ORDER BY pool;
SELECT * FROM pg_temp.pool_err_here($$SELECT uid_pool_claim('restored', 4, 'd')$$);
SELECT * FROM pg_temp.pool_err_here($$SELECT uid_pool_claim('durable', 4, 'd')$$);
SELECT uid_pool_renew('restored', 0, 1) > clock_timestamp() AS held_lease_renewed;
SELECT * FROM pg_temp.pool_err_here($$SELECT uid_pool_renew('restored', 2, 3)$$);
SELECT * FROM pg_temp.pool_err_here($$SELECT uid_pool_renew('restored', 3, 4)$$);
-- a release is as ever
SELECT uid_pool_release('restored', 1, 2);
-- the hold over, the rules are as before, with tokens from the jump on
UPDATE uid_pool_guard SET hold_until = clock_timestamp() - interval '1 s';
SELECT uid_pool_renew('restored', 2, 3) > clock_timestamp() AS expired_lease_renewed;
SELECT * FROM pg_temp.pool_err($$SELECT uid_pool_renew('restored', 3, 4)$$);
SELECT id, token > 1000000000000000 AS jumped FROM uid_pool_claim('restored', 4, 'd');

-- On another timeline (a promoted standby, a point-in-time restore): back
-- in time unless the last write waited for a synchronous standby.
UPDATE uid_pool_guard SET written_timeline = 0, written_synced = true;
SELECT uid_pool_renew('durable', 0, 1) > clock_timestamp() AS renewed;
SELECT hold_until > clock_timestamp() AS on_hold FROM uid_pool_guard;
UPDATE uid_pool_guard SET written_timeline = 0, written_synced = false;
SET client_min_messages = error;
SELECT uid_pool_renew('durable', 0, 1) > clock_timestamp() AS renewed;
RESET client_min_messages;
SELECT hold_until > clock_timestamp() AS on_hold, hold_why FROM uid_pool_guard;
-- uid_pool_resume() ends a hold, for an administrator who knows nothing
-- was lost; only the owner may.
SELECT uid_pool_resume(), uid_pool_resume();
SELECT id, token > 1000000000000000 AS jumped FROM uid_pool_claim('durable', 4, 'c');
-- A pool made after a hold (the lost history may have made it and claimed
-- from it) starts its count of claims past the jump too.
SELECT token_floor > 1000000000000000 AS floor_jumped FROM uid_pool_guard;
SELECT id, token > (SELECT token_floor FROM uid_pool_guard) AS past_the_floor
FROM uid_pool_claim('made_later', 4, 'x');
SELECT has_function_privilege('public', 'uid_pool_resume()', 'EXECUTE') AS public_may_resume;
-- doc/several-servers.md's hold by hand, as written: claims are refused,
-- saying so, until uid_pool_resume()
UPDATE uid_pool_guard SET hold_until = now() + max_ttl + uid_pool_grace(), hold_why = 'The data directory was restored from a snapshot.';
SELECT * FROM pg_temp.pool_err_here($$SELECT uid_pool_claim('durable', 4, 'd')$$);
SELECT uid_pool_resume();
-- A dump whose guard row was edited by hand to a time to live past the
-- clock's end: the hold lasts for the longest lease there can be (a claim
-- gives at most 365 days) and the grace, never past it, never in the past.
UPDATE uid_pool_guard SET max_ttl = interval '0';
INSERT INTO uid_pool_guard (written_in, written_timeline, written_synced, max_ttl)
VALUES ('system 1 database 1', 1, true, '300000 years');
SET client_min_messages = error;
SELECT count(*) AS ids FROM uid_pool_claim('durable', 4, 'e');
RESET client_min_messages;
SELECT DISTINCT hold_until - clock_timestamp() BETWEEN interval '365 days' AND interval '365 days 2 min'
       AS a_year_and_the_grace FROM uid_pool_guard;
SELECT * FROM pg_temp.pool_err_here($$SELECT uid_pool_claim('durable', 4, 'e')$$);
SELECT uid_pool_resume();

-- Pools share their ids: uid_pool_overlaps() lists the ids leased in more
-- than one pool now, with the pools and holders (the servers of those pools
-- collide wherever their IDs meet).  Only the owner may, as for the leases.
SELECT id FROM uid_pool_claim('left', 2, 'l1');
SELECT id FROM uid_pool_claim('right', 4, 'r1');
SELECT id FROM uid_pool_claim('right', 4, 'r2');
SELECT id, (SELECT array_agg(h ORDER BY h) FROM unnest(holders) h WHERE h IN ('l1', 'r1', 'r2')) AS holders
FROM uid_pool_overlaps() WHERE pools @> ARRAY['left', 'right'] ORDER BY id;
SELECT has_function_privilege('public', 'uid_pool_overlaps()', 'EXECUTE') AS public_may_check;

-- Deleting a pool deletes its leases.
DELETE FROM uid_pool;
SELECT count(*) AS leases FROM uid_pool_lease;
