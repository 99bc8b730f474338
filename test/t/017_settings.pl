# A session cannot change what the server embeds in its IDs (issue 12).
# The settings that go into an ID (uid.partition, uid.generator,
# uid.cluster, uid.medallion, uid.snowflake_si_index_bits,
# uid.snowflake_si_epoch, and the lease's uid.coordinator, uid.pool,
# uid.pool_size, uid.pool_ttl, uid.pool_grace, uid.coordinator_timeout)
# are the server's: a plain user's or a
# superuser's startup options, SET before or after the first uid call,
# ALTER ROLE/DATABASE ... SET, and the session's TimeZone never change the
# values a session's IDs carry, and never make it fall back to the
# built-in defaults (a drawn partition, generator 0, index width 8, base
# clock 2024-01-01).  Each case is a new connection, so that the library
# is loaded fresh in it, and checks IDs of all five types; the settings
# are non-default everywhere, so that a fallback to a default shows.
#
# Why it matters: IDs made under different settings can coincide.  With
# index width 8 in one session and 4 in another, the server's one
# generator state hands out the same (millisecond, index) pairs to both,
# and their IDs collide (the issue counted 2,122 duplicates); see case e.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

# The server's settings, none of them a default.  The base clock has no
# zone: it must be read as UTC whatever the session's TimeZone.
my %server = (
	'uid.partition' => 101,
	'uid.generator' => 5,
	'uid.cluster' => 3,
	'uid.medallion' => 'ABC',                 # 2748
	'uid.snowflake_si_index_bits' => 4,
	'uid.snowflake_si_epoch' => '2025-01-01 00:00:00',
	'uid.pool' => 'servers',
	'uid.pool_size' => 64,
	'uid.pool_ttl' => 600,
	'uid.pool_grace' => 30,
	'uid.coordinator_timeout' => 3000,
	'uid.sno_sequence_min' => 16,
	'uid.sno_sequence_max' => 1023,
	'uid.sno_backfill_min' => 2048,
	'uid.sno_backfill_max' => 2055,
	'uid.sno_overflow_channel' => 'ovf');

# What a session tries instead: other values for every setting, among them
# the defaults of the width and the base clock.
my @clobber = (
	[ 'uid.partition' => '7' ],
	[ 'uid.generator' => '9' ],
	[ 'uid.cluster' => '1' ],
	[ 'uid.medallion' => 'DEF' ],
	[ 'uid.snowflake_si_index_bits' => '8' ],
	[ 'uid.snowflake_si_epoch' => '2024-01-01' ],
	# a session that set a coordinator would lease its identity (and fail
	# to generate: nothing listens there)
	[ 'uid.coordinator' => 'host=/nonexistent' ],
	[ 'uid.pool' => 'mine' ],
	[ 'uid.pool_size' => '2' ],
	[ 'uid.pool_ttl' => '2' ],
	[ 'uid.pool_grace' => '0' ],
	[ 'uid.coordinator_timeout' => '100' ],
	# a session with its own sno range could repeat another server's IDs
	[ 'uid.sno_sequence_min' => '0' ],
	[ 'uid.sno_sequence_max' => '65535' ],
	[ 'uid.sno_backfill_min' => '-1' ],
	[ 'uid.sno_backfill_max' => '-1' ],
	[ 'uid.sno_overflow_channel' => 'mine' ]);
my $clobber_options = join ' ', map { "-c $_->[0]=$_->[1]" } @clobber;
my $clobber_set = join '', map { "SET $_->[0] = '$_->[1]';\n" } @clobber;

my $node = PostgreSQL::Test::Cluster->new('settings');
$node->init;
$node->append_conf(
	'postgresql.conf', join("\n",
		"timezone = 'UTC'",
		map { "$_ = '$server{$_}'" } sort keys %server));
$node->start;

# alice is a plain user who may insert into t (case e).  try_set runs a
# real SET statement and returns 'ok' or the SQLSTATE of its error.
$node->safe_psql(
	'postgres', q{
	CREATE EXTENSION uid;
	CREATE ROLE alice LOGIN;
	CREATE TABLE t (id snowflake_si NOT NULL, s int NOT NULL, n int NOT NULL);
	GRANT SELECT, INSERT ON t TO alice;
	CREATE FUNCTION try_set(n text, v text) RETURNS text LANGUAGE plpgsql AS $$
	BEGIN
		EXECUTE format('SET %s = %L', n, v);
		RETURN 'ok';
	EXCEPTION WHEN OTHERS THEN
		RETURN SQLSTATE;
	END $$;
});

