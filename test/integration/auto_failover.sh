#!/usr/bin/env bash
# test/integration/auto_failover.sh: the integration suite's pg_auto_failover
# part (issue 27; in CI through test/integration/run.sh).  Loopback only; ports 9350-9360
# (UID_INT_PORT: the monitor +1, the data nodes +2 and +3, the coordinator
# +10), scratch directories UID_INT_SCRATCH-paf-* (default /tmp/uid-int-paf-*).
#
# pg_auto_failover 2.0 (Debian 12's postgresql-15-auto-failover: pg_autoctl
# and the monitor's extension, which the private copy of the installation
# holds as it copies the packaged one): a monitor and two data nodes with
# pg_autoctl's defaults (synchronous replication with the secondary), every
# data node's postgres under libfaketime with a clock of its own, a writer
# (a bigserial and every type: common.pl) through whichever node takes writes
# (target_session_attrs=read-write), and a probe per node that ten times a
# second generates every type outside any INSERT (SELECT sno_new(1), ...,
# recording the transaction's read-only flag and recovery beside each ID)
# and writes (an INSERT without an ID).  Seeded events: `pg_autoctl perform
# failover` and a crash of the primary (kill -9 of its pg_autoctl and its
# whole postmaster tree; its pg_autoctl started again once the other node
# takes writes, and it rejoins as secondary), each with the secondary's
# clock set 20 to 120 s behind real time first.  pg_auto_failover keeps a
# node it promotes read-only (default_transaction_read_only) until the old
# primary is demoted; since 0.6.0 generators refuse there (25006), and the
# probes show it: per event, how long the new primary refused as read-only
# though out of recovery, and its first ID against its first write.
#
# Two scenarios: hand (identity set by hand, the same on both nodes: the
# secondary's base backup carries postgresql.auto.conf) and leased (from a
# coordinator on loopback, uid.pool_grace 600 s).  Counts per scenario: IDs
# clients held (acknowledged inserts and the probes' IDs), of them lost (not
# in the final primary's table), reissued, at or below what earlier timelines
# left in the final primary's table, 23505s, other errors (refusals of
# uid's, among them sno's 55000 while a configuration file pg_autoctl edited
# waited for its reload, which 0.6.0 gave and 0.7.0 must not), IDs made in a
# read-only transaction or in recovery, the bigserial's lost and reissued
# values, and per event the availability line (common.pl).  Prints a line
# per scenario and a final line
#   integration auto_failover: seed N, hand: 2 events, 1234 ids, 0 reissued, 0 made read-only; leased: ...
# and exits 1 if anything of reissued, at or below, 23505, other errors and
# made read-only is not 0 (synchronous replication loses no acknowledged
# ID, so hand-set identities reissue none either); 2 if the run did not go
# as planned (a state that did not come within UID_INT_WAIT seconds).
#
# Environment: UID_INT_SEED (default: drawn, printed) decides the events'
# order and the clocks; UID_INT_SCENARIOS (default "hand leased");
# UID_INT_EVENTS (default 2: a failover and a crash in the seed's order;
# more draw more); UID_INT_RATE (the writer's rounds per second, default 25);
# UID_INT_WAIT (default 240 s); PG_MAJOR (default 15); UID_INT_PG_BIN=DIR
# uses that installation, uid and pg_auto_failover already in it, instead of
# building uid into a private copy of PG_MAJOR's under UID_SCRATCH (default
# /tmp/uid-int-build).
UID_SCRATCH=${UID_SCRATCH:-/tmp/uid-int-build}
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib.sh"

int_setup "postgresql-${PG_MAJOR:-15}-auto-failover" libdbd-pg-perl
[ -e "$("$UID_INT_PG_BIN/pg_config" --pkglibdir)/pgautofailover.so" ] ||
	{ echo "no pg_auto_failover in $UID_INT_PG_BIN (package postgresql-$PG_MAJOR-auto-failover)" >&2; exit 2; }
say "the pg_auto_failover suite on $("$UID_INT_PG_BIN/pg_config" --version) in $UID_INT_PG_BIN, $(pg_autoctl version | head -n 1)"
int_run auto_failover.pl
