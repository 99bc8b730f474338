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
