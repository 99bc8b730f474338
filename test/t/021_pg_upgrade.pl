# pg_upgrade makes a new data directory from an old one's catalogs and
# relations: the upgraded server holds every ID the old one made, but
# neither the state file (uid_generator.state) nor the replication origin
# "uid_fence" that keeps the WAL lease (pg_upgrade recreates the extension's
# objects in binary-upgrade mode without running its script, and replication
# origins are not carried over).  So the upgraded server knows nothing of how
# far the old one's IDs reach, and with its clock behind them it would issue
# IDs that sort below, or repeat, the ones in its own tables (issue 12: no ID
# is issued twice by a server or by anything made from its data directory).
#
# With UID_UPGRADE_FROM (an installation's prefix, such as
# /usr/lib/postgresql/18, with uid installed: test/check.sh sets it to the
# major before this one in its matrix) the old cluster runs that major and
# pg_upgrade goes from it to this one, as an upgrade between majors does;
# without it, both are this major.
#
# Here the old server's clock runs ahead of real time (IDs borrowed ahead, or
# a clock corrected later) and the upgraded one starts at real time.  Every
# generator must refuse (SQLSTATE 55000, naming the origin, the detail
# naming pg_upgrade, the hint the procedure) while the old IDs, their
# accessors and casts work.  uid_fence_restore(), the procedure's last step,
# refuses while the state file is one the upgraded server made anew.  After
# the documented procedure (stop, copy the old uid_generator.state in,
# start, uid_fence_restore()) the first IDs of every type are fenced past
# the old file's lease: they sort after every ID of the old server (uid60:
# dated no earlier than the latest), with no duplicate-key error, and
# sno_new_at() back-fills before the upgrade (the old file's record of the
# live sequences keeps its range clear of them).  Without the old file,
# uid_fence_restore(old_file_lost => true) lets generation resume with a
# lease of now: sno_new_at() is refused before it, across a restart, and
# made after it (before, a bare pg_replication_origin_create() left
# back-fill free at every past time, where it could repeat old IDs).  Live
# IDs then sort after the old ones only if the clock is past them, which
# the test only records.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use File::Copy;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my $operations = slurp_doc();

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my @types = id_types();

# How far ahead of real time the old server's clock runs, in seconds.  The
# upgraded server runs at real time and must still be behind the old IDs
# when it makes its own, after two pg_upgrade runs and some restarts: 300 s
# leaves a slow machine plenty of room (nothing waits for this clock).
my $ahead = 300;

# Rows the old server makes of each type, in committed batches of 100
# (uid60 makes 1024 a second).
my %old_rows = (uid60 => 400);
$old_rows{$_} //= 3000 for @types;

# New IDs of each type made after the procedure, each in its own
# transaction: muid takes one timestamp a transaction, so each is a fresh
# timestamp that may meet one made before.
my $new_ids = 1000;

# Both servers get the same settings written out, so that an ID that repeats
# comes from a lost high-water mark, not from a drawn partition or medallion
# that happens to differ (an upgraded server keeps its predecessor's
# identity).
my $settings = q{
uid.partition = 31
uid.generator = 31
uid.cluster = 3
uid.medallion = '1f3c'
uid.sno_sequence_max = 65279
uid.sno_backfill_min = 65280
uid.sno_backfill_max = 65535
};

#
# Step 1: the old server, its clock ahead, makes IDs of every type.
#
my $from = $ENV{UID_UPGRADE_FROM};
my $old = PostgreSQL::Test::Cluster->new('old', $from ? (install_path => $from) : ());
# Data checksums on both sides: pg_upgrade needs the same setting, and 18's
# initdb turns them on by default where 17's and 15's leave them off.
$old->init(extra => ['--data-checksums']);
$old->append_conf('postgresql.conf', $settings);
set_clock($old, "+$ahead");
start_faked($old);
check_clock_offset($old, $ahead,
	"old: the server clock is $ahead s ahead of real time");

# One table with a primary key per type; gen makes committed batches (here
# in phase 1), ins the new IDs one transaction each (create_id_tables).
# Both are carried over by pg_upgrade.
$old->safe_psql('postgres', 'CREATE EXTENSION uid');
create_id_tables($old);
$old->safe_psql('postgres', 'UPDATE ctl SET phase = 1');
for my $type (@types)
{
	$old->safe_psql('postgres',
		"CALL gen('$type', 100, " . $old_rows{$type} / 100 . ', 0)');
}
my $old_counts = row_counts($old);
is($old_counts, join(' ', map { "$_=$old_rows{$_}" } @types),
	'old: every type generated its rows');
