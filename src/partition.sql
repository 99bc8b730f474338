-- uid: partitions by time (see doc/partitioning.md)
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

-- The ID column a table is range-partitioned on, and its type: what both
-- functions below start from.  Each reason a table cannot be partitioned by
-- an ID's time is its own error.

CREATE FUNCTION uid_partition_key(parent regclass, OUT key_column name, OUT key_type name)
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

    SELECT c.relkind INTO STRICT rel_kind FROM pg_class c WHERE c.oid = parent;
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
      AND t.typname IN ('sno', 'muid', 'snowflake_si', 'revts8', 'uid60');
    IF key_type IS NULL THEN
        RAISE EXCEPTION 'the partition key "%" of "%" is of type %, not an ID type of uid', key_column, parent,
                format_type(key_typid, NULL)
            USING ERRCODE = 'datatype_mismatch',
                  HINT = 'The ID types are sno, muid, snowflake_si, revts8 and uid60.';
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
COMMENT ON FUNCTION uid_partition_key(regclass) IS
'the column and ID type a table is range-partitioned on, in the time order of the type; an error says why a table cannot be partitioned by an ID''s time';

CREATE FUNCTION uid_create_partitions(parent regclass, count integer DEFAULT 3,
                                      start timestamptz DEFAULT now(),
                                      width interval DEFAULT '1 month')
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
    EXECUTE format('SELECT key_column, key_type FROM %I.uid_partition_key($1)', nsp)
        INTO key_name, typ USING parent;
    SELECT n.nspname, c.relname, c.relowner INTO STRICT rel_nsp, rel_name, rel_owner
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.oid = parent;
    -- what CREATE TABLE ... PARTITION OF would say, before the lock below
    -- (which a role without privileges on the table cannot take)
    IF NOT pg_has_role(rel_owner, 'USAGE') THEN
        RAISE EXCEPTION 'must be owner of table %', rel_name
            USING ERRCODE = 'insufficient_privilege';
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

