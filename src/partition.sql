-- uid: partitions by time (see doc/partitioning.md)
--
-- A table whose key is one of the ID types can be range-partitioned by the
-- key itself: the bounds of a partition are the IDs T_boundary(a) and
-- T_boundary(b), and the partition then holds exactly the IDs made in
-- [a, b).  uid_create_partitions() writes those partitions for whole days,
-- weeks, months or years in UTC; uid_maintain_partitions() keeps a table's
-- partitions ahead of time, retires old ones and empties the default
-- partition into new ones, from cron or pg_cron.
--
-- Bounds are values.  CREATE TABLE ... PARTITION OF evaluates a bound
-- expression once, and the catalog (and pg_dump) keeps the ID it gave.  For
-- snowflake_si that ID depends on uid.snowflake_si_epoch at the time the
-- partition was made: partitions made under one base clock do not fit IDs
-- made under another (the README says never to change it once IDs exist).
--
-- Whose privileges.  uid_create_partitions() and uid_maintain_partitions()
-- run as the table's owner, in a security-restricted operation, whoever
-- calls them (src/internal.c, uid_internal_enter_as_owner), as VACUUM and
-- REFRESH MATERIALIZED VIEW do: the caller needs the owner's privileges (the
-- owner, a member of its role, or a superuser); the table's triggers, CHECK
-- constraints, generated columns and defaults run with the owner's
-- privileges, never the caller's; the partitions they make belong to the
-- owner, who needs CREATE on the table's schema, as CREATE TABLE ...
-- PARTITION OF does.
--
-- Each documented function is C that calls its implementation in PL/pgSQL,
-- the function of the same name with uid_internal_call first, and the
-- implementations call each other and the types' functions the same way
-- (src/internal.sql): no overload in the extension's schema can take such
-- a call over.  The search_path is pinned and every call goes through the
-- extension's current schema, so neither the caller's search_path nor
-- ALTER EXTENSION ... SET SCHEMA changes what they do.
--
-- The key type's TYPE_boundary() and TYPE_timestamp(), for whichever type
-- the key has, with IDs as text.
CREATE FUNCTION uid_partition_boundary(call uid_internal_call, type regtype, t timestamptz)
RETURNS text
AS 'MODULE_PATHNAME', 'uid_partition_boundary'
LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION uid_partition_boundary(uid_internal_call, regtype, timestamptz) IS
'internal: TYPE_boundary(t) as text, for the partition functions';
CREATE FUNCTION uid_partition_time(call uid_internal_call, type regtype, id text)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uid_partition_time'
LANGUAGE C STABLE STRICT;
COMMENT ON FUNCTION uid_partition_time(uid_internal_call, regtype, text) IS
'internal: TYPE_timestamp(id::TYPE), for the partition functions';

-- The ID column a table is range-partitioned on, and its type: what both
-- functions below start from.  Each reason a table cannot be partitioned by
-- an ID's time is its own error.

CREATE FUNCTION uid_partition_key(parent regclass, OUT key_column name, OUT key_type name)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_internal_enter'
LANGUAGE C STABLE;
COMMENT ON FUNCTION uid_partition_key(regclass) IS
'the column and ID type a table is range-partitioned on, in the time order of the type; an error says why a table cannot be partitioned by an ID''s time';

CREATE FUNCTION uid_partition_key(call uid_internal_call, parent regclass,
                                  OUT key_column name, OUT key_type name)
RETURNS record
LANGUAGE plpgsql STABLE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp_oid oid;            -- the extension's schema
    rel_kind "char";
    strategy "char";
    key_count integer;
    key_att smallint;
    key_class oid;
    key_typid oid;
    opclass_default boolean;
