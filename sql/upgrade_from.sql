-- One update to the current version, which upgrade.sql includes (\i, from
-- the build directory, where pg_regress runs psql) for each of
-- 0.3.0, 0.4.0, 0.5.0 and 0.6.0 (psql variables from and tbl): an index kept,
-- the objects recorded in :tbl for the comparison with a fresh install.
CREATE EXTENSION uid VERSION :'from';
CREATE TABLE kept (s sno, m muid, f snowflake_si, r revts8, u uid60);
INSERT INTO kept VALUES ('brpk4q72xwf2m63l', muid_from_parts('2024-06-01 12:00:00Z', 42, 7),
                         '5170397184000256', 'cb54ecf284000000', uid60_from_parts('2024-06-01Z', 5, 6, 7));
CREATE INDEX kept_s ON kept (s);
ALTER EXTENSION uid UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'uid';
SET enable_seqscan = off;
SELECT count(*) FROM kept WHERE s = 'brpk4q72xwf2m63l';
RESET enable_seqscan;
CREATE TEMP TABLE :tbl AS SELECT * FROM pg_temp.uid_objects();
DROP TABLE kept;
DROP EXTENSION uid;
