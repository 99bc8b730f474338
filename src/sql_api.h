/*
 * sql_api.h
 *		Every C function that SQL calls, by the module that defines it: a
 *		name in the SQL scripts (src/uid.sql, src/TYPE.sql) greps to its
 *		line here.  Many are defined by type_support.h's macros
 *		(comparisons, hashing, I/O).
 *
 * test/sql_api.pl (make layercheck) checks that this list is exactly the
 * functions the objects define.  PG_FUNCTION_INFO_V1 declares each too;
 * these declarations match it.
 */
#ifndef UID_SQL_API_H
#define UID_SQL_API_H

#include "fmgr.h"

/* generate.c: uid_stats() */
extern Datum uid_stats(PG_FUNCTION_ARGS);

/* lease.c: the lease and the fence */
extern Datum uid_lease(PG_FUNCTION_ARGS);
extern Datum uid_fence_restore(PG_FUNCTION_ARGS);

/* identity.c: what each type embeds */
extern Datum uid_identity(PG_FUNCTION_ARGS);

/* ident_lease.c: the identity leased from a coordinator */
extern Datum uid_identity_renew(PG_FUNCTION_ARGS);

/* cluster.c: what the nodes of a Citus cluster share */
extern Datum uid_citus_node(PG_FUNCTION_ARGS);
extern Datum uid_citus_agree(PG_FUNCTION_ARGS);

/* internal.c: calls between uid's functions; the switch to a table's owner */
extern Datum uid_internal_forward(PG_FUNCTION_ARGS);
extern Datum uid_internal_enter(PG_FUNCTION_ARGS);
extern Datum uid_internal_enter_as_owner(PG_FUNCTION_ARGS);
extern Datum uid_internal_enter_as_owner_staging(PG_FUNCTION_ARGS);
extern Datum uid_partition_boundary(PG_FUNCTION_ARGS);
extern Datum uid_partition_time(PG_FUNCTION_ARGS);

/* pool.c: the coordinator's rules for its own failures (core/pool.h) */
extern Datum uid_pool_place(PG_FUNCTION_ARGS);
extern Datum uid_pool_rule_commit(PG_FUNCTION_ARGS);
extern Datum uid_pool_rule_went_back(PG_FUNCTION_ARGS);
extern Datum uid_pool_rule_hold_end(PG_FUNCTION_ARGS);
extern Datum uid_pool_rule_token_floor(PG_FUNCTION_ARGS);
extern Datum uid_pool_rule_hands_out(PG_FUNCTION_ARGS);
extern Datum uid_pool_rule_renews(PG_FUNCTION_ARGS);
extern Datum uid_pool_rule_reclaims(PG_FUNCTION_ARGS);

/* published.c: a reload that returns once IDs carry it */
extern Datum uid_reload(PG_FUNCTION_ARGS);

/* report.c: the settings */
extern Datum uid_config(PG_FUNCTION_ARGS);
extern Datum uid_pool_grace(PG_FUNCTION_ARGS);

/* sno.c: the sno type */
extern Datum bytea_to_sno(PG_FUNCTION_ARGS);
extern Datum sno_boundary(PG_FUNCTION_ARGS);
extern Datum sno_cmp(PG_FUNCTION_ARGS);
extern Datum sno_eq(PG_FUNCTION_ARGS);
extern Datum sno_from_parts(PG_FUNCTION_ARGS);
extern Datum sno_ge(PG_FUNCTION_ARGS);
extern Datum sno_gt(PG_FUNCTION_ARGS);
extern Datum sno_hash(PG_FUNCTION_ARGS);
extern Datum sno_hash_extended(PG_FUNCTION_ARGS);
extern Datum sno_in(PG_FUNCTION_ARGS);
extern Datum sno_larger(PG_FUNCTION_ARGS);
extern Datum sno_le(PG_FUNCTION_ARGS);
extern Datum sno_lt(PG_FUNCTION_ARGS);
extern Datum sno_meta(PG_FUNCTION_ARGS);
extern Datum sno_ne(PG_FUNCTION_ARGS);
extern Datum sno_new(PG_FUNCTION_ARGS);
extern Datum sno_out(PG_FUNCTION_ARGS);
extern Datum sno_partition(PG_FUNCTION_ARGS);
extern Datum sno_range(PG_FUNCTION_ARGS);
extern Datum sno_recv(PG_FUNCTION_ARGS);
extern Datum sno_send(PG_FUNCTION_ARGS);
extern Datum sno_sequence(PG_FUNCTION_ARGS);
extern Datum sno_smaller(PG_FUNCTION_ARGS);
extern Datum sno_sortsupport(PG_FUNCTION_ARGS);
extern Datum sno_tick(PG_FUNCTION_ARGS);
extern Datum sno_timestamp(PG_FUNCTION_ARGS);
extern Datum sno_to_bytea(PG_FUNCTION_ARGS);

