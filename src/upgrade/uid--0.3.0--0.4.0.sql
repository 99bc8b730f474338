-- uid 0.3.0 -> 0.4.0: the lease pool (uid_pool_claim() and friends, tables uid_pool and
-- uid_pool_lease) and server identities leased from a coordinator (uid_identity()).

\echo Use "ALTER EXTENSION uid UPDATE TO '0.4.0'" to load this file. \quit