my $old_latest = latest_id_time($old);
note "old: the latest ID is dated $old_latest";

# A clean stop: pg_upgrade needs it.
$old->stop;
my $old_state = state_file($old);
ok(-f $old_state, 'old: the data directory has its state file');

#
# Step 2: pg_upgrade into a new data directory with the same settings.
#
my $new = upgrade('new');
note 'pg_upgrade from ' . $old->pg_version . ' to ' . $new->pg_version;
if ($from)
{
	isnt($old->pg_version->major, $new->pg_version->major,
		"the old cluster runs another major ($from)");
}
set_clock($new, '+0');
start_faked($new);
check_clock_behind($new, 'upgraded', 0, $old_latest, "the old server's latest ID");

#
# Step 3: the upgraded server refuses to generate, and serves the old IDs.
#
for my $f (id_generators())
{
	check_refused($new, "SELECT $f()", "upgraded: $f()");
}
# And the tables are not written to: on a server that generated here, the
# numbers tell how the new IDs fared against the old ones.
for my $type (@types)
{
	my ($rc, $out, $err) = $new->psql('postgres',
		"\\set VERBOSITY verbose\nCALL ins('$type', $new_ids, 3)");
	like($err, qr/ERROR:  55000: /,
		"upgraded: inserting new $type IDs into the upgraded table fails with 55000")
	  or diag 'the inserts succeeded: ' . ($rc == 0 ? judge($new, $type, 3, $out) : $err);
}
is(row_counts($new), $old_counts,
	'upgraded: the tables hold exactly the old rows');
check_old_rows($new, 'upgraded');

#
# Step 4: the documented procedure.  Stop the server, put the old state
# file in its place (a copy renamed over whatever file the refused calls
# made, so that no reader ever sees half of it), start, create the origin.
#
# uid_fence_restore() before the old file is in: the refused calls made a
# state file anew, which knows none of the old server's IDs.
check_restore_refused($new, 'upgraded');
$new->stop;
my $new_state = state_file($new);
note 'upgraded: the refused calls ' . (-e $new_state ? 'made' : 'did not make')
  . ' a state file of their own';
copy($old_state, "$new_state.tmp")
  or die "could not copy $old_state: $!";
chmod 0600, "$new_state.tmp" or die "could not chmod $new_state.tmp: $!";
rename "$new_state.tmp", $new_state
  or die "could not rename $new_state.tmp: $!";
start_faked($new);
check_clock_behind($new, 'procedure', 0, $old_latest, "the old server's latest ID");
is($new->safe_psql('postgres', 'SELECT uid_fence_restore() IS NULL'),
	't', 'procedure: uid_fence_restore() creates the origin over the old file');
check_restore_exists($new, 'procedure');
# The origin holds the old file's lease, in WAL: a standby of the new
# cluster fences past the old IDs whatever its own state file holds, also
# before the new primary's first ID (0.7.0 before its release made the
# origin with no lease: a standby promoted then fenced at 0).
is( $new->safe_psql(
		'postgres',
		"SELECT wal_lease > '$old_latest'::timestamptz AND wal_lease >= lease FROM uid_lease()"),
	't', "procedure: the origin's WAL lease is the old file's, past the old server's latest ID");
# Every new ID sorts after every ID of the old server, and the first ones
# continue from the old IDs, not from far ahead of them (a fence moves IDs
# at most a lease, about a second plus a tick, past the server's last ID;
# 5 s leaves room for uid60's seconds).  Measured from the latest ID of any
# type: the lease is the server's, and on a busy machine the types made
# first were made many seconds before it.
check_new_ids($new, 'procedure', 4,
	n => $new_ids, old => 'ph = 1', gap => 5, since => $old_latest,
	old_words => 1);
check_old_rows($new, 'procedure');
# Back-fill before the upgrade: the old file's record of the live
# sequences keeps the back-fill range clear of them.
is( $new->safe_psql(
		'postgres', q{
	SELECT count(DISTINCT sno_new_at(1, '2020-01-01 00:00:00+00'::timestamptz + g * interval '4 ms'))
	FROM generate_series(1, 100) g}),
	'100', 'procedure: sno_new_at() back-fills before the upgrade');
$new->stop;

#
# Step 5: the same upgrade with the old state file lost.  uid_fence_restore()
# refuses; with old_file_lost => true it creates the origin with a lease of
# now (returned), before which the server's history is unknown: back-fill
# before it is refused, after it made, and a restart keeps that (the lease
# is in WAL).  Generation resumes; whether the new live IDs sort after the
# old ones depends on the clock alone (here it is behind them), which the
# procedure cannot know without the old file: only that it generates is
# checked.
#
my $bare = upgrade('bare');
set_clock($bare, '+0');
start_faked($bare);
check_restore_refused($bare, 'without the state file');
my $fence = $bare->safe_psql('postgres',
	'SELECT uid_fence_restore(old_file_lost => true)');
