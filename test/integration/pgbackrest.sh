#!/usr/bin/env bash
# test/integration/pgbackrest.sh: the integration suite's pgBackRest part
# (issue 27; in CI through test/integration/run.sh).  Loopback only; ports 9300-9310
# (UID_INT_PORT: the original +1, the copies +2..+4, the coordinator +10),
# scratch directories UID_INT_SCRATCH-pgbr-* (default /tmp/uid-int-pgbr-*).
#
# pgBackRest 2.45 (Debian 12's package), one PostgreSQL server archiving into
# a stanza, a writer (a bigserial and every type: common.pl), and per
# scenario: a full backup while they write, a target time, more writing
# (IDs the original acknowledges after the target), then three point-in-time
# restores (--type=time) of the backup to the target, one after another,
# each started beside the original under libfaketime with its clock a few
# seconds before the target (it passes again through the times of the
# original's IDs after the target), with a writer and
# a probe that generates outside any INSERT (SELECT sno_new(1), ...):
#
#   A  pgBackRest's defaults: the copy pauses at its target, generation
#      refuses (25006) until pg_wal_replay_resume(); archive_mode stays on, so
#      it archives its timeline into the original's stanza
#   B  --target-action=promote --archive-mode=off and the default target
#      timeline (latest): whether it follows A's timeline out of the stanza
#   C  --target-action=promote --archive-mode=off --target-timeline=current
#
# Two scenarios:
#   hand    identity set by hand (uid.partition, ...): a copy makes again IDs
#           the original made after the target (doc/operations.md, "Two
#           servers running with one identity"); counted
#   leased  identities leased from a coordinator (a PostgreSQL on loopback,
#           uid.pool_grace 600 s): a copy claims its own id; 0 reissued
#
# Counts per scenario: IDs clients held (writers' acknowledged inserts and
# the probes' IDs), IDs held twice (reissued), of them those the original
# acknowledged after the target, IDs at or below what the copy restored or
# replayed (must be 0), 23505s (must be 0), other errors, IDs the probes got
# in a read-only transaction or in recovery (must be 0), how long generation
# refused (A paused, then from the resume; B and C from pg_ctl start), per
# copy the availability line (common.pl: the bigserial's first row from the
# resume or start, each type's beyond it, uid's refusals), the bigserial's
# values the copies gave again, the longest a type went without an ID during
# the backup, and what reached the stanza.  Prints a line per scenario and a final line
#   integration pgbackrest: seed N, hand: 3 restores, 1234 ids, 56 reissued; leased: ...
# and exits 1 if leased reissued an ID, or a scenario had a 23505, an ID at
# or below the restored, another error, an ID while read-only, a copy with
# --archive-mode=off that archived, a copy C that did not start or held
# copy A's rows, or an original whose archiving failed after its copies; 2 if
# the run did not go as planned (a state that did not come within
# UID_INT_WAIT seconds).
#
# Environment: UID_INT_SEED (default: drawn, printed) decides the seconds of
# writing before and after the target and the copies' clocks;
# UID_INT_SCENARIOS (default "hand leased"); UID_INT_RATE (the writer's
# rounds per second, default 25); UID_INT_WAIT (default 240 s); PG_MAJOR
# (default 15); UID_INT_PG_BIN=DIR uses that installation, uid already in it,
# instead of building uid into a private copy of PG_MAJOR's under
# UID_SCRATCH (default /tmp/uid-int-build).
UID_SCRATCH=${UID_SCRATCH:-/tmp/uid-int-build}
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib.sh"

int_setup pgbackrest libdbd-pg-perl
say "the pgBackRest suite on $("$UID_INT_PG_BIN/pg_config" --version) in $UID_INT_PG_BIN, $(pgbackrest version)"
int_run pgbackrest.pl