# One ID of each type (300 snowflake_si), decoded without the accessors
# that read the session's settings where those would hide a wrong value:
# with the server's width 4, id & 15 is the index and (id >> 4) & 511 the
# machine; an ID made with width 8 decodes to other machines.  Its time is
# compared with the clock in ms since 2025-01-01 UTC, not with
# snowflake_si_timestamp(), which reads the same base clock that made it.
my $ids_sql = q{
WITH f AS MATERIALIZED (
	SELECT snowflake_si_new() AS id, clock_timestamp() AS at
	FROM generate_series(1, 300)),
r AS MATERIALIZED (SELECT revts8_new() AS id)
SELECT 'ids',
	format('sno partition %s sequence %s, muid medallion %s, revts8 generator %s cluster %s, uid60 worker %s, '
		   'snowflake_si machine bits %s, snowflake_si_machine() %s, index <> id & 15: %s',
		(SELECT sno_partition(sno_new())),
		(SELECT CASE WHEN sno_sequence(sno_new()) BETWEEN 16 AND 1023 THEN 'in 16..1023' ELSE 'outside' END),
		(SELECT muid_medallion(muid_new())),
		(SELECT revts8_generator(id) FROM r),
		(SELECT revts8_cluster(id) FROM r),
		(SELECT uid60_worker(uid60_new())),
		(SELECT min((id::bigint >> 4) & 511) || '..' || max((id::bigint >> 4) & 511) FROM f),
		(SELECT min(snowflake_si_machine(id)) || '..' || max(snowflake_si_machine(id)) FROM f),
		(SELECT count(*) FILTER (WHERE snowflake_si_index(id) <> id::bigint & 15) FROM f)),
	(SELECT round(max(abs((id::bigint >> 13)
		- extract(epoch FROM at - timestamptz '2025-01-01 00:00:00+00') * 1000)) / 1000, 1)
	 FROM f);
};
my $ids_expected =
	'sno partition 101 sequence in 16..1023, muid medallion 2748, revts8 generator 5 cluster 3, uid60 worker 5, '
  . 'snowflake_si machine bits 5..5, snowflake_si_machine() 5..5, index <> id & 15: 0';

# uid_config(), both columns, normalised: the medallion as a number, the
# base clock as the instant it names, read in UTC (a zone-less value is
# UTC), so that an equal value written differently still matches; the
# units of the effective durations dropped; "-" for no coordinator (or one
# hidden from a plain user: a session that set one would fail to generate).
my $cfg_sql = q{
BEGIN;
SET LOCAL TimeZone = 'UTC';
SELECT 'cfg', string_agg(name || '=' || s, ' ' ORDER BY name),
	   string_agg(name || '=' || e, ' ' ORDER BY name)
FROM (
	SELECT name,
		CASE name
			WHEN 'uid.medallion' THEN ('x' || lpad(setting, 16, '0'))::bit(64)::bigint::text
			WHEN 'uid.snowflake_si_epoch' THEN setting::timestamptz::text
			WHEN 'uid.coordinator' THEN
				CASE WHEN setting IN ('', '(hidden)') THEN '-' ELSE setting END
			ELSE setting END AS s,
		CASE name
			WHEN 'uid.medallion' THEN ('x' || lpad(effective, 16, '0'))::bit(64)::bigint::text
			WHEN 'uid.snowflake_si_epoch' THEN effective::timestamptz::text
			WHEN 'uid.coordinator' THEN
				CASE WHEN effective IN ('(none: identity settings)', '(hidden)') THEN '-' ELSE effective END
			ELSE regexp_replace(effective, '( m?s| \(\d+ IDs per 4 ms\))$', '') END AS e
	FROM uid_config()) c;
COMMIT;
};
my $cfg_expected =
	'uid.cluster=3 uid.coordinator=- uid.coordinator_timeout=3000 uid.generator=5 '
  . 'uid.medallion=2748 uid.partition=101 uid.pool=servers uid.pool_grace=30 '
  . 'uid.pool_size=64 uid.pool_ttl=600 '
  . 'uid.sno_backfill_max=2055 uid.sno_backfill_min=2048 uid.sno_overflow_channel=ovf '
  . 'uid.sno_sequence_max=1023 uid.sno_sequence_min=16 '
  . 'uid.snowflake_si_epoch=2025-01-01 00:00:00+00 uid.snowflake_si_index_bits=4';

