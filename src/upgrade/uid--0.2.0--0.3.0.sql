-- uid 0.2.0 -> 0.3.0: uid_lease() and the replication origin uid_fence that keeps the
-- generators' lease in WAL (see src/lease.c); the state file's version 2 takes a
-- version 1 file over in place.

\echo Use "ALTER EXTENSION uid UPDATE TO '0.3.0'" to load this file. \quit

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
