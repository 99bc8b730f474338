-- Partition maintenance runs the table's code as the table's owner, in a
-- security-restricted operation, whoever calls it: a superuser's call (a
-- pg_cron job) cannot be turned against it by the table's triggers, CHECK
-- constraints or generated columns, and the partitions it makes are the
-- owner's.
SET TimeZone = 'UTC';
\set SHOW_CONTEXT never

CREATE ROLE regress_uid_app;
CREATE SCHEMA regress_app AUTHORIZATION regress_uid_app;
SET ROLE regress_uid_app;

-- Every hook of the table calls try(): it tries to make its owner a
-- superuser and to create a temporary table (which would sit in front of
-- the session's search_path), and notes, without failing, as whom it ran
-- and what came of each try.
CREATE TABLE regress_app.attempt (hook text, run_as name, tried text, outcome text);
CREATE FUNCTION regress_app.try(hook text) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    BEGIN
        ALTER ROLE regress_uid_app SUPERUSER;
        INSERT INTO regress_app.attempt VALUES (hook, current_user, 'ALTER ROLE', 'done');
    EXCEPTION WHEN OTHERS THEN
        INSERT INTO regress_app.attempt VALUES (hook, current_user, 'ALTER ROLE', SQLSTATE);
    END;
    BEGIN
        CREATE TEMP TABLE regress_hijack (x int);
        INSERT INTO regress_app.attempt VALUES (hook, current_user, 'CREATE TEMP TABLE', 'done');
    EXCEPTION WHEN OTHERS THEN
        INSERT INTO regress_app.attempt VALUES (hook, current_user, 'CREATE TEMP TABLE', SQLSTATE);
    END;
    RETURN true;
END
$$;
CREATE FUNCTION regress_app.hook_trigger() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM regress_app.try(TG_ARGV[0] || ' ' || lower(TG_OP));
    RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END
$$;
-- (a generation expression must be IMMUTABLE: this one lies)
CREATE FUNCTION regress_app.generated(id sno) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    PERFORM regress_app.try('generated column');
    RETURN id::text;
END
$$;

CREATE TABLE regress_app.event (
    id sno,
    note text CHECK (regress_app.try('parent CHECK')),
    copy text GENERATED ALWAYS AS (regress_app.generated(id)) STORED
) PARTITION BY RANGE (id);
CREATE TABLE regress_app.event_default PARTITION OF regress_app.event DEFAULT;
ALTER TABLE regress_app.event_default ADD CHECK (regress_app.try('default CHECK'));
CREATE TRIGGER parent_after AFTER INSERT OR DELETE ON regress_app.event
    FOR EACH ROW EXECUTE FUNCTION regress_app.hook_trigger('parent trigger');
CREATE TRIGGER default_before BEFORE DELETE ON regress_app.event_default
    FOR EACH ROW EXECUTE FUNCTION regress_app.hook_trigger('default trigger');

-- rows of two months in the default partition, written by the owner
INSERT INTO regress_app.event (id, note)
SELECT sno_boundary(t), 'row'
FROM generate_series(timestamptz '2026-01-10Z', '2026-02-20Z', '10 days') t;
-- (where no security-restricted operation stops it, the first try made it)
SELECT DISTINCT tried, outcome FROM regress_app.attempt ORDER BY 1, 2;
DROP TABLE pg_temp.regress_hijack;
TRUNCATE regress_app.attempt;
RESET ROLE;

-- A superuser maintains the table.
SELECT current_user = session_user AS superuser_calls,
       (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS is_superuser;
SELECT action, partition, from_time, rows_moved
FROM uid_maintain_partitions('regress_app.event', premake => NULL, width => '1 month');

-- Nothing escalated: the owner is no superuser; every hook ran, as the owner,
-- and each of its tries failed for want of privilege.
SELECT rolsuper FROM pg_roles WHERE rolname = 'regress_uid_app';
SELECT hook, run_as, tried, outcome, count(*) > 0 AS ran
FROM regress_app.attempt GROUP BY 1, 2, 3, 4 ORDER BY 1, 3;
-- no temporary table reached the caller's session
SELECT to_regclass('pg_temp.regress_hijack') AS hijack, to_regclass('pg_temp.uid_partition_moving') AS staging;

-- The rows moved, and the partitions are the owner's.
SELECT tableoid::regclass AS partition, count(*), bool_and(copy = id::text) AS generated
FROM regress_app.event GROUP BY 1 ORDER BY 1;
SELECT c.oid::regclass AS partition, pg_get_userbyid(c.relowner) AS owner
FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
WHERE i.inhparent = 'regress_app.event'::regclass ORDER BY 1;

-- uid_create_partitions() too: its partitions are the owner's, whoever calls.
TRUNCATE regress_app.attempt;
SELECT partition FROM uid_create_partitions('regress_app.event', 1, '2026-06-01Z');
SELECT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE oid = 'regress_app.event_p202606'::regclass;

-- A member of the owner's role may maintain it, and it runs as the owner.
CREATE ROLE regress_uid_ops IN ROLE regress_uid_app;
SET ROLE regress_uid_app;
INSERT INTO regress_app.event (id, note) VALUES (sno_boundary('2026-04-15Z'), 'row');
DROP TABLE pg_temp.regress_hijack;
TRUNCATE regress_app.attempt;
SET ROLE regress_uid_ops;
SELECT action, partition, rows_moved
FROM uid_maintain_partitions('regress_app.event', premake => NULL, width => '1 month');
RESET ROLE;
SELECT DISTINCT run_as FROM regress_app.attempt;
SELECT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE oid = 'regress_app.event_p202604'::regclass;

-- A role without the owner's privileges may not, even one that could
-- create partitions in the schema.
CREATE ROLE regress_uid_other;
GRANT USAGE, CREATE ON SCHEMA regress_app TO regress_uid_other;
SET ROLE regress_uid_other;
SELECT * FROM uid_maintain_partitions('regress_app.event', premake => 1);
SELECT * FROM uid_create_partitions('regress_app.event', 1, '2026-08-01Z');
RESET ROLE;

-- The implementations refuse to run as anyone but the owner: calling one
-- directly does not get around the switch.
SELECT * FROM uid_maintain_partitions(true::uid_internal_call, 'regress_app.event', 1, NULL, 'detach',
                                      '1 month', 100, now());
SELECT * FROM uid_create_partitions(true::uid_internal_call, 'regress_app.event', 1, now(), '1 month');

-- Retention drops the owner's partitions; one that belongs to another role
-- (made by hand, or by uid 0.6.0's maintenance as its caller) in a schema
-- the owner does not own is refused, saying how to give it to the owner.
CREATE TABLE public.regress_event_p202501 PARTITION OF regress_app.event
    FOR VALUES FROM (sno_boundary('2025-01-01Z')) TO (sno_boundary('2025-02-01Z'));
SELECT action, partition FROM uid_maintain_partitions('regress_app.event', NULL, '6 months', 'drop',
                                                       as_of => '2026-03-01Z');
ALTER TABLE public.regress_event_p202501 OWNER TO regress_uid_app;
SELECT action, partition FROM uid_maintain_partitions('regress_app.event', NULL, '6 months', 'drop',
                                                       as_of => '2026-03-01Z');

-- The owner needs CREATE on the table's schema, and the default partition
-- (ALTER TABLE ... OWNER TO reaches no partition): each refusal says how.
CREATE TABLE public.regress_owned (id sno) PARTITION BY RANGE (id);
CREATE TABLE public.regress_owned_default PARTITION OF public.regress_owned DEFAULT;
INSERT INTO public.regress_owned VALUES (sno_boundary('2026-01-15Z'));
ALTER TABLE public.regress_owned OWNER TO regress_uid_app;
SELECT * FROM uid_maintain_partitions('public.regress_owned', NULL, width => '1 month');
ALTER TABLE public.regress_owned_default OWNER TO regress_uid_app;
SELECT * FROM uid_maintain_partitions('public.regress_owned', NULL, width => '1 month');
GRANT CREATE ON SCHEMA public TO regress_uid_app;
SELECT action, partition, rows_moved FROM uid_maintain_partitions('public.regress_owned', NULL, width => '1 month');
REVOKE CREATE ON SCHEMA public FROM regress_uid_app;
DROP TABLE public.regress_owned;

-- A deferred constraint trigger cannot fire inside the security-restricted
-- operation (as in REFRESH MATERIALIZED VIEW): moving rows of such a table
-- out of the default partition fails, and leaves everything as it was.
SET ROLE regress_uid_app;
CREATE FUNCTION regress_app.nothing() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
CREATE CONSTRAINT TRIGGER deferred_check AFTER INSERT ON regress_app.event
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION regress_app.nothing();
INSERT INTO regress_app.event (id, note) VALUES (sno_boundary('2026-05-15Z'), 'row');
DROP TABLE pg_temp.regress_hijack;
RESET ROLE;
SELECT * FROM uid_maintain_partitions('regress_app.event', premake => NULL, width => '1 month');
SELECT tableoid::regclass AS partition, count(*) FROM regress_app.event
WHERE id >= sno_boundary('2026-05-01Z') GROUP BY 1;

DROP SCHEMA regress_app CASCADE;
DROP ROLE regress_uid_ops, regress_uid_other, regress_uid_app;

-- Overloads in the extension's schema, by a role that may create there,
-- cannot take the partition functions' own calls over: each passes
-- uid_internal_call first, which only the extension's owner can put in a
-- function's arguments, and the callee matches exactly.  (On 0.6.0 and
-- before this test, uid_maintain_partitions() failed with "function
-- public.uid_partition_key(regclass) is not unique".)
CREATE TABLE ov (id sno, note text) PARTITION BY RANGE (id);
CREATE TABLE ov_default PARTITION OF ov DEFAULT;
INSERT INTO ov VALUES (sno_boundary('2026-01-15Z'::timestamptz), 'January'),
                      (sno_boundary('2026-03-15Z'::timestamptz), 'March');
CREATE ROLE regress_uid_squatter;
GRANT CREATE ON SCHEMA public TO regress_uid_squatter;
SET ROLE regress_uid_squatter;
CREATE FUNCTION public.uid_partition_key(parent regclass, extra int DEFAULT 0,
                                         OUT key_column name, OUT key_type name)
RETURNS record LANGUAGE sql AS $$ SELECT 'x'::name, 'y'::name $$;
CREATE FUNCTION public.uid_create_partitions(parent regclass, count integer, start timestamptz,
                                             width interval, extra int DEFAULT 0)
RETURNS TABLE (partition regclass, from_time timestamptz, to_time timestamptz)
LANGUAGE sql AS $$ SELECT NULL::regclass, NULL::timestamptz, NULL::timestamptz $$;
CREATE FUNCTION public.sno_boundary(t timestamptz, extra int DEFAULT 0) RETURNS sno
LANGUAGE sql AS $$ SELECT NULL::sno $$;
CREATE FUNCTION public.sno_timestamp(id sno, extra int DEFAULT 0) RETURNS timestamptz
LANGUAGE sql AS $$ SELECT NULL::timestamptz $$;
CREATE FUNCTION public.uid_partition_boundary(call anyelement, type regtype, t timestamptz)
RETURNS text LANGUAGE sql AS $$ SELECT 'taken over' $$;
CREATE FUNCTION public.uid_partition_time(call boolean, type regtype, id text, extra int DEFAULT 0)
RETURNS timestamptz LANGUAGE sql AS $$ SELECT NULL::timestamptz $$;
CREATE FUNCTION public.uid_partition_time(VARIADIC a anyarray)
RETURNS timestamptz LANGUAGE sql AS $$ SELECT NULL::timestamptz $$;
-- nor one that takes the domain
CREATE FUNCTION public.uid_partition_time(call uid_internal_call, type regtype, id text, extra int DEFAULT 0)
RETURNS timestamptz LANGUAGE sql AS $$ SELECT NULL::timestamptz $$;
RESET ROLE;

-- A user's own call of a function with an overload is ambiguous, as with any
-- function (install uid where untrusted roles cannot create: doc/install.md)
-- (terse: 19 moved part of the HINT into a DETAIL)
\set VERBOSITY terse
SELECT sno_boundary('2026-01-01Z');
\set VERBOSITY default
-- uid's own calls are not
SELECT * FROM uid_create_partitions('ov', 1, '2025-11-01Z');
SELECT action, partition, from_time, to_time, rows_moved
FROM uid_maintain_partitions('ov', premake => 0, retention => '3 months', width => '1 month',
                             as_of => '2026-03-20Z');
SELECT tableoid::regclass AS partition, note FROM ov ORDER BY id;

DROP TABLE ov, ov_p202511;
DROP FUNCTION public.uid_partition_key(regclass, int), public.uid_create_partitions(regclass, integer, timestamptz, interval, int),
    public.sno_boundary(timestamptz, int), public.sno_timestamp(sno, int),
    public.uid_partition_boundary(anyelement, regtype, timestamptz),
    public.uid_partition_time(boolean, regtype, text, int), public.uid_partition_time(anyarray);
REVOKE CREATE ON SCHEMA public FROM regress_uid_squatter;
DROP ROLE regress_uid_squatter;
