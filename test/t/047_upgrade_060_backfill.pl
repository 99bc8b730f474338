# Upgrading from 0.6.0 keeps what the server knew of its sno IDs (issue
# 51): a 0.6.0 server makes live IDs and back-fills, then is upgraded to
# this version twice, in place (the new library, a restart, ALTER EXTENSION
# uid UPDATE) and by pg_upgrade (following the refusal's hint: stop, copy
# the old uid_generator.state in, start, ALTER EXTENSION uid UPDATE,
# uid_fence_restore()).  On each:
#
# - back-fill before the upgrade works where it cannot repeat an ID: times
#   after 0.6.0's lanes in its own range, 2019 in it (the lane 0.6.0 left at
#   2018), and 2019 rows in a fresh range;
# - it is refused where it could: at a time both of 0.6.0's lanes passed,
#   in a range over the live sequences 0.6.0 recorded, in a range
#   overlapping 0.6.0's back-fill range;
# - no ID equals one 0.6.0 made (one table, one primary key).
#
# pg_upgrade leaves the replication origin behind: every generator refuses,
# and its hint must lead to the procedure.  Before, it said to run ALTER
# EXTENSION uid UPDATE, which from 0.3.0 on never creates the origin, and
# after it the same refusal and hint came back.  Now, at 0.6.0 in the
# catalog, it names the update as the step that brings uid_fence_restore(),
# and after the update only uid_fence_restore().
#
# 0.6.0 is built here from the git history (git archive) against this
# installation's headers, into a private copy of the installation in the
# test's temporary directory: nothing is installed where other TAP files run.
# Skipped in a tree without git history.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use File::Basename qw(dirname);
use File::Copy;
use File::Path qw(rmtree);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my $release = 'ae20c35';    # uid 0.6.0
my $top = "$FindBin::RealBin/../..";

plan skip_all => "no git history to build uid 0.6.0 from ($release)"
  unless system("git -C '$top' rev-parse -q --verify '$release^{commit}' >/dev/null 2>&1") == 0;

my $old_install = build_060();

my $conf = q{
uid.partition = 7
uid.sno_sequence_max = 65279
uid.sno_backfill_min = 65280
uid.sno_backfill_max = 65535
};

#
# The 0.6.0 server: live IDs, then back-fill at three stretches of time.
# One session in time order: lane 0 (65280..65407) takes the first
# stretch, ten minutes back; lane 1 (65408..65535) then 2018-01-01, being
# the lane before it, and goes on to 2018-06-01.  Both lanes are past
# 2018-01-01 now.
#
my $old = PostgreSQL::Test::Cluster->new('old', install_path => $old_install);
$old->init;
$old->append_conf('postgresql.conf', $conf);
$old->start;
$old->safe_psql('postgres', q{
	CREATE EXTENSION uid VERSION '0.6.0';
	CREATE TABLE ids (id sno PRIMARY KEY, how text NOT NULL);
	CREATE TABLE t0 AS SELECT date_trunc('second', now()) - interval '10 min' AS t0;
});
my $t0 = $old->safe_psql('postgres', 'SELECT t0 FROM t0');
$old->safe_psql('postgres', q{
	INSERT INTO ids SELECT sno_new(1), 'live 0.6.0' FROM generate_series(1, 100000);
	INSERT INTO ids SELECT sno_new_at(1, (SELECT t0 FROM t0) + g * interval '1 ms'), 'bf 0.6.0'
	FROM generate_series(1, 1000) g;
	INSERT INTO ids SELECT sno_new_at(1, '2018-01-01 00:00:00+00'::timestamptz + g * interval '1 ms'), 'bf 0.6.0'
	FROM generate_series(1, 1000) g;
	INSERT INTO ids SELECT sno_new_at(1, '2018-06-01 00:00:00+00'::timestamptz + g * interval '1 ms'), 'bf 0.6.0'
	FROM generate_series(1, 100) g;
});
is( $old->safe_psql('postgres', q{
	SELECT extversion, (SELECT count(*) FROM ids WHERE how = 'bf 0.6.0'),
	       (SELECT min(sno_sequence(id)) >= 65280 FROM ids WHERE how = 'bf 0.6.0'),
	       (SELECT max(sno_sequence(id)) FROM ids WHERE how = 'live 0.6.0') < 65280
	FROM pg_extension WHERE extname = 'uid'}),
	'0.6.0|2100|t|t', '0.6.0: live IDs and 2,100 back-filled ones');
$old->stop;
my $old_state = state_file($old);

#
# In place: this version's library on the same data directory (a copy, so
# that pg_upgrade below starts from the same 0.6.0 one), restarted, then
# ALTER EXTENSION uid UPDATE.
#
my $inplace = PostgreSQL::Test::Cluster->new('inplace');
$inplace->init;
my $own_conf = slurp_file($inplace->data_dir . '/postgresql.conf');
rmtree($inplace->data_dir);
system('cp', '-a', $old->data_dir, $inplace->data_dir) == 0
  or die 'could not copy the old data directory';