/* sno_backfill.c: sno's back-fill */
extern Datum sno_new_at(PG_FUNCTION_ARGS);

/* sno_snapshot.c: the sno generator's state */
extern Datum sno_snapshot(PG_FUNCTION_ARGS);

/* muid.c: the muid type */
extern Datum bytea_to_muid(PG_FUNCTION_ARGS);
extern Datum muid_boundary(PG_FUNCTION_ARGS);
extern Datum muid_cmp(PG_FUNCTION_ARGS);
extern Datum muid_eq(PG_FUNCTION_ARGS);
extern Datum muid_from_parts(PG_FUNCTION_ARGS);
extern Datum muid_ge(PG_FUNCTION_ARGS);
extern Datum muid_gt(PG_FUNCTION_ARGS);
extern Datum muid_hash(PG_FUNCTION_ARGS);
extern Datum muid_hash_extended(PG_FUNCTION_ARGS);
extern Datum muid_in(PG_FUNCTION_ARGS);
extern Datum muid_larger(PG_FUNCTION_ARGS);
extern Datum muid_le(PG_FUNCTION_ARGS);
extern Datum muid_lt(PG_FUNCTION_ARGS);
extern Datum muid_medallion(PG_FUNCTION_ARGS);
extern Datum muid_ne(PG_FUNCTION_ARGS);
extern Datum muid_new(PG_FUNCTION_ARGS);
extern Datum muid_offset(PG_FUNCTION_ARGS);
extern Datum muid_out(PG_FUNCTION_ARGS);
extern Datum muid_recv(PG_FUNCTION_ARGS);
extern Datum muid_send(PG_FUNCTION_ARGS);
extern Datum muid_smaller(PG_FUNCTION_ARGS);
extern Datum muid_sortsupport(PG_FUNCTION_ARGS);
extern Datum muid_timestamp(PG_FUNCTION_ARGS);
extern Datum muid_to_bytea(PG_FUNCTION_ARGS);
extern Datum muid_txn(PG_FUNCTION_ARGS);

/* snowflake_si.c: the snowflake_si type */
extern Datum bigint_to_snowflake_si(PG_FUNCTION_ARGS);
extern Datum snowflake_si_boundary(PG_FUNCTION_ARGS);
extern Datum snowflake_si_cmp(PG_FUNCTION_ARGS);
extern Datum snowflake_si_eq(PG_FUNCTION_ARGS);
extern Datum snowflake_si_from_parts(PG_FUNCTION_ARGS);
extern Datum snowflake_si_ge(PG_FUNCTION_ARGS);
extern Datum snowflake_si_gt(PG_FUNCTION_ARGS);
extern Datum snowflake_si_hash(PG_FUNCTION_ARGS);
extern Datum snowflake_si_hash_extended(PG_FUNCTION_ARGS);
extern Datum snowflake_si_in(PG_FUNCTION_ARGS);
extern Datum snowflake_si_index(PG_FUNCTION_ARGS);
extern Datum snowflake_si_larger(PG_FUNCTION_ARGS);
extern Datum snowflake_si_le(PG_FUNCTION_ARGS);
extern Datum snowflake_si_lt(PG_FUNCTION_ARGS);
extern Datum snowflake_si_machine(PG_FUNCTION_ARGS);
extern Datum snowflake_si_ne(PG_FUNCTION_ARGS);
extern Datum snowflake_si_new(PG_FUNCTION_ARGS);
extern Datum snowflake_si_out(PG_FUNCTION_ARGS);
extern Datum snowflake_si_recv(PG_FUNCTION_ARGS);
extern Datum snowflake_si_send(PG_FUNCTION_ARGS);
extern Datum snowflake_si_smaller(PG_FUNCTION_ARGS);
extern Datum snowflake_si_sortsupport(PG_FUNCTION_ARGS);
extern Datum snowflake_si_timestamp(PG_FUNCTION_ARGS);
extern Datum snowflake_si_to_bigint(PG_FUNCTION_ARGS);