like($fence, qr/^\d{4}-/, "without the state file: old_file_lost => true returns the lease, $fence");
check_restore_exists($bare, 'without the state file');
for my $type (@types)
{
	my ($rc, $out, $err) =
	  $bare->psql('postgres', "CALL ins('$type', 100, 5)");
	is($rc, 0, "without the state file: $type generates once the origin exists")
	  or diag $err;
	note "without the state file: $type: " . judge($bare, $type, 5, $out)
	  if $rc == 0;
}
check_lost_backfill($bare, $fence, 8, 'without the state file');
$bare->restart;
check_lost_backfill($bare, $fence, 100, 'without the state file, restarted');
$bare->stop;

done_testing();


# A new cluster with the old one's settings, made by pg_upgrade from the
# (stopped) old cluster in copy mode, which leaves the old one as it was.
# Not started.
sub upgrade
{
	my ($name) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);

	$node->init(extra => ['--data-checksums']);
	$node->append_conf('postgresql.conf', $settings);
	# pg_upgrade writes its logs and scripts in the current directory.
	chdir $node->basedir or die 'could not chdir to ' . $node->basedir . ": $!";
	command_ok(
		[
			'pg_upgrade', '--no-sync',
			'-d', $old->data_dir,
			'-D', $node->data_dir,
			'-b', $old->config_data('--bindir'),
			'-B', $node->config_data('--bindir'),
			'-s', $node->host,
			'-p', $old->port,
			'-P', $node->port
		],
		"$name: pg_upgrade from the old cluster");
	return $node;
}

# The statement fails with the error of a missing origin: SQLSTATE 55000,
# the origin named, pg_upgrade in the detail, the procedure in the hint.
sub check_refused
{
	my ($node, $sql, $what) = @_;
	my ($rc, $out, $err) =
	  $node->psql('postgres', "\\set VERBOSITY verbose\n$sql");

	isnt($rc, 0, "$what is refused") or diag "it returned $out";
	like(
		$err,
		qr/ERROR:  55000: uid cannot generate IDs: its lease is kept in replication origin "uid_fence", which does not exist/,
		"$what: SQLSTATE 55000, the origin uid_fence does not exist");
	like($err, qr/DETAIL:  .*pg_upgrade/, "$what: the detail names pg_upgrade");
	# The hint gives the procedure and points to the page with it, whose
	# steps may not be left out.  Not ALTER EXTENSION uid UPDATE: from
	# 0.3.0 on it never creates the origin, and the error came back after
	# it (issue 51).
	like(
		$err,
		qr/^HINT:  (?=.*pg_upgrade)(?=.*copy uid_generator\.state from the old data directory)(?=.*SELECT uid_fence_restore\(\))(?=.*doc\/operations\.md)/m,
		"$what: the hint gives the procedure after pg_upgrade and doc/operations.md"
	);
	unlike($err, qr/^HINT:  .*ALTER EXTENSION/m,
		"$what: the hint does not send to ALTER EXTENSION uid UPDATE, which cannot create the origin");
	like(
		$operations,
		qr/`pg_upgrade` \|(?=.*\bstop)(?=.*copy `uid_generator\.state` from the old data directory)(?=.*SELECT uid_fence_restore\(\))(?=.*old_file_lost => true)/,
		"$what: doc/operations.md gives the procedure after pg_upgrade: stop, copy the old state file, create the origin"
	);
	return;
}

