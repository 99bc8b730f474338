-- ALTER EXTENSION uid UPDATE from every released version gives exactly what
-- a fresh install of the current version has: the same objects, definitions
-- and comments.  IDs stored under the old version keep working.
SET TimeZone = 'UTC';
SELECT name, version FROM pg_available_extension_versions WHERE name = 'uid' ORDER BY version;

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
                     pg_get_function_arguments(p.oid))
    FROM members m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
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

DROP EXTENSION uid;
CREATE EXTENSION uid VERSION '0.1.0';
-- IDs made and stored under 0.1.0
CREATE TABLE kept (s sno, f snowflake_si, r revts8);
INSERT INTO kept VALUES ('brpk4q72xwf2m63l', '5170397184000256', 'cb54ecf284000000');
CREATE INDEX kept_s ON kept (s);
ALTER EXTENSION uid UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'uid';
SELECT s, f, r, min(s) OVER () AS min_s, sno_timestamp(s) FROM kept;
SET enable_seqscan = off;
SELECT count(*) FROM kept WHERE s = 'brpk4q72xwf2m63l';
RESET enable_seqscan;
CREATE TEMP TABLE upgraded AS SELECT * FROM pg_temp.uid_objects();
DROP TABLE kept;
DROP EXTENSION uid;
CREATE EXTENSION uid;
CREATE TEMP TABLE fresh AS SELECT * FROM pg_temp.uid_objects();
SELECT count(*) > 300 AS many_objects FROM fresh;
-- in a fresh install and not after the upgrade, and the other way round
SELECT 'missing after upgrade' AS problem, * FROM (TABLE fresh EXCEPT TABLE upgraded) a
UNION ALL
SELECT 'only after upgrade', * FROM (TABLE upgraded EXCEPT TABLE fresh) b
ORDER BY 1, 2, 3;