/* revts8.c: the revts8 type */
extern Datum bigint_to_revts8(PG_FUNCTION_ARGS);
extern Datum bytea_to_revts8(PG_FUNCTION_ARGS);
extern Datum revts8_boundary(PG_FUNCTION_ARGS);
extern Datum revts8_bytes_cmp(PG_FUNCTION_ARGS);
extern Datum revts8_bytes_ge(PG_FUNCTION_ARGS);
extern Datum revts8_bytes_gt(PG_FUNCTION_ARGS);
extern Datum revts8_bytes_le(PG_FUNCTION_ARGS);
extern Datum revts8_bytes_lt(PG_FUNCTION_ARGS);
extern Datum revts8_bytes_sortsupport(PG_FUNCTION_ARGS);
extern Datum revts8_cluster(PG_FUNCTION_ARGS);
extern Datum revts8_cmp(PG_FUNCTION_ARGS);
extern Datum revts8_eq(PG_FUNCTION_ARGS);
extern Datum revts8_from_parts(PG_FUNCTION_ARGS);
extern Datum revts8_ge(PG_FUNCTION_ARGS);
extern Datum revts8_generator(PG_FUNCTION_ARGS);
extern Datum revts8_gt(PG_FUNCTION_ARGS);
extern Datum revts8_hash(PG_FUNCTION_ARGS);
extern Datum revts8_hash_extended(PG_FUNCTION_ARGS);
extern Datum revts8_in(PG_FUNCTION_ARGS);
extern Datum revts8_larger(PG_FUNCTION_ARGS);
extern Datum revts8_le(PG_FUNCTION_ARGS);
extern Datum revts8_lt(PG_FUNCTION_ARGS);
extern Datum revts8_ne(PG_FUNCTION_ARGS);
extern Datum revts8_new(PG_FUNCTION_ARGS);
extern Datum revts8_out(PG_FUNCTION_ARGS);
extern Datum revts8_recv(PG_FUNCTION_ARGS);
extern Datum revts8_send(PG_FUNCTION_ARGS);
extern Datum revts8_sequence(PG_FUNCTION_ARGS);
extern Datum revts8_smaller(PG_FUNCTION_ARGS);
extern Datum revts8_sortsupport(PG_FUNCTION_ARGS);
extern Datum revts8_timestamp(PG_FUNCTION_ARGS);
extern Datum revts8_to_bigint(PG_FUNCTION_ARGS);
extern Datum revts8_to_bytea(PG_FUNCTION_ARGS);

/* uid60.c: the uid60 type */
extern Datum bigint_to_uid60(PG_FUNCTION_ARGS);
extern Datum uid60_boundary(PG_FUNCTION_ARGS);
extern Datum uid60_cmp(PG_FUNCTION_ARGS);
extern Datum uid60_eq(PG_FUNCTION_ARGS);
extern Datum uid60_from_parts(PG_FUNCTION_ARGS);
extern Datum uid60_ge(PG_FUNCTION_ARGS);
extern Datum uid60_gt(PG_FUNCTION_ARGS);
extern Datum uid60_hash(PG_FUNCTION_ARGS);
extern Datum uid60_hash_extended(PG_FUNCTION_ARGS);
extern Datum uid60_in(PG_FUNCTION_ARGS);
extern Datum uid60_larger(PG_FUNCTION_ARGS);
extern Datum uid60_le(PG_FUNCTION_ARGS);
extern Datum uid60_lt(PG_FUNCTION_ARGS);
extern Datum uid60_ne(PG_FUNCTION_ARGS);
extern Datum uid60_new(PG_FUNCTION_ARGS);
extern Datum uid60_out(PG_FUNCTION_ARGS);
extern Datum uid60_random(PG_FUNCTION_ARGS);
extern Datum uid60_recv(PG_FUNCTION_ARGS);
extern Datum uid60_send(PG_FUNCTION_ARGS);
extern Datum uid60_sequence(PG_FUNCTION_ARGS);
extern Datum uid60_smaller(PG_FUNCTION_ARGS);
extern Datum uid60_sortsupport(PG_FUNCTION_ARGS);
extern Datum uid60_timestamp(PG_FUNCTION_ARGS);
extern Datum uid60_to_bigint(PG_FUNCTION_ARGS);
extern Datum uid60_worker(PG_FUNCTION_ARGS);

#endif							/* UID_SQL_API_H */
