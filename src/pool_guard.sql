-- uid: where the coordinator's pools were last written, and their hold
-- (new in 0.7.0; see uid_pool_prepare() in pool_functions.sql).
--
-- One row: written by the install (where the extension was created), then
-- by every claim and renewal of any pool (where it was written, whether a
-- synchronous standby waited for it, the longest time to live given, the
-- hold).  pg_dump keeps it, so that a dump restored elsewhere brings the
-- row of where it was taken beside the one its own CREATE EXTENSION wrote,
-- and the first claim or renewal after the restore finds the pools were
-- written elsewhere, even a dump taken before the first claim.
-- pg_upgrade brings the old cluster's row alone.

-- Where a pool is being written: this cluster's system identifier and this
-- database, as text, and the timeline WAL is inserted on (src/pool.c).
CREATE FUNCTION uid_pool_place(call uid_internal_call, OUT place text, OUT timeline bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_pool_place'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION uid_pool_place(uid_internal_call) IS
'internal: the cluster and database the pools are being written in ("system N database M"), and the timeline';
REVOKE EXECUTE ON FUNCTION uid_pool_place(uid_internal_call) FROM PUBLIC;

CREATE TABLE uid_pool_guard (
    written_in text NOT NULL,
    written_timeline bigint NOT NULL,
    written_synced boolean NOT NULL,
    max_ttl interval NOT NULL DEFAULT '0',
    hold_until timestamptz,
    hold_why text,
    token_floor bigint NOT NULL DEFAULT 0
);
COMMENT ON TABLE uid_pool_guard IS
'where this coordinator''s pools were last written, and their hold: one row, more right after a restore; kept by pg_dump';
COMMENT ON COLUMN uid_pool_guard.written_in IS 'the cluster (system identifier) and database of the install or the last claim or renewal';
COMMENT ON COLUMN uid_pool_guard.written_timeline IS 'the timeline it was written on';
COMMENT ON COLUMN uid_pool_guard.written_synced IS 'whether it waited for a synchronous standby';
COMMENT ON COLUMN uid_pool_guard.max_ttl IS 'the longest time to live a claim or renewal of any pool was given';
COMMENT ON COLUMN uid_pool_guard.hold_until IS 'no pool hands out an id before it: they were found written elsewhere before (restored, copied, a standby promoted); null if never';
COMMENT ON COLUMN uid_pool_guard.hold_why IS 'where the pools were found written before, when hold_until was set';
COMMENT ON COLUMN uid_pool_guard.token_floor IS 'where a pool made from now on starts its count of claims: past every token a history the coordinator lost may have given (0 until a hold)';
SELECT pg_catalog.pg_extension_config_dump('uid_pool_guard', '');
REVOKE ALL ON TABLE uid_pool_guard FROM PUBLIC;
-- It has no key (its rows are told apart by ctid): a publication that takes
-- it (FOR ALL TABLES) publishes its updates and deletes with the whole row,
-- rather than refusing every claim and renewal of a coordinator it publishes.
ALTER TABLE uid_pool_guard REPLICA IDENTITY FULL;

INSERT INTO uid_pool_guard (written_in, written_timeline, written_synced, max_ttl)
SELECT p.place, p.timeline, pg_catalog.current_setting('synchronous_standby_names') <> '',
       coalesce((SELECT max(l.expires_at - l.renewed_at) FROM uid_pool_lease l), '0')
FROM uid_pool_place(true::uid_internal_call) p;