# this node's port and socket (its own postgresql.conf's), then the settings
$inplace->append_conf('postgresql.conf', $own_conf . $conf);
$inplace->start;
$inplace->safe_psql('postgres', 'ALTER EXTENSION uid UPDATE');
check_upgraded($inplace, 'in place');
$inplace->stop;

#
# pg_upgrade into this version's installation.
#
my $up = PostgreSQL::Test::Cluster->new('upgraded');
$up->init;
$up->append_conf('postgresql.conf', $conf);
chdir $up->basedir or die 'could not chdir to ' . $up->basedir . ": $!";
command_ok(
	[
		'pg_upgrade', '--no-sync',
		'-d', $old->data_dir,
		'-D', $up->data_dir,
		'-b', $old->config_data('--bindir'),
		'-B', $up->config_data('--bindir'),
		'-s', $up->host,
		'-p', $old->port,
		'-P', $up->port
	],
	'pg_upgrade from the 0.6.0 cluster');
$up->start;
check_hint($up, 'pg_upgrade, before ALTER EXTENSION uid UPDATE');
$up->safe_psql('postgres', 'ALTER EXTENSION uid UPDATE');
is($up->safe_psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'uid'"),
	'0.7.0', 'pg_upgrade: ALTER EXTENSION uid UPDATE to 0.7.0');
my $hint = check_hint($up, 'pg_upgrade, after ALTER EXTENSION uid UPDATE');

# What the hint says: stop, copy the old file in, start, uid_fence_restore().
$up->stop;
my $new_state = state_file($up);
copy($old_state, "$new_state.tmp") or die "could not copy $old_state: $!";
chmod 0600, "$new_state.tmp" or die "could not chmod $new_state.tmp: $!";
rename "$new_state.tmp", $new_state or die "could not rename $new_state.tmp: $!";
$up->start;
# uid_fence_restore() finds the old server's record in the file: it creates
# the origin and returns NULL (no lease set at now).
is($up->safe_psql('postgres', 'SELECT uid_fence_restore() IS NULL'), 't',
	'pg_upgrade: uid_fence_restore() creates the origin over the old file');
check_upgraded($up, 'pg_upgrade');
$up->stop;

done_testing();


# Builds uid 0.6.0 from git into a private copy of the installation whose
# pg_config is on PATH (as test/lib.sh's private_installation does): each
# of its directories copied below the test's temporary directory, where
# PostgreSQL finds them relative to its binaries, without this version's
# uid files.  Returns the copy's installation path (its bin's parent).
sub build_060
{
	my $tmp = PostgreSQL::Test::Utils::tempdir('uid060');
	my $copy = "$tmp/install";
	my %c = map { $_ => config($_) } qw(bindir pkglibdir sharedir includedir pkgincludedir);
	my (@dirs, $last);

	for my $d (sort { $a cmp $b } map { real($_) } dirname($c{bindir}), @c{qw(pkglibdir sharedir includedir pkgincludedir)})
	{
		next if defined $last && ($d eq $last || index($d, "$last/") == 0);
		$last = $d;
		push @dirs, $d;
	}
	for my $d (@dirs)
	{
		system('mkdir', '-p', "$copy$d") == 0 or die "mkdir $copy$d";
		system('cp', '-a', "$d/.", "$copy$d/") == 0 or die "could not copy $d";
	}
	my $pgc = "$copy$c{bindir}/pg_config";
	unlink glob("$copy" . real($c{pkglibdir}) . '/uid.so');
	unlink glob("$copy" . real($c{sharedir}) . '/extension/uid[.-]*');

	my $src = "$tmp/src";
	mkdir $src or die "mkdir $src: $!";
	system("git -C '$top' archive $release | tar x -C '$src'") == 0
	  or die "could not extract uid $release";
	my $log = "$tmp/build.log";
	if (system("make -C '$src' -s -j2 PG_CONFIG='$pgc' >'$log' 2>&1 && make -C '$src' -s install PG_CONFIG='$pgc' >>'$log' 2>&1") != 0)
	{
		my $major = config('version') =~ /(\d+)/ ? $1 : 0;
		diag slurp_file($log);
		# 0.6.0 predates 19: it need not build there
		plan skip_all => "uid 0.6.0 does not build against PostgreSQL $major" if $major > 18;
		BAIL_OUT('could not build uid 0.6.0');
	}
	return $copy . dirname($c{bindir});
}

sub config
{
	my ($what) = @_;
	my $v = `pg_config --$what`;
	die "pg_config --$what failed" if $?;
	chomp $v;
	return $v;
}

sub real
{
	my ($d) = @_;
	my $r = `readlink -f '$d'`;
	chomp $r;
	return $r;
}

