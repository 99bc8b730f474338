-- uid: where a pool was last written, and its hold (new in 0.7.0; see
-- uid_pool_prepare() in pool_functions.sql).  Added to the table of 0.6.0
-- by the fresh install and by the update alike.

ALTER TABLE uid_pool
    ADD COLUMN max_ttl interval NOT NULL DEFAULT '0',
    ADD COLUMN written_in text,
    ADD COLUMN written_timeline bigint,
    ADD COLUMN written_synced boolean,
    ADD COLUMN hold_until timestamptz,
    ADD COLUMN hold_why text;
COMMENT ON COLUMN uid_pool.max_ttl IS 'the longest time to live a claim or renewal of the pool was given (0.6.0''s pools: their leases'' longest)';
COMMENT ON COLUMN uid_pool.written_in IS 'the cluster (system identifier) and database the last claim or renewal was written in';
COMMENT ON COLUMN uid_pool.written_timeline IS 'the timeline the last claim or renewal was written on';
COMMENT ON COLUMN uid_pool.written_synced IS 'whether the last claim or renewal waited for a synchronous standby';
COMMENT ON COLUMN uid_pool.hold_until IS 'no id is handed out before it: the pool was found written elsewhere before (restored, copied, a standby promoted); null if never';
COMMENT ON COLUMN uid_pool.hold_why IS 'where the pool was found written before, when hold_until was set';
UPDATE uid_pool p SET max_ttl = coalesce(
    (SELECT max(l.expires_at - l.renewed_at) FROM uid_pool_lease l WHERE l.pool = p.pool), '0');