# uid_fence_restore() with a state file made anew: refused (55000), the
# old file named, the detail naming sno_new_at(), the hint the copy and
# old_file_lost; the origin is not created.
sub check_restore_refused
{
	my ($node, $what) = @_;
	my ($rc, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT uid_fence_restore()");

	isnt($rc, 0, "$what: uid_fence_restore() is refused") or diag "it returned $out";
	like($err,
		qr/ERROR:  55000: uid's state file holds no record of the server before pg_upgrade/,
		"$what: uid_fence_restore(): 55000, the state file holds no record");
	like($err, qr/DETAIL:  .*was made anew.*sno_new_at\(\) could repeat IDs that the old server made/,
		"$what: uid_fence_restore(): the detail says what could repeat");
	like($err,
		qr/^HINT:  (?=.*copy uid_generator\.state from the old data directory)(?=.*uid_fence_restore\(old_file_lost => true\))/m,
		"$what: uid_fence_restore(): the hint gives the copy and old_file_lost");
	is($node->safe_psql('postgres',
			"SELECT pg_replication_origin_oid('uid_fence') IS NULL"),
		't', "$what: uid_fence_restore() refused: no origin");
	return;
}

# uid_fence_restore() again, the origin made: refused (42710).
sub check_restore_exists
{
	my ($node, $what) = @_;
	my ($rc, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT uid_fence_restore(true)");

	isnt($rc, 0, "$what: uid_fence_restore() again is refused");
	like($err, qr/ERROR:  42710: replication origin "uid_fence" exists already/,
		"$what: uid_fence_restore() again: the origin exists already");
	return;
}

# The old state file lost, the origin made with a lease of $fence: sno_new_at()
# is refused before it (the history before is unknown) and made after it,
# $later ms past it (a later call takes later times: each lane goes forward).
sub check_lost_backfill
{
	my ($node, $fence, $later, $what) = @_;

	# the clock past the lease: a time after it is not refused as future
	$node->poll_query_until('postgres',
		"SELECT clock_timestamp() > timestamptz '$fence' + interval '${later} ms' + interval '100 ms'")
	  or die 'the clock did not pass the lease';
	for my $at ('2020-01-01 00:00:00+00', "$fence")
	{
		my ($rc, $out, $err) = $node->psql('postgres',
			"\\set VERBOSITY verbose\nSELECT sno_new_at(1, timestamptz '$at' - interval '10 ms')");
		isnt($rc, 0, "$what: sno_new_at() before the lease ($at) is refused")
		  or diag "it returned $out";
		like($err,
			qr/ERROR:  55000: sno_new_at\(\) cannot date an ID at .*before uid recorded which sequences they used.*\nDETAIL:  .*uid_fence_restore\(old_file_lost => true\)/s,
			"$what: sno_new_at() before the lease: the history before it is unknown");
	}
	is( $node->safe_psql(
			'postgres', qq{
		SELECT count(DISTINCT sno_new_at(1, timestamptz '$fence' + interval '${later} ms' + g * interval '4 ms'))
		FROM generate_series(1, 10) g}),
		'10', "$what: sno_new_at() after the lease is made");
	return;
}

# doc/operations.md, where the hint sends an operator.
sub slurp_doc
{
	open my $fh, '<', "$FindBin::RealBin/../../doc/operations.md" or die "doc/operations.md: $!";
	local $/;
	return <$fh>;
}

# The old rows read back on the upgraded server: every one decodes to the
# old server's settings, round-trips through text and its casts, and the
# old server's clock shows in their times (dated ahead of this one's).
sub check_old_rows
{
	my ($node, $what) = @_;
	my %bad = (
		sno => q{sno_partition(id) <> 31 OR id::text::sno <> id
			OR id::bytea::sno <> id},
		muid => q{muid_medallion(id) <> x'1f3c'::int OR muid_offset(id) < 1
			OR id::text::muid <> id OR id::uuid::muid <> id OR id::bytea::muid <> id},
		snowflake_si => q{snowflake_si_machine(id) <> 31
			OR id::text::snowflake_si <> id OR id::bigint::snowflake_si <> id},
		revts8 => q{revts8_generator(id) <> 31 OR revts8_cluster(id) <> 3
			OR id::text::revts8 <> id OR id::bigint::revts8 <> id
			OR id::bytea::revts8 <> id},
		uid60 => q{uid60_worker(id) <> 31 OR id::text::uid60 <> id
			OR id::bigint::uid60 <> id},);

	for my $type (@types)
	{
		is( $node->safe_psql(
				'postgres', qq{
			SELECT count(*), count(*) FILTER (WHERE $bad{$type}),
				   bool_and(${type}_timestamp(id) > now())
			FROM t_$type WHERE ph = 1}),
			"$old_rows{$type}|0|t",
			"$what: the old $type IDs decode to the old settings, round-trip and are dated ahead"
		);
	}
	return;
}

# How the IDs of phase $phase fared against the old server's (phase 1):
# $out is ins's output (duplicate-key errors | first duplicate).
sub judge
{
	my ($node, $type, $phase, $out) = @_;
	my ($dups, $first) = split /\|/, $out;
	my $r = new_ids_behind($node, $type, $phase, 'ph = 1');
	return "$r->{n} inserted, $dups duplicate-key errors"
	  . ($dups ? " (first: $first)" : '')
	  . ", $r->{behind} inserted ones do not sort after the old ones; "
	  . "the lowest new: $r->{new_min}, the highest old: $r->{old_max}";
}