BEGIN
    IF parent IS NULL THEN
        RAISE EXCEPTION 'uid_partition_key: parent must not be null'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    SELECT ext.extnamespace INTO STRICT nsp_oid FROM pg_extension ext WHERE ext.extname = 'uid';

    -- (a stored OID of a table dropped since: no relation)
    SELECT c.relkind INTO rel_kind FROM pg_class c WHERE c.oid = parent;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'relation with OID % does not exist', parent::oid
            USING ERRCODE = 'undefined_table';
    END IF;
    IF rel_kind <> 'p' THEN
        RAISE EXCEPTION '"%" is not a partitioned table', parent
            USING ERRCODE = 'wrong_object_type';
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
                  HINT = 'Partitions by time need a table partitioned by RANGE on one column of an ID type.';
    END IF;
    SELECT a.attname, a.atttypid INTO STRICT key_column, key_typid
    FROM pg_attribute a WHERE a.attrelid = parent AND a.attnum = key_att;
    SELECT t.typname INTO key_type
    FROM pg_type t
    WHERE t.oid = key_typid AND t.typnamespace = nsp_oid
      AND t.typname IN (@TYPES_SQL@);
    IF key_type IS NULL THEN
        RAISE EXCEPTION 'the partition key "%" of "%" is of type %, not an ID type of uid', key_column, parent,
                format_type(key_typid, NULL)
            USING ERRCODE = 'datatype_mismatch',
                  HINT = 'The ID types are @TYPES_WORDS@.';
    END IF;
    SELECT o.opcdefault INTO STRICT opclass_default FROM pg_opclass o WHERE o.oid = key_class;
    IF NOT opclass_default THEN
        RAISE EXCEPTION 'the partition key of "%" uses operator class %, not the time order of %', parent,
                (SELECT o.opcname FROM pg_opclass o WHERE o.oid = key_class), key_type
            USING ERRCODE = 'feature_not_supported',
                  DETAIL = 'Partitions by time need the default btree operator class of the type.';
    END IF;
END
$$;
COMMENT ON FUNCTION uid_partition_key(uid_internal_call, regclass) IS
'internal: the implementation of uid_partition_key(regclass)';

CREATE FUNCTION uid_create_partitions(parent regclass, count integer DEFAULT 3,
                                      start timestamptz DEFAULT now(),
                                      width interval DEFAULT '1 month')
RETURNS TABLE (partition regclass, from_time timestamptz, to_time timestamptz)
AS 'MODULE_PATHNAME', 'uid_internal_enter_as_owner'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION uid_create_partitions(regclass, integer, timestamptz, interval) IS
'creates the partitions of a table range-partitioned on an ID column for count whole days, weeks, months or years (width) in UTC from the one containing start, named parent_pYYYYMMDD, parent_pIYYYwIW, parent_pYYYYMM or parent_pYYYY; skips periods that have their partition; runs as the table''s owner, whose the partitions are; returns the partitions it created';

CREATE FUNCTION uid_create_partitions(call uid_internal_call, parent regclass, count integer,
                                      start timestamptz, width interval)
RETURNS TABLE (partition regclass, from_time timestamptz, to_time timestamptz)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    nsp name;               -- the extension's schema
    rel_nsp name;           -- the parent's schema and name
    rel_name name;
    rel_owner oid;
    key_name name;
    typ name;               -- the key's ID type
    key_typ regtype;
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

    SELECT ns.nspname INTO STRICT nsp
    FROM pg_catalog.pg_extension ext JOIN pg_catalog.pg_namespace ns ON ns.oid = ext.extnamespace
    WHERE ext.extname = 'uid';

    -- the key (or the reason it is not one of an ID type in time order)
    EXECUTE format('SELECT key_column, key_type FROM %1$I.uid_partition_key(true::%1$I.uid_internal_call, $1)', nsp)
        INTO key_name, typ USING parent;
    key_typ := format('%I.%I', nsp, typ)::regtype;
    SELECT n.nspname, c.relname, c.relowner INTO STRICT rel_nsp, rel_name, rel_owner
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.oid = parent;
    -- (uid_create_partitions(regclass, ...) has switched to the owner)
    IF rel_owner <> current_user::regrole THEN
        RAISE EXCEPTION 'uid_create_partitions(uid_internal_call, ...) must run as the owner of "%"', parent
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'Call uid_create_partitions(regclass, ...).';
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
        EXECUTE format('SELECT %1$I.uid_partition_boundary(true::%1$I.uid_internal_call, $1, $2), '
                       '%1$I.uid_partition_boundary(true::%1$I.uid_internal_call, $1, $3)', nsp)
            INTO lo_id, hi_id USING key_typ, lo AT TIME ZONE 'UTC', hi AT TIME ZONE 'UTC';
        IF lo_id = hi_id THEN
            RAISE EXCEPTION 'no % is made from % to % UTC', typ, to_char(lo, 'YYYY-MM-DD'), to_char(hi, 'YYYY-MM-DD')
                USING ERRCODE = 'datetime_field_overflow',
                      DETAIL = format('Every %s of that period would be outside the type''s time range.', typ);
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
        EXCEPTION WHEN insufficient_privilege THEN
            -- "permission denied for schema ...": the owner may not create there
            GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT;
            RAISE EXCEPTION '%', msg
                USING ERRCODE = 'insufficient_privilege',
                      DETAIL = format('Partitions are created as the owner of "%s", %s.', parent, rel_owner::regrole),
                      HINT = format('GRANT CREATE ON SCHEMA %I TO %s;', rel_nsp, rel_owner::regrole);
        WHEN invalid_object_definition THEN
            -- "would overlap partition ...": a partition that is not this
            -- period's covers part of it.
            GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT;
            RAISE EXCEPTION '%', msg
                USING ERRCODE = 'invalid_object_definition',
                      DETAIL = format('The partition "%s" of the period from %s to %s UTC would have %s.',
                                      pname, to_char(lo, 'YYYY-MM-DD'), to_char(hi, 'YYYY-MM-DD'), bound),
                      HINT = 'Another partition covers part of that period: detach it or create that period''s partition by hand.';
        END;

        partition := format('%I.%I', rel_nsp, pname)::regclass;
        from_time := lo AT TIME ZONE 'UTC';
        to_time := hi AT TIME ZONE 'UTC';
        RETURN NEXT;
    END LOOP;
