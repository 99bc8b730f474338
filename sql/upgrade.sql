-- ALTER EXTENSION uid UPDATE from every released version gives exactly what
-- a fresh install of the current version has: the same objects, definitions
-- and comments.  IDs stored under the old version keep working.
SET TimeZone = 'UTC';
SELECT name, version FROM pg_available_extension_versions WHERE name = 'uid' ORDER BY version;
SELECT source, target, path FROM pg_extension_update_paths('uid') WHERE path IS NOT NULL ORDER BY 1, 2;

-- what an installation consists of, independent of OIDs
CREATE FUNCTION pg_temp.uid_objects() RETURNS TABLE (kind text, object text, detail text)
LANGUAGE sql AS $$
    WITH members AS (
        SELECT classid, objid FROM pg_depend
        WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
          AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uid'))
    SELECT 'member', pg_describe_object(classid, objid, 0),
           coalesce(obj_description(objid, classid::regclass::text), '(no comment)')
    FROM members
    UNION ALL
    SELECT 'function', p.oid::regprocedure::text,
           concat_ws(' ', p.prokind, p.provolatile, p.proparallel, p.proisstrict, p.proleakproof,
                     p.prorettype::regtype, p.prosrc, p.probin, p.proretset,
                     pg_get_function_arguments(p.oid), pg_get_function_result(p.oid),
                     p.prosecdef, p.proconfig::text, pg_get_function_sqlbody(p.oid))
    FROM members m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
    UNION ALL
    -- privileges, as they are and as pg_dump takes them for the extension's
    SELECT 'acl', pg_describe_object(m.classid, m.objid, 0),
           coalesce(CASE m.classid
                        WHEN 'pg_proc'::regclass THEN (SELECT p.proacl::text FROM pg_proc p WHERE p.oid = m.objid)
                        WHEN 'pg_class'::regclass THEN (SELECT c.relacl::text FROM pg_class c WHERE c.oid = m.objid)
                        WHEN 'pg_type'::regclass THEN (SELECT t.typacl::text FROM pg_type t WHERE t.oid = m.objid)
                    END, '(default)')
    FROM members m WHERE m.classid IN ('pg_proc'::regclass, 'pg_class'::regclass, 'pg_type'::regclass)
    UNION ALL
    SELECT 'initial privileges', pg_describe_object(i.classoid, i.objoid, i.objsubid),
           i.privtype::text || ' ' || i.initprivs::text
    FROM members m JOIN pg_init_privs i ON i.classoid = m.classid AND i.objoid = m.objid
    UNION ALL
    -- tables: columns, constraints, indexes
    SELECT 'table', c.oid::regclass::text,
           concat_ws(' ', c.relkind, c.relpersistence, c.relrowsecurity, c.relforcerowsecurity,
                     c.reloptions::text)
    FROM members m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
    UNION ALL
    SELECT 'column', c.oid::regclass || '.' || a.attname,
           concat_ws(' ', a.attnum, format_type(a.atttypid, a.atttypmod), a.attnotnull,
                     pg_get_expr(d.adbin, d.adrelid), a.attacl::text,
                     coalesce(col_description(c.oid, a.attnum), '(no comment)'))
    FROM members m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
    UNION ALL
    SELECT 'constraint', c.oid::regclass || ' ' || k.conname, pg_get_constraintdef(k.oid)
    FROM members m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
    JOIN pg_constraint k ON k.conrelid = c.oid
    UNION ALL
    SELECT 'index', i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid)
    FROM members m JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
    JOIN pg_index i ON i.indrelid = c.oid
    UNION ALL
    -- the tables whose rows pg_dump keeps (pg_extension_config_dump)
    SELECT 'extension', e.extname,
           concat_ws(' ', e.extrelocatable,
                     (SELECT string_agg(x.cfg::regclass || ' ' || quote_literal(x.cond), ', ' ORDER BY x.cfg::regclass::text)
                      FROM unnest(e.extconfig, e.extcondition) x (cfg, cond)))
    FROM pg_extension e WHERE e.extname = 'uid'
    UNION ALL
    SELECT 'aggregate', a.aggfnoid::regprocedure::text,
           concat_ws(' ', a.aggtransfn, a.aggcombinefn, a.aggsortop::regoperator, a.aggtranstype::regtype)
    FROM members m JOIN pg_aggregate a ON m.classid = 'pg_proc'::regclass AND a.aggfnoid = m.objid
    UNION ALL
    SELECT 'type', t.typname,
           concat_ws(' ', t.typlen, t.typbyval, t.typalign, t.typstorage, t.typinput, t.typoutput,
                     t.typreceive, t.typsend, t.typcategory)
    FROM members m JOIN pg_type t ON m.classid = 'pg_type'::regclass AND t.oid = m.objid
    UNION ALL
    SELECT 'operator', o.oid::regoperator::text,
           concat_ws(' ', o.oprcode, o.oprcom::regoperator, o.oprnegate::regoperator,
                     o.oprrest, o.oprjoin, o.oprcanmerge, o.oprcanhash)
    FROM members m JOIN pg_operator o ON m.classid = 'pg_operator'::regclass AND o.oid = m.objid
    UNION ALL
    SELECT 'opclass', c.opcname || ' ' || am.amname,
           concat_ws(' ', c.opcdefault, c.opcintype::regtype,
                     (SELECT string_agg(ao.amopstrategy || ':' || ao.amopopr::regoperator, ',' ORDER BY ao.amopstrategy)
                      FROM pg_amop ao WHERE ao.amopfamily = c.opcfamily),
                     (SELECT string_agg(ap.amprocnum || ':' || ap.amproc::regprocedure, ',' ORDER BY ap.amprocnum)
                      FROM pg_amproc ap WHERE ap.amprocfamily = c.opcfamily))
    FROM members m JOIN pg_opclass c ON m.classid = 'pg_opclass'::regclass AND c.oid = m.objid
    JOIN pg_am am ON am.oid = c.opcmethod
    UNION ALL
    SELECT 'cast', format_type(c.castsource, NULL) || ' -> ' || format_type(c.casttarget, NULL),
           concat_ws(' ', c.castfunc::regprocedure, c.castcontext, c.castmethod)
    FROM members m JOIN pg_cast c ON m.classid = 'pg_cast'::regclass AND c.oid = m.objid
