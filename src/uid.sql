-- uid: settings and counters shared by every ID type

CREATE FUNCTION uid_config(OUT name text, OUT setting text, OUT effective text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_config'
LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid_config() IS
'the uid.* settings: as set, and as the generators use them (values drawn at server start resolved)';

CREATE FUNCTION uid_stats(OUT type text, OUT issued bigint, OUT overflow_waits bigint,
                          OUT overflow_wait_us bigint, OUT clock_regressions bigint,
                          OUT tick_flips bigint)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_stats'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid_stats() IS
'per-type generator counters since the state file was created: IDs issued, waits for the next tick after a used-up sequence and the microseconds spent in them, calls that found the clock behind the last ID, tick-tock flips';

CREATE FUNCTION uid_lease(OUT lease timestamptz, OUT wal_lease timestamptz,
                          OUT last_fence timestamptz, OUT renewals bigint, OUT fences bigint)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_lease'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid_lease() IS
'the generators'' lease: no ID issued so far reaches lease (state file) or wal_lease (replication origin uid_fence, as WAL holds it); last_fence, the lease the last fence moved a type past; leases WAL-logged and fences applied since the state file was made';

-- The lease lives in a replication origin, shared by every database of the
-- server: the first CREATE EXTENSION makes it.
SELECT pg_catalog.pg_replication_origin_create('uid_fence')
WHERE pg_catalog.pg_replication_origin_oid('uid_fence') IS NULL;

CREATE FUNCTION uid_identity(OUT type text, OUT field text, OUT value bigint, OUT source text,
                             OUT pool text, OUT lease_id integer, OUT expires_at timestamptz,
                             OUT several_servers_safe boolean, OUT note text)
RETURNS SETOF record
AS 'MODULE_PATHNAME', 'uid_identity'
LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uid_identity() IS
'what each type embeds on this server now (sno partition, muid medallion, snowflake_si machine id, revts8 generator and cluster, uid60 worker), its source (setting, default, drawn, or lease from uid.coordinator with its pool, id and expiry) and whether that source keeps several servers apart';

CREATE FUNCTION uid_identity_renew(OUT pool text, OUT lease_id integer, OUT token bigint,
                                   OUT expires_at timestamptz)
RETURNS record
AS 'MODULE_PATHNAME', 'uid_identity_renew'
LANGUAGE C VOLATILE STRICT;
COMMENT ON FUNCTION uid_identity_renew() IS
'renews this server''s lease from the coordinator in uid.coordinator now, or claims one, and returns it; raises what failed';
REVOKE EXECUTE ON FUNCTION uid_identity_renew() FROM PUBLIC;
