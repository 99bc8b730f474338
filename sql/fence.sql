-- uid_fence_restore(), the last step after pg_upgrade: its argument, its
-- privilege, and its refusals where it must not act.  The origin exists
-- here (CREATE EXTENSION made it); what it does where pg_upgrade left none
-- is TAP 021's.
\set VERBOSITY default
-- where the origin exists: refused, whatever the argument
SELECT uid_fence_restore();
SELECT uid_fence_restore(old_file_lost => true);
-- NULL is neither answer
SELECT uid_fence_restore(NULL);
-- as nextval(): not in a read-only transaction
BEGIN READ ONLY;
SELECT uid_fence_restore();
ROLLBACK;
-- a superuser's, or granted (as pg_replication_origin_create())
CREATE ROLE uid_fence_user;
SET ROLE uid_fence_user;
SELECT uid_fence_restore();
RESET ROLE;
DROP ROLE uid_fence_user;
-- and nothing made a second origin
SELECT count(*) FROM pg_replication_origin WHERE roname = 'uid_fence';