END
$$;
COMMENT ON FUNCTION uid_create_partitions(uid_internal_call, regclass, integer, timestamptz, interval) IS
'internal: the implementation of uid_create_partitions(regclass, integer, timestamptz, interval), run as the table''s owner';

-- uid_maintain_partitions(): what pg_partman's run_maintenance() does for a
-- table partitioned on an ID, in one call for cron or pg_cron.  In order:
--
-- 1. Rows in the DEFAULT partition get the partition of their period:
--    PostgreSQL refuses to create a partition while the default holds rows
--    that belong in it, so the period's rows are moved out of the default
--    into a temporary table (batch_size rows a statement), the partition is
--    created and the rows are inserted again through the parent.
-- 2. Premake: the period that contains as_of and premake periods after it
--    get their partitions (uid_create_partitions()).
-- 3. Retention: the partitions whose every ID was made before as_of minus
--    retention are detached (or dropped).
--
-- The width of a period is given, or inferred from the newest partition:
-- its bounds must be those of a whole UTC day, ISO week, month or year.
--
-- All of it is one transaction, the caller's: what a reader sees changes at
-- its commit, rows never in neither place, and a failure leaves the table as
-- it was.  DETACH PARTITION ... CONCURRENTLY cannot run in a function (nor
-- in any transaction block).  Moving rows out of the default locks the
-- parent in ACCESS EXCLUSIVE mode first, as creating the partition would:
-- taking it later, after the default, could deadlock with a writer that
-- holds the parent and waits for the default.
--
-- On a server in recovery it does nothing and returns no rows, so that one
-- job can run on every server of a cluster.

CREATE FUNCTION uid_maintain_partitions(parent regclass, premake integer DEFAULT 3,
                                        retention interval DEFAULT NULL,
                                        retention_action text DEFAULT 'detach',
                                        width interval DEFAULT NULL,
                                        batch_size integer DEFAULT 10000,
                                        as_of timestamptz DEFAULT now())
RETURNS TABLE (action text, partition text, from_time timestamptz, to_time timestamptz,
               rows_moved bigint)
AS 'MODULE_PATHNAME', 'uid_internal_enter_as_owner_staging'
LANGUAGE C VOLATILE;
COMMENT ON FUNCTION uid_maintain_partitions(regclass, integer, interval, text, interval, integer, timestamptz) IS
'maintains a table range-partitioned on an ID column, for cron or pg_cron: moves the default partition''s rows into new partitions of their periods (batch_size rows a statement), keeps the partitions of the period containing as_of and premake periods after it, detaches (or drops) the partitions wholly older than as_of - retention; runs as the table''s owner; one transaction; does nothing on a server in recovery; returns a row per action';

CREATE FUNCTION uid_maintain_partitions(call uid_internal_call, parent regclass, premake integer,
                                        retention interval, retention_action text,
                                        width interval, batch_size integer,
                                        as_of timestamptz)
