-- The extension installs cleanly and owns what it should.
CREATE EXTENSION uid;
SELECT extversion FROM pg_extension WHERE extname = 'uid';
-- and the replication origin uid_fence, which keeps the generators' lease in
-- WAL (the server's, not one of the extension's objects)
SELECT pg_replication_origin_oid('uid_fence') IS NOT NULL AS fence_origin;
-- Everything the extension creates carries a comment.
SELECT pg_describe_object(classid, objid, 0) AS uncommented
FROM pg_depend d
WHERE refclassid = 'pg_extension'::regclass
  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'uid')
  AND deptype = 'e'
  AND obj_description(objid, classid::regclass::text) IS NULL
  AND classid <> 'pg_cast'::regclass
  AND classid <> 'pg_operator'::regclass
  AND classid <> 'pg_opfamily'::regclass
  -- the array types and tables' row types (members since PostgreSQL 17) are
  -- described by their element types and tables
  AND NOT (classid = 'pg_type'::regclass AND
           (SELECT typcategory = 'A' OR typrelid <> 0 FROM pg_type WHERE oid = objid))
ORDER BY 1;
-- Helper: run a statement, report its SQLSTATE and message instead of failing.
CREATE FUNCTION uid_try(stmt text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE stmt;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
-- Helper: EXPLAIN (COSTS OFF, and any other options) made the same on every
-- major: the way a plan names an InitPlan ("InitPlan 1" before 19, "InitPlan
-- expr_1" or "minmax_1" since) and its result ("$0" before 17, "(InitPlan
-- 1).col1" since), without 18's "Disabled: true" lines, 19's "Replaces:"
-- lines, or the row counts of ANALYZE.
CREATE FUNCTION uid_explain(query text, options text DEFAULT '') RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (COSTS OFF' || options || ') ' || query LOOP
        CONTINUE WHEN line ~ '^\s*(Disabled: true|Replaces: .*)$';
        line := regexp_replace(line, ' \(actual rows=[0-9.]+ loops=\d+\)', '');
        line := regexp_replace(line, ' \(returns \$\d+(,\$\d+)*\)', '', 'g');
        line := regexp_replace(line, '\(InitPlan (\w+_)?\d+\)\.col\d+|\$\d+', '<initplan result>', 'g');
        RETURN NEXT regexp_replace(line, 'InitPlan [a-z]+_(\d+)', 'InitPlan \1', 'g');
    END LOOP;
END $$;