$$;

-- The replication origin uid_fence (the generators' lease, 0.3.0) is the
-- server's, not the extension's: DROP EXTENSION leaves it.  It is dropped
-- here before each old version is installed, so that the update must make it.
DROP EXTENSION uid;
SELECT pg_replication_origin_oid('uid_fence') IS NOT NULL AS fence_origin_kept;

-- 0.1.0 -> current
SELECT pg_replication_origin_drop('uid_fence');
CREATE EXTENSION uid VERSION '0.1.0';
SELECT pg_replication_origin_oid('uid_fence') IS NOT NULL AS fence_origin;
-- IDs made and stored under 0.1.0
CREATE TABLE kept (s sno, f snowflake_si, r revts8);
INSERT INTO kept VALUES ('brpk4q72xwf2m63l', '5170397184000256', 'cb54ecf284000000');
CREATE INDEX kept_s ON kept (s);
ALTER EXTENSION uid UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'uid';
SELECT pg_replication_origin_oid('uid_fence') IS NOT NULL AS fence_origin;
SELECT s, f, r, min(s) OVER () AS min_s, sno_timestamp(s) FROM kept;
SET enable_seqscan = off;
SELECT count(*) FROM kept WHERE s = 'brpk4q72xwf2m63l';
RESET enable_seqscan;
CREATE TEMP TABLE upgraded_0_1_0 AS SELECT * FROM pg_temp.uid_objects();
DROP TABLE kept;
DROP EXTENSION uid;

-- 0.2.0 -> current
SELECT pg_replication_origin_drop('uid_fence');
CREATE EXTENSION uid VERSION '0.2.0';
SELECT pg_replication_origin_oid('uid_fence') IS NOT NULL AS fence_origin;
-- IDs made and stored under 0.2.0, of every type
CREATE TABLE kept (s sno, m muid, f snowflake_si, r revts8, u uid60);
INSERT INTO kept VALUES ('brpk4q72xwf2m63l', muid_from_parts('2024-06-01 12:00:00Z', 42, 7),
                         '5170397184000256', 'cb54ecf284000000', uid60_from_parts('2024-06-01Z', 5, 6, 7));
CREATE INDEX kept_m ON kept (m);
CREATE INDEX kept_u ON kept (u);
CREATE TEMP TABLE kept_text AS SELECT s::text, m::text, f::text, r::text, u::text FROM kept;
ALTER EXTENSION uid UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'uid';
SELECT pg_replication_origin_oid('uid_fence') IS NOT NULL AS fence_origin;
SELECT (SELECT ROW(s::text, m::text, f::text, r::text, u::text) FROM kept)
       = (SELECT ROW(s, m, f, r, u) FROM kept_text) AS same_text,
       muid_timestamp(m), muid_medallion(m), muid_offset(m), uid60_worker(u), min(m) OVER () = m AS min_m
FROM kept;
SET enable_seqscan = off;
SELECT count(*) FROM kept WHERE m = muid_from_parts('2024-06-01 12:00:00Z', 42, 7);
SELECT count(*) FROM kept WHERE u = uid60_from_parts('2024-06-01Z', 5, 6, 7);
RESET enable_seqscan;
CREATE TEMP TABLE upgraded_0_2_0 AS SELECT * FROM pg_temp.uid_objects();
DROP TABLE kept;
DROP EXTENSION uid;

-- 0.3.0 -> current
\set from 0.3.0
\set tbl upgraded_0_3_0
\i sql/upgrade_from.sql

-- 0.4.0 -> current
\set from 0.4.0
\set tbl upgraded_0_4_0
\i sql/upgrade_from.sql

-- 0.5.0 -> current
\set from 0.5.0
\set tbl upgraded_0_5_0
\i sql/upgrade_from.sql

-- 0.6.0 -> current
\set from 0.6.0
\set tbl upgraded_0_6_0
\i sql/upgrade_from.sql

-- a fresh install makes the origin if it is missing, and keeps it if not
SELECT pg_replication_origin_drop('uid_fence');
CREATE EXTENSION uid;
SELECT pg_replication_origin_oid('uid_fence') IS NOT NULL AS fence_origin;
DROP EXTENSION uid;
SELECT pg_replication_origin_oid('uid_fence') AS origin \gset
CREATE EXTENSION uid;
SELECT pg_replication_origin_oid('uid_fence') = :origin AS same_origin;
CREATE TEMP TABLE fresh AS SELECT * FROM pg_temp.uid_objects();
SELECT count(*) > 300 AS many_objects FROM fresh;
-- in a fresh install and not after an update, and the other way round
SELECT 'missing after update from 0.1.0' AS problem, * FROM (TABLE fresh EXCEPT TABLE upgraded_0_1_0) a
UNION ALL
SELECT 'only after update from 0.1.0', * FROM (TABLE upgraded_0_1_0 EXCEPT TABLE fresh) b
UNION ALL
SELECT 'missing after update from 0.2.0', * FROM (TABLE fresh EXCEPT TABLE upgraded_0_2_0) c
UNION ALL
SELECT 'only after update from 0.2.0', * FROM (TABLE upgraded_0_2_0 EXCEPT TABLE fresh) d
UNION ALL
SELECT 'missing after update from 0.3.0', * FROM (TABLE fresh EXCEPT TABLE upgraded_0_3_0) e
UNION ALL
SELECT 'only after update from 0.3.0', * FROM (TABLE upgraded_0_3_0 EXCEPT TABLE fresh) f
UNION ALL
SELECT 'missing after update from 0.4.0', * FROM (TABLE fresh EXCEPT TABLE upgraded_0_4_0) g
UNION ALL
SELECT 'only after update from 0.4.0', * FROM (TABLE upgraded_0_4_0 EXCEPT TABLE fresh) h
UNION ALL
SELECT 'missing after update from 0.5.0', * FROM (TABLE fresh EXCEPT TABLE upgraded_0_5_0) i
UNION ALL
SELECT 'only after update from 0.5.0', * FROM (TABLE upgraded_0_5_0 EXCEPT TABLE fresh) j
UNION ALL
SELECT 'missing after update from 0.6.0', * FROM (TABLE fresh EXCEPT TABLE upgraded_0_6_0) k
UNION ALL
SELECT 'only after update from 0.6.0', * FROM (TABLE upgraded_0_6_0 EXCEPT TABLE fresh) l
ORDER BY 1, 2, 3;

-- The comparison sees what the pool's objects depend on: a privilege, SECURITY
-- DEFINER, a pinned search_path, a default or a constraint that an update
-- left out would show.  (Changed here in the fresh install, then put back by
-- installing it again.)
GRANT EXECUTE ON FUNCTION uid_pool_claim(text, integer, text, interval) TO PUBLIC;
ALTER FUNCTION uid_pool_renew(text, integer, bigint, interval) SECURITY INVOKER;
ALTER FUNCTION uid_pool_release(text, integer, bigint) RESET search_path;
ALTER TABLE uid_pool ALTER COLUMN claims DROP DEFAULT;
ALTER TABLE uid_pool_lease DROP CONSTRAINT uid_pool_lease_id_check;
SELECT kind, object FROM (TABLE fresh EXCEPT SELECT * FROM pg_temp.uid_objects()) x ORDER BY 1, 2;
DROP EXTENSION uid;
CREATE EXTENSION uid;
SELECT count(*) AS differences FROM (
    (TABLE fresh EXCEPT SELECT * FROM pg_temp.uid_objects())
    UNION ALL
    (SELECT * FROM pg_temp.uid_objects() EXCEPT TABLE fresh)) x;