RETURNS TABLE (action text, partition text, from_time timestamptz, to_time timestamptz,
               rows_moved bigint)
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
SET IntervalStyle = postgres
AS $$
DECLARE
    nsp name;               -- the extension's schema
    key_name name;          -- the key column and its ID type
    typ name;
    key_typ regtype;
    rel_nsp name;           -- the parent's schema and name
    rel_name name;
    rel_owner oid;
    def regclass;           -- the DEFAULT partition, or null
    has_rows boolean := false;  -- rows in the default with a key
    def_denied boolean;     -- the owner may not read it, or not move them
    distributed boolean := false;  -- a table Citus distributes
    unit text;              -- day, week, month or year
    boundary text;          -- SELECT of the bounds of [$1, $2) as text
    bounds text;            -- SELECT of the partitions and their bounds
    newest record;
    r record;
    fk record;              -- a foreign key that moving rows would fire
    cand timestamp;
    lo_id text;
    hi_id text;
    period timestamp;
    cols text;              -- the parent's columns that can be inserted
    n bigint;
    moved bigint;
    cutoff timestamptz;
    msg text;
    detail text;
BEGIN
    -- A standby cannot change anything and needs nothing: what its primary
    -- does reaches it by WAL.
    IF pg_is_in_recovery() THEN
        RETURN;
    END IF;

    IF parent IS NULL OR retention_action IS NULL OR batch_size IS NULL OR as_of IS NULL THEN
        RAISE EXCEPTION 'uid_maintain_partitions: parent, retention_action, batch_size and as_of must not be null'
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'A null premake creates no partition ahead; a null retention keeps every partition.';
    END IF;
    IF premake < 0 THEN
        RAISE EXCEPTION 'premake must not be negative, not %', premake
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'It is the number of periods after the current one that get a partition; 0 makes the current period''s alone.';
    END IF;
    IF retention <= interval '0' THEN
        RAISE EXCEPTION 'retention must be positive, not %', retention
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF retention_action NOT IN ('detach', 'drop') THEN
        RAISE EXCEPTION 'invalid retention action: "%"', retention_action
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The retention action is detach or drop.';
    END IF;
    IF batch_size < 1 THEN
        RAISE EXCEPTION 'batch_size must be at least 1, not %', batch_size
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- with IntervalStyle postgres, so that '30 days' is not a month
    unit := CASE width::text WHEN '1 day' THEN 'day' WHEN '7 days' THEN 'week'
                             WHEN '1 mon' THEN 'month' WHEN '1 year' THEN 'year' END;
    IF width IS NOT NULL AND unit IS NULL THEN
        RAISE EXCEPTION 'invalid partition width: %', width
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'The width is 1 day, 1 week, 1 month or 1 year.';
    END IF;

    SELECT ns.nspname INTO STRICT nsp
    FROM pg_extension ext JOIN pg_namespace ns ON ns.oid = ext.extnamespace
    WHERE ext.extname = 'uid';
    EXECUTE format('SELECT key_column, key_type FROM %1$I.uid_partition_key(true::%1$I.uid_internal_call, $1)', nsp)
        INTO key_name, typ USING parent;
    key_typ := format('%I.%I', nsp, typ)::regtype;
    SELECT n.nspname, c.relname, c.relowner INTO STRICT rel_nsp, rel_name, rel_owner
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.oid = parent;
    -- (uid_maintain_partitions(regclass, ...) has switched to the owner)
    IF rel_owner <> current_user::regrole THEN
        RAISE EXCEPTION 'uid_maintain_partitions(uid_internal_call, ...) must run as the owner of "%"', parent
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'Call uid_maintain_partitions(regclass, ...).';
    END IF;
    -- one maintenance of a table at a time, as in uid_create_partitions()
    EXECUTE format('LOCK TABLE ONLY %I.%I IN SHARE UPDATE EXCLUSIVE MODE', rel_nsp, rel_name);

    boundary := format('SELECT %1$I.uid_partition_boundary(true::%1$I.uid_internal_call, $3, $1), '
                       '%1$I.uid_partition_boundary(true::%1$I.uid_internal_call, $3, $2)', nsp);
    -- Every partition but the default, with its bounds as the key type's
    -- text (null for MINVALUE and MAXVALUE) and as times, newest first; and
    -- whether all its IDs were made before $2 ($3: the key's type).
    bounds := format($q$
        SELECT p.part, p.lo, p.hi, %1$I.uid_partition_time(true::%1$I.uid_internal_call, $3, p.lo) AS lo_time,
               %1$I.uid_partition_time(true::%1$I.uid_internal_call, $3, p.hi) AS hi_time,
               p.hi::%1$I.%2$I OPERATOR(%1$I.<=)
                   %1$I.uid_partition_boundary(true::%1$I.uid_internal_call, $3, $2)::%1$I.%2$I AS retired
        FROM (SELECT c.oid::regclass AS part,
                     CASE WHEN m[1] LIKE '''%%' THEN replace(substr(m[1], 2, length(m[1]) - 2), '''''', '''') END AS lo,
                     CASE WHEN m[2] LIKE '''%%' THEN replace(substr(m[2], 2, length(m[2]) - 2), '''''', '''') END AS hi
              FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid,
                   regexp_match(pg_get_expr(c.relpartbound, c.oid), '^FOR VALUES FROM \((.*)\) TO \((.*)\)$') m
              WHERE i.inhparent = $1 AND m IS NOT NULL) p
        ORDER BY p.hi::%1$I.%2$I DESC NULLS FIRST$q$, nsp, typ);

    SELECT pt.partdefid::regclass INTO def
    FROM pg_partitioned_table pt WHERE pt.partrelid = parent AND pt.partdefid <> 0;
    IF def IS NOT NULL THEN
        -- The owner reads the default and moves its rows: a default
        -- partition of another role (ALTER TABLE ... OWNER TO does not
        -- reach partitions) it may not read or delete from.
        def_denied := NOT has_table_privilege(def, 'SELECT');
        IF NOT def_denied THEN
            -- (a select list: Citus plans no empty one on a distributed table)
            EXECUTE format('SELECT EXISTS (SELECT 1 FROM ONLY %s WHERE %I IS NOT NULL)', def, key_name) INTO has_rows;
            def_denied := has_rows AND NOT has_table_privilege(def, 'DELETE');
        END IF;
        IF def_denied THEN
            RAISE EXCEPTION 'permission denied for table %', def
                USING ERRCODE = 'insufficient_privilege',
                      DETAIL = format('The default partition belongs to %s; partition maintenance runs as the owner of "%s", %s.',
                                      (SELECT c.relowner::regrole FROM pg_class c WHERE c.oid = def), parent, rel_owner::regrole),
                      HINT = format('Give the partition to the table''s owner: ALTER TABLE %s OWNER TO %s;', def, rel_owner::regrole);
        END IF;
    END IF;
    -- A table Citus distributes has its rows on the workers, where a row's
    -- ctid names no row of the table: its rows move a period at a time.
    IF to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL THEN
        EXECUTE 'SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_dist_partition WHERE logicalrelid = $1)'
            INTO distributed USING parent;
    END IF;

    -- The width of the newest partition, where none is given and one is
    -- needed.
    IF unit IS NULL AND (premake IS NOT NULL OR has_rows) THEN
        EXECUTE bounds || ' LIMIT 1' INTO newest USING parent, NULL::timestamptz, key_typ;
        IF newest.lo IS NOT NULL AND newest.hi IS NOT NULL THEN
            FOREACH unit IN ARRAY ARRAY['day', 'week', 'month', 'year'] LOOP
                width := CASE unit WHEN 'week' THEN interval '7 days' ELSE ('1 ' || unit)::interval END;
                cand := date_trunc(unit, newest.lo_time AT TIME ZONE 'UTC');
                EXECUTE boundary INTO lo_id, hi_id USING cand AT TIME ZONE 'UTC', (cand + width) AT TIME ZONE 'UTC', key_typ;
                EXIT WHEN lo_id = newest.lo AND hi_id = newest.hi;
                unit := NULL;
            END LOOP;
        END IF;
        IF unit IS NULL THEN
            RAISE EXCEPTION 'cannot infer the partition width of "%"', parent
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = CASE WHEN newest IS NULL THEN 'The table has no partition but the default.'
                                    ELSE format('Its newest partition, %s, has %s, which is not a whole UTC day, ISO week, month or year.',
                                                newest.part, pg_get_expr((SELECT c.relpartbound FROM pg_class c WHERE c.oid = newest.part),
                                                                         newest.part)) END,
                      HINT = 'Give the width: width => ''1 month'' (or ''1 day'', ''1 week'', ''1 year'').';
        END IF;
    END IF;

    -- 1. The default's rows, period by period.
    IF has_rows THEN
        -- Moving a row is a DELETE and an INSERT: the ON DELETE action of a
        -- foreign key that references the rows would act on the DELETE
        -- (CASCADE deletes the referencing rows, SET NULL nulls them), in
        -- tables that may be another role's.  A key references them when it
        -- references the table (its clones reference each partition), the
        -- default partition, or a partition of the default; one that
        -- references another partition is untouched, since no row of that
        -- partition moves.  Refused before any row moves; the key is its
        -- own (conparentid 0), not a clone of one, so that it can be named
        -- and dropped.
        SELECT k.oid, k.conname, k.conrelid::regclass AS tab, k.confrelid::regclass AS target,
               count(*) OVER () AS keys
        INTO fk
        FROM pg_constraint k
        WHERE k.contype = 'f' AND k.conparentid = 0
          AND (k.confrelid = parent OR k.confrelid IN (SELECT t.relid FROM pg_partition_tree(def) t))
        ORDER BY k.confrelid = parent, k.conrelid::regclass::text, k.conname
        LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'cannot move rows out of the default partition of "%"', parent
                USING ERRCODE = 'feature_not_supported',
                      DETAIL = format('The partition %s holds rows of periods without a partition, and the foreign key %I of %s references %s%s: moving a row deletes it and inserts it again, which would fire the key''s ON DELETE action.',
                                      def, fk.conname, fk.tab, CASE WHEN fk.target = parent THEN format('"%s"', parent) ELSE fk.target::text END,
                                      CASE fk.keys WHEN 1 THEN '' ELSE format(' (one of %s such keys)', fk.keys) END),
                      HINT = CASE WHEN fk.target = parent
                                  THEN format('In one transaction, drop the key, run the maintenance and add the key again: ALTER TABLE %s DROP CONSTRAINT %I; ... ALTER TABLE %s ADD CONSTRAINT %I %s;',
                                              fk.tab, fk.conname, fk.tab, fk.conname, pg_get_constraintdef(fk.oid))
                                  ELSE format('A key to the default partition cannot follow rows that move out of it. In one transaction, drop the key (ALTER TABLE %s DROP CONSTRAINT %I;), run the maintenance, and add the key again referencing "%s"; or detach the default partition, with its rows and the key.',
                                              fk.tab, fk.conname, parent) END;
        END IF;
        EXECUTE format('LOCK TABLE ONLY %I.%I IN ACCESS EXCLUSIVE MODE', rel_nsp, rel_name);
        SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO cols
        FROM pg_attribute a
        WHERE a.attrelid = parent AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '';
        -- (pg_temp.uid_partition_moving, the staging table, has the
        -- default's columns: uid_internal_enter_as_owner_staging made it)
        IF to_regclass('pg_temp.uid_partition_moving') IS NULL THEN
            RAISE EXCEPTION 'the staging table pg_temp.uid_partition_moving is missing'
                USING ERRCODE = 'internal_error',
                      HINT = 'Call uid_maintain_partitions(regclass, ...).';
        END IF;
        FOR period IN EXECUTE format('SELECT DISTINCT date_trunc(%L, %I.uid_partition_time(true::%I.uid_internal_call, $1, %I::text) AT TIME ZONE ''UTC'') FROM ONLY %s WHERE %I IS NOT NULL ORDER BY 1',
                                     unit, nsp, nsp, key_name, def, key_name) USING key_typ LOOP
            EXECUTE boundary INTO lo_id, hi_id USING period AT TIME ZONE 'UTC', (period + width) AT TIME ZONE 'UTC', key_typ;
            moved := 0;
            LOOP
                EXECUTE format($q$
                    WITH moved AS (
                        DELETE FROM ONLY %1$s WHERE %5$s
                            %2$I OPERATOR(%3$I.>=) $1::%3$I.%4$I AND %2$I OPERATOR(%3$I.<) $2::%3$I.%4$I
                            %6$s
                        RETURNING *)
                    INSERT INTO pg_temp.uid_partition_moving SELECT * FROM moved$q$, def, key_name, nsp, typ,
                    CASE WHEN distributed THEN '' ELSE format('ctid = ANY (ARRAY(SELECT ctid FROM ONLY %s WHERE', def) END,
                    CASE WHEN distributed THEN '' ELSE 'LIMIT $3))' END)
                    USING lo_id, hi_id, batch_size;
                GET DIAGNOSTICS n = ROW_COUNT;
                moved := moved + n;
                EXIT WHEN n = 0 OR distributed;
            END LOOP;
            -- (the period has no partition: the default could not hold its
            -- rows otherwise)
            FOR r IN EXECUTE format('SELECT * FROM %1$I.uid_create_partitions(true::%1$I.uid_internal_call, $1, 1, $2, $3)', nsp)
                     USING parent, period AT TIME ZONE 'UTC', width LOOP
                action := 'create'; partition := r.partition::text;
                from_time := r.from_time; to_time := r.to_time;
                RETURN NEXT;
            END LOOP;
            LOOP
                EXECUTE format($q$
                    WITH batch AS (
                        DELETE FROM pg_temp.uid_partition_moving WHERE ctid = ANY (ARRAY(
                            SELECT ctid FROM pg_temp.uid_partition_moving LIMIT $1))
                        RETURNING *)
                    INSERT INTO %1$I.%2$I (%3$s) OVERRIDING SYSTEM VALUE SELECT %3$s FROM batch$q$,
                    rel_nsp, rel_name, cols)
                    USING batch_size;
                GET DIAGNOSTICS n = ROW_COUNT;
                EXIT WHEN n = 0;
            END LOOP;
            action := 'move'; rows_moved := moved;
            from_time := period AT TIME ZONE 'UTC'; to_time := (period + width) AT TIME ZONE 'UTC';
            RETURN NEXT;
            rows_moved := NULL;
        END LOOP;
    END IF;

    -- 2. Premake: the current period and premake more.
    IF premake IS NOT NULL THEN
        FOR r IN EXECUTE format('SELECT * FROM %1$I.uid_create_partitions(true::%1$I.uid_internal_call, $1, $2, $3, $4)', nsp)
                 USING parent, premake + 1, as_of, width LOOP
            action := 'create'; partition := r.partition::text;
            from_time := r.from_time; to_time := r.to_time;
            RETURN NEXT;
        END LOOP;
    END IF;

    -- 3. Retention, oldest first.  Periods are UTC's, as everywhere here.
    IF retention IS NOT NULL THEN
        cutoff := ((as_of AT TIME ZONE 'UTC') - retention) AT TIME ZONE 'UTC';
        FOR r IN EXECUTE 'SELECT * FROM (' || bounds || ') b WHERE b.retired ORDER BY b.hi_time'
                 USING parent, cutoff, key_typ LOOP
            action := retention_action; partition := r.part::text;
            from_time := r.lo_time; to_time := r.hi_time;
            BEGIN
                IF retention_action = 'detach' THEN
                    EXECUTE format('ALTER TABLE %I.%I DETACH PARTITION %s', rel_nsp, rel_name, r.part);
                ELSE
                    EXECUTE format('DROP TABLE %s', r.part);
                END IF;
            EXCEPTION WHEN insufficient_privilege THEN
                -- a partition of another role: made by hand, or by uid 0.6.0,
                -- whose maintenance ran as its caller
                GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT;
                RAISE EXCEPTION '%', msg
                    USING ERRCODE = 'insufficient_privilege',
                          DETAIL = format('Partition maintenance runs as the owner of "%s", %s.', parent, rel_owner::regrole),
                          HINT = format('Give the partition to the table''s owner: ALTER TABLE %s OWNER TO %s;', r.part, rel_owner::regrole);
            WHEN dependent_objects_still_exist OR foreign_key_violation THEN
                -- PostgreSQL refuses to drop a partition that a foreign key
                -- (or a view) depends on, and to detach one whose rows a key
                -- to the table still references: no row is deleted.  Its
                -- hint, DROP ... CASCADE, would drop the key.
                GET STACKED DIAGNOSTICS msg = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL;
                RAISE EXCEPTION '%', msg
                    USING ERRCODE = SQLSTATE,
                          DETAIL = detail || E'\nRetention never drops what depends on a partition, nor a row that a foreign key references.',
                          HINT = CASE WHEN retention_action = 'drop'
                                      THEN 'Retire it with retention_action => ''detach'', then drop the detached table once no key references it.'
                                      ELSE 'Delete the referencing rows first, or keep the partition longer.' END;
            END;
            RETURN NEXT;
        END LOOP;
    END IF;
END
$$;
COMMENT ON FUNCTION uid_maintain_partitions(uid_internal_call, regclass, integer, interval, text, interval, integer, timestamptz) IS
'internal: the implementation of uid_maintain_partitions(regclass, integer, interval, text, interval, integer, timestamptz), run as the table''s owner';
