-- uid: what the update from the last release does before it replaces the
-- functions (Makefile): objects of that release that no longer exist, or
-- whose arguments changed, are dropped here.

-- 0.7.0: uid_pool_prepare() takes the domain of internal calls first.
DROP FUNCTION uid_pool_prepare(text, integer, text, integer, interval);
