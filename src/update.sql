-- uid: what the update from the last release does before it replaces the
-- functions (Makefile): objects of that release that no longer exist, or
-- whose arguments changed, are dropped here, and labels that changed are
-- set.

-- 0.7.0: uid_pool_prepare() takes the domain of internal calls first.
DROP FUNCTION uid_pool_prepare(text, integer, text, integer, interval);

-- 0.7.0: the generators are PARALLEL RESTRICTED (src/sno.sql says why).
ALTER FUNCTION sno_new(integer) PARALLEL RESTRICTED;
ALTER FUNCTION sno_new_at(integer, timestamptz) PARALLEL RESTRICTED;
ALTER FUNCTION snowflake_si_new() PARALLEL RESTRICTED;
ALTER FUNCTION revts8_new() PARALLEL RESTRICTED;
ALTER FUNCTION uid60_new() PARALLEL RESTRICTED;