# sno_new_at() on the upgraded server before the origin exists: refused,
# and the hint leads to the procedure, not back to ALTER EXTENSION.
sub check_hint
{
	my ($node, $what) = @_;
	my ($rc, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\nSELECT sno_new_at(1, '2019-01-01 00:00:00+00')");
	isnt($rc, 0, "$what: sno_new_at() is refused");
	like($err, qr/55000: uid cannot generate IDs: its lease is kept in replication origin "uid_fence", which does not exist/,
		"$what: the origin is missing");
	like($err, qr/^HINT:  .*copy uid_generator\.state from the old data directory.*SELECT uid_fence_restore\(\)/m,
		"$what: the hint gives the procedure");
	# At 0.6.0 the catalog has no uid_fence_restore(): the update brings it,
	# and after the update the hint no longer names it (no loop, issue 51).
	if ($what =~ /before ALTER EXTENSION/)
	{
		like($err, qr/^HINT:  .*ALTER EXTENSION uid UPDATE \(this database holds uid 0\.6\.0, which has no uid_fence_restore\(\)\), then run SELECT uid_fence_restore\(\)/m,
			"$what: the hint sends to ALTER EXTENSION uid UPDATE for uid_fence_restore()");
	}
	else
	{
		unlike($err, qr/^HINT:  .*ALTER EXTENSION/m,
			"$what: the hint does not send to ALTER EXTENSION uid UPDATE, done already");
	}
	return $err;
}

# Back-fills $n IDs from $from (an SQL expression) on, one per ms; returns
# the error, '' if none.
sub backfill
{
	my ($node, $from, $n, $how) = @_;
	my ($rc, $out, $err) = $node->psql('postgres', qq{
		\\set VERBOSITY verbose
		INSERT INTO ids SELECT sno_new_at(1, ($from)::timestamptz + g * interval '1 ms'), '$how'
		FROM generate_series(1, $n) g});
	return $rc == 0 ? '' : $err;
}

sub check_upgraded
{
	my ($node, $what) = @_;

	is($node->safe_psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'uid'"),
		'0.7.0', "$what: uid 0.7.0");
	$node->safe_psql('postgres', "INSERT INTO ids SELECT sno_new(1), 'live' FROM generate_series(1, 1000)");

	# 0.6.0's range: after its lanes (4 and 3 minutes back), and 2019
	# (lane 1 left at 2018-06-01)
	is(backfill($node, "'$t0'::timestamptz + interval '6 min'", 100, 'bf'), '', "$what: back-fill 4 minutes back in 0.6.0's range");
	is(backfill($node, "'$t0'::timestamptz + interval '7 min'", 100, 'bf'), '', "$what: back-fill 3 minutes back in 0.6.0's range");
	is(backfill($node, "'2019-01-01 00:00:00+00'", 100, 'bf'), '', "$what: back-fill 2019 in 0.6.0's range");
	# a time both of 0.6.0's lanes passed: it could repeat 0.6.0's IDs
	like(backfill($node, "'2018-01-01 00:00:00+00'", 10, 'bf'),
		qr/55000: sno_new_at\(\) cannot date an ID at .*: this server has back-filled past it/,
		"$what: back-fill where 0.6.0's lanes passed is refused");

	# a fresh range: 2019 rows, and again the times 0.6.0 back-filled
	reload_with($node, 'uid.sno_sequence_max' => 65023,
		'uid.sno_backfill_min' => 65024, 'uid.sno_backfill_max' => 65279);
	is(backfill($node, "'2019-03-01 00:00:00+00'", 2019, 'bf'), '', "$what: 2019 rows back-filled in 2019 in a fresh range");
	is(backfill($node, "'2018-01-01 00:00:00+00'", 100, 'bf'), '', "$what: a fresh range back-fills 0.6.0's times again");

	# a range over the live sequences 0.6.0 recorded: refused
	reload_with($node, 'uid.sno_sequence_min' => 4096, 'uid.sno_sequence_max' => 65023,
		'uid.sno_backfill_min' => 1024, 'uid.sno_backfill_max' => 1279);
	like(backfill($node, "'2019-06-01 00:00:00+00'", 10, 'bf'),
		qr/55000: the back-fill range 1024\.\.1279 holds sequences that sno_new\(\) has issued on this server, 0\.\./,
		"$what: a back-fill range over 0.6.0's live sequences is refused");
	# 0.6.0's back-fill range again: refused
	reload_with($node, 'uid.sno_sequence_min' => 0, 'uid.sno_sequence_max' => 65023,
		'uid.sno_backfill_min' => 65280, 'uid.sno_backfill_max' => 65535);
	like(backfill($node, "'2019-06-01 00:00:00+00'", 10, 'bf'),
		qr/55000: the back-fill range 65280\.\.65535 overlaps the back-fill ranges used before on this server/,
		"$what: 0.6.0's back-fill range after a fresh one is refused");

	is( $node->safe_psql('postgres', q{
		SELECT count(*) FILTER (WHERE how = 'bf'), count(*) FILTER (WHERE how = 'live'),
		       count(DISTINCT id) = count(*), count(*) FILTER (WHERE how LIKE '% 0.6.0')
		FROM ids}),
		'2419|1000|t|102100', "$what: 2,419 IDs back-filled and 1,000 live, none equal to another or to 0.6.0's");
	return;
}
