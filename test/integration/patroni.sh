#!/usr/bin/env bash
# test/integration/patroni.sh: the integration suite's Patroni part (issue
# 27; in CI through test/integration/run.sh).  Loopback only; ports
# 9200-9299 (UID_INT_PORT), scratch directories UID_INT_SCRATCH-* (default
# /tmp/uid-int-patroni-*; the build of uid in UID_SCRATCH, default
# /tmp/uid-int-build).
#
# Patroni 3.0.2 over etcd 3.4 (Debian 12's packages; three etcd members),
# three PostgreSQL nodes with use_pg_rewind, a writer through whichever node
# takes writes (one connection inserting, round after round, into a
# bigserial table and one table per type: common.pl), and seeded events: a
# crash (the leader's walsenders stopped for a few seconds while it goes on
# acknowledging, then kill -9 of its Patroni and its whole postmaster tree;
# the node rejoins by pg_rewind), `patronictl failover` and `patronictl
# switchover`, each with the next leader's clock set 20 to 120 s behind real
# time first (libfaketime, per node).  Four scenarios, the same events in
# each:
#
#   async   hand-set identity, the same on every node, asynchronous
#           replication: a crash that loses acknowledged WAL may make IDs
#           again (doc/operations.md, "IDs from WAL that was lost"); counted
#   sync    the same with Patroni's synchronous_mode: 0 reissued; and
#           pg_cron on every node, running doc/operations.md's partition
#           maintenance recipe as the table's owner (in pg_cron's
#           background workers): after the events (and a switchover where
#           they ended on n1, where the job was scheduled), 100 rows three
#           months old put into the DEFAULT partition on the final leader, a
#           run there succeeded and moved every row, none failed
#   leased  identities leased from a coordinator (a fourth PostgreSQL on
#           loopback, uid.pool_grace 600 s): 0 reissued
#   coordinator  the coordinator is the Patroni cluster (synchronous_mode),
#           two more servers lease from it through doc/several-servers.md's
#           connection string (every node, target_session_attrs=read-write)
#           with uid.pool_ttl 20 s (UID_INT_LEASE_TTL), a writer on each; the
#           events are the coordinator's, clocks right: 0 reissued within or
#           across the two, and no refusal but a lease's that ran out while no
#           coordinator answered
#
# Counts per scenario: acknowledged IDs (the writer records them as its
# INSERT ... RETURNING commits), IDs acknowledged again (reissued), IDs at or
# below what earlier timelines left in the final leader's table (replicated
# before a promotion: must be 0), 23505s (must be 0), other errors (refusals
# of uid's: beyond lost connections, read-only nodes and shutdowns, which
# the bigserial gets too; must be 0), the bigserial's lost and reissued
# values beside the types', and per event the availability line
# (common.pl's report_availability): how long the bigserial went without a
# row, how long after its first row on the new leader each type's came, and
# uid's refusals.  Prints a line per scenario and a final line
#   integration patroni: seed N, async: 3 failovers, 1234 ids, 16 reissued; sync: ...
# and exits 1 if sync, leased or coordinator reissued an ID, the pg_cron
# check failed, or any scenario had a 23505, an ID at or below the replicated
# or another error; 2 if the run did not go as planned (a state that did not
# come within UID_INT_WAIT seconds).
#
# Environment: UID_INT_SEED (default: drawn, printed) decides the events'
# order, the candidates, the clock offsets and the partitions' lengths;
# UID_INT_SCENARIOS (default "async sync leased coordinator");
# UID_INT_EVENTS (default 3: a crash, a failover and a switchover in the
# seed's order; more draw more); UID_INT_RATE (the writer's rounds per
# second, default 25); UID_INT_LEASE_TTL (the coordinator scenario's
# uid.pool_ttl, default 20 s);
# UID_INT_ETCD (etcd members, default 3); UID_INT_WAIT (default 240 s, the
# longest any one state may take to come); UID_INT_DEADLINE (default 2400 s,
# the longest the run may take; a scenario takes about 2 minutes); PG_MAJOR
# (default 15).
# UID_INT_PG_BIN=DIR uses that installation, uid already in it, instead of
# building uid into a private copy of PG_MAJOR's (as test/soak.sh does).
UID_SCRATCH=${UID_SCRATCH:-/tmp/uid-int-build}
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib.sh"

int_setup patroni etcd-server libdbd-pg-perl
say "the Patroni suite on $("$UID_INT_PG_BIN/pg_config" --version) in $UID_INT_PG_BIN"
int_run patroni.pl
