-- uid: a reload that returns once the server's IDs carry what it delivered
-- (published.c)

CREATE FUNCTION uid_reload(timeout interval DEFAULT '10 s')
RETURNS timestamptz
AS 'MODULE_PATHNAME', 'uid_reload'
LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION uid_reload(interval) IS
'reloads the configuration (as pg_reload_conf()) and returns once every session makes its next ID with the settings it delivered, or fails with the reason; returns a time every ID made with the settings before is dated before (NULL on a standby)';
-- as pg_reload_conf(): a superuser's, or granted
REVOKE EXECUTE ON FUNCTION uid_reload(interval) FROM PUBLIC;