# Runs a script in a new connection to postgres: as user (default: the
# superuser), with startup options in the connection string
# (options) or in PGOPTIONS (pgoptions).  Errors do not stop the script.
# Returns psql's exit code, its output lines by their first field, and its
# stderr.
sub session
{
	my (%o) = @_;
	my $connstr = $node->connstr('postgres');
	my ($out, $err) = ('', '');

	$connstr .= " user=$o{user}" if defined $o{user};
	$connstr .= " options='$o{options}'" if defined $o{options};
	local %ENV = %ENV;
	$ENV{PGOPTIONS} = $o{pgoptions} if defined $o{pgoptions};
	my $rc = $node->psql(
		'postgres', $o{sql},
		stdout => \$out,
		stderr => \$err,
		connstr => $connstr,
		on_error_stop => 0);
	my %lines;
	for (split /\n/, $out)
	{
		my ($tag, @f) = split /\|/, $_, -1;
		push @{ $lines{$tag} }, \@f;
	}
	return ($rc, \%lines, $err);
}

# The checks of one ids line and one cfg line of a session.
sub check_ids_line
{
	my ($what, $f) = @_;
	my ($fields, $off) = @{ $f // [] };

	is($fields, $ids_expected, "$what: the IDs carry the server's settings");
	ok(defined $off && $off < 10,
		"$what: snowflake_si times are under the server's base clock (2025-01-01 UTC)")
	  or diag 'farthest from the clock by ' . ($off // 'undef') . ' s';
	return;
}

sub check_cfg_line
{
	my ($what, $f) = @_;
	my ($setting, $effective) = @{ $f // [] };

	is($effective, $cfg_expected, "$what: uid_config() effective is the server's");
	# With the settings the server's alone, the session's setting cannot
	# differ from what the generators use either.
	is($setting, $cfg_expected, "$what: uid_config() setting is the server's");
	return;
}

# A new session running $pre and then generating: its IDs and uid_config()
# show the server's settings.
sub check_session
{
	my ($what, %o) = @_;
	my ($rc, $lines, $err) =
	  session(%o, sql => ($o{pre} // '') . $ids_sql . $cfg_sql);

	is($rc, 0, "$what: the session ran");
	note "$what: stderr: $err" if $err ne '';
	check_ids_line($what, $lines->{ids}[0]);
	check_cfg_line($what, $lines->{cfg}[0]);
	return $lines;
}

# Sanity: a plain session sees the server's settings.
check_session('plain session');

# a. Startup options, a plain user's (options= in the connection string)
# and a superuser's (PGOPTIONS).  The library is not loaded when they are
# applied: the placeholder values must not win, nor knock out the server's.
check_session('a. alice with startup options',
	user => 'alice', options => $clobber_options);
check_session('a. superuser with startup options', pgoptions => $clobber_options);

# b. SET of each setting before the first uid call (placeholders then),
# and after it (the library loaded: an error, 55P02 like any setting that
# only the server's configuration may change), for alice and the
# superuser; the IDs after the refused SETs are still the server's.
my $set_after = q{
SELECT 'set', string_agg(n || '=' || try_set(n, v), ' ' ORDER BY n)
FROM (VALUES } . join(', ', map { "('$_->[0]', '$_->[1]')" } @clobber) . q{) x(n, v);
};
my $set_expected = join ' ', map { "$_=55P02" } sort map { $_->[0] } @clobber;
for my $who ([ 'alice', 'alice' ], [ 'superuser', undef ])
{
	my ($name, $user) = @$who;
	my ($rc, $lines, $err) = session(
		user => $user,
		sql => $clobber_set . $ids_sql . $cfg_sql . $set_after . $ids_sql . $cfg_sql);

	is($rc, 0, "b. $name: the session ran");
	note "b. $name: stderr: $err" if $err ne '';
	check_ids_line("b. $name, SET before the first call", $lines->{ids}[0]);
	check_cfg_line("b. $name, SET before the first call", $lines->{cfg}[0]);
	is($lines->{set}[0][0], $set_expected,
		"b. $name: SET after the first call fails with 55P02 for every setting");
	check_ids_line("b. $name, after the refused SETs", $lines->{ids}[1]);
	check_cfg_line("b. $name, after the refused SETs", $lines->{cfg}[1]);
}

# c. ALTER DATABASE / ALTER ROLE ... SET, done by the superuser in a new
# connection that does only that: the library is not loaded there, so the
# names are placeholders and ALTER stores them (the path this test
# exercises; in a session that has loaded the library, ALTER of a setting
# only the server's configuration may change is refused, tried below and
# tolerated either way).  They are applied at login, before the library
# loads, and must not win.  (The database is postgres itself: every session
# while its settings are in place is one of these checks.)
my $alter_db = join '', map { "ALTER DATABASE postgres SET $_->[0] = '$_->[1]';\n" } @clobber;
my $alter_role = join '', map { "ALTER ROLE alice SET $_->[0] = '$_->[1]';\n" } @clobber;
my $stored_sql =
  q{SELECT count(*) FROM pg_db_role_setting, unnest(setconfig) c WHERE c LIKE 'uid.%'};

sub alter_fresh
{
	my ($what, $sql) = @_;
	my (undef, undef, $err) = session(sql => $sql);
	my $stored = $node->safe_psql('postgres', $stored_sql);

	note "c. $what: $stored uid settings stored"
	  . ($err ne '' ? ", stderr: $err" : '');
	return;
}

alter_fresh('ALTER DATABASE postgres SET', $alter_db);
check_session('c. alice with ALTER DATABASE SET', user => 'alice');
check_session('c. superuser with ALTER DATABASE SET');
$node->safe_psql('postgres', 'ALTER DATABASE postgres RESET ALL');

alter_fresh('ALTER ROLE alice SET', $alter_role);
{
	# The same from a session that has loaded the library: expected to be
	# refused; stored or not, it must not reach alice's IDs either.
	my (undef, undef, $err) = session(sql => q{
		SELECT count(*) FROM uid_config();
		ALTER ROLE alice SET uid.generator = 10;
	});
	note 'c. ALTER ROLE after the library loaded: '
	  . ($err =~ /ERROR/ ? "refused: $err" : 'accepted');
}
check_session('c. alice with ALTER ROLE SET', user => 'alice');
$node->safe_psql('postgres', 'ALTER ROLE alice RESET ALL');
is($node->safe_psql('postgres', $stored_sql),
	'0', 'c. the role and database settings are cleaned up');

# d. The session's TimeZone, set before the first call, does not move the
# zone-less base clock: it is UTC.  (The ids query runs first, so the
# library loads under that zone; uid_config() is read in UTC afterwards.)
my $tz_sql = q{SELECT 'tz', current_setting('TimeZone');};
for my $case (
	[ 'd. alice, SET TimeZone = Asia/Tokyo', 'Asia/Tokyo',
		user => 'alice', pre => "SET TimeZone = 'Asia/Tokyo';\n$tz_sql" ],
	[ 'd. superuser, SET TimeZone = Asia/Tokyo', 'Asia/Tokyo',
		pre => "SET TimeZone = 'Asia/Tokyo';\n$tz_sql" ],
	[ 'd. alice, -c TimeZone=America/New_York', 'America/New_York',
		user => 'alice', options => '-c TimeZone=America/New_York', pre => $tz_sql ])
{
	my ($what, $tz, %o) = @$case;
	my $lines = check_session($what, %o);
	is($lines->{tz}[0][0], $tz, "$what: the session's zone was $tz");
}

# e. The concurrency case: alice with clobbering startup options (in
# PGOPTIONS) and a normal session insert snowflake_si IDs into one table
# at once.  The base clock is left out of the options here: on a server
# that lets the session fall back to the default width 8 (and generator
# 0) with the same base clock, its IDs and the normal session's (width 4)
# are built from the same (millisecond, index) pairs of the shared state
# and collide; a different base clock would keep them a year apart.  The
# table has no unique index while they run, so that every duplicate is
# counted instead of the first one stopping a session.
my $e_options = join ' ',
  map { "-c $_->[0]=$_->[1]" } grep { $_->[0] ne 'uid.snowflake_si_epoch' } @clobber;
my %e_rows = (1 => 10_000, 2 => 5_000);
run_released(
	$node, 2,
	sub {
		my ($s) = @_;
		"INSERT INTO t SELECT snowflake_si_new(), $s, g FROM generate_series(1, $e_rows{$s}) g";
	},
	env_of => sub {
		$_[0] == 1 ? { PGUSER => 'alice', PGOPTIONS => $e_options } : {};
	},
	what => 'e.');
check_overlap($node);
check_ids_by($node, 's');
is( $node->safe_psql(
		'postgres', q{
		SELECT string_agg(s || ':' || bad, ' ' ORDER BY s) FROM (
			SELECT s, count(*) FILTER (WHERE (id::bigint >> 4) & 511 <> 5) AS bad
			FROM t GROUP BY s) x}),
	'1:0 2:0',
	'e. every ID of both sessions has width 4 and machine 5');
# The table takes a primary key: the IDs are unique.
my ($pk_rc, $pk_out, $pk_err) =
  $node->psql('postgres', 'ALTER TABLE t ADD PRIMARY KEY (id)');
is($pk_rc, 0, 'e. a primary key on the IDs of both sessions can be added')
  or diag $pk_err;

$node->stop;

done_testing();
