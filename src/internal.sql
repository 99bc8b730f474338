-- uid: calls between uid's own functions that no overload can take over
--
-- uid's PL/pgSQL functions call each other (and the C functions they need)
-- through the extension's schema, by name.  A role with CREATE on that
-- schema could otherwise make such a call ambiguous, or give it a better
-- match, with an overload of its own: foo(a int, b int DEFAULT 0) beside
-- foo(a int) makes foo(1) "not unique".
--
-- Every such call therefore passes, first, a value of the domain below, and
-- PUBLIC has no USAGE on it.  CREATE FUNCTION needs USAGE on every argument
-- type, so no role but the extension's owner (and superusers) can create a
-- function that takes it: no overload can have the same arguments as the
-- callee, and the callee matches the call exactly, which PostgreSQL prefers
-- to any other candidate.  Casting a value to the domain needs no privilege,
-- so the calls work for every role that may call the caller.  A function
-- whose first parameter is of this type is uid's own plumbing, not for
-- users: the documented functions keep their arguments.

CREATE DOMAIN uid_internal_call AS boolean NOT NULL CHECK (VALUE);
COMMENT ON DOMAIN uid_internal_call IS
'internal: the first argument of every call between uid''s own functions; PUBLIC has no USAGE on it, so no overload in the extension''s schema can match such a call';
REVOKE USAGE ON DOMAIN uid_internal_call FROM PUBLIC;
