-- uid: the last step after pg_upgrade, which carries neither the state file
-- nor the origin uid_fence over (lease.c; doc/operations.md)

CREATE FUNCTION uid_fence_restore(old_file_lost boolean DEFAULT false)
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uid_fence_restore'
LANGUAGE C VOLATILE PARALLEL UNSAFE;
COMMENT ON FUNCTION uid_fence_restore(boolean) IS
'after pg_upgrade, once the old uid_generator.state is copied in: creates the replication origin uid_fence that holds the lease, refusing where it exists or where the state file holds no record of the old server; with old_file_lost => true it creates it with a lease of now, returned: sno_new_at() refuses times before it, live IDs are made after it';
-- as pg_replication_origin_create(): a superuser's, or granted
REVOKE EXECUTE ON FUNCTION uid_fence_restore(boolean) FROM PUBLIC;
