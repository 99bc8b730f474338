# Failover to a streaming standby whose clock is behind (issue 12).  A
# primary with explicit settings generates IDs of all five types into
# primary-key tables while a base backup is taken and for a while after it,
# so the state file each standby copied is stale and the primary's last IDs
# are recent.  The standbys inherit the settings through the backup's
# postgresql.conf: same partition, generator, cluster and medallion, so only
# time keeps their new IDs apart from the primary's.  In recovery every
# generator is refused (25006) while accessors, casts and text I/O work on
# the replicated rows.  After the primary's immediate stop, each standby is
# promoted with its clock 0 s, 2 s, 30 s or 1 h behind, or first restarted
# under that offset (a start is a fence event of its own) and then promoted.
# Its new IDs must collide with no replicated ID and sort after all of
# them, whatever its clock says: the generator fences past the lease it
# WAL-logged ahead of every ID, which the standby replayed.  Partition
# maintenance (uid_maintain_partitions()) does nothing in recovery and
# raises nothing, then does its work once the standby is promoted.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
use UidTest;

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my $medallion = '1bfc71b112d';

# Per type: expressions that must give each ID back (its text, binary
# form and accessors fed into from_parts: I/O, casts and accessors on a
# standby), how an ID shows the server's settings, and how many new IDs
# each promoted standby makes (uid60 makes 1024 a second per server: keep
# it small).
my @types = (
	{
		name => 'sno',
		copies => [
			'id::text::sno',
			'id::bytea::sno',
			'sno_from_parts(sno_timestamp(id), sno_meta(id), sno_partition(id), '
			  . 'sno_sequence(id), sno_tick(id))'
		],
		settings => 'sno_partition(id) = 7',
		n => 5000,
	},
	{
		name => 'muid',
		copies => [
			'id::text::muid',
			'id::bytea::muid',
			'id::uuid::muid',
			'muid_from_parts(muid_timestamp(id), muid_medallion(id), muid_offset(id))'
		],
		settings => 'muid_medallion(id) = ' . hex($medallion),
		n => 5000,
	},
	{
		name => 'snowflake_si',
		copies => [
			'id::text::snowflake_si',
			'id::bigint::snowflake_si',
			'snowflake_si_from_parts(snowflake_si_timestamp(id), '
			  . 'snowflake_si_machine(id), snowflake_si_index(id))'
		],
		settings => 'snowflake_si_machine(id) = 5',
		n => 5000,
	},
	{
		name => 'revts8',
		copies => [
			'id::text::revts8',
			'id::bytea::revts8',
			'id::bigint::revts8',
			'revts8_from_parts(revts8_timestamp(id), revts8_sequence(id), '
			  . 'revts8_generator(id), revts8_cluster(id))'
		],
		settings => 'revts8_generator(id) = 5 AND revts8_cluster(id) = 3',
		n => 5000,
	},
	{
		name => 'uid60',
		copies => [
			'id::text::uid60',
			'id::bigint::uid60',
			'uid60_from_parts(uid60_timestamp(id), uid60_worker(id), '
			  . 'uid60_sequence(id), uid60_random(id))'
		],
		settings => 'uid60_worker(id) = 5',
		n => 200,
		# how many IDs the primary makes after the backup (2000 of the
		# others): its worker makes a few hundred a second
		after_backup => 100,
	},
);

# The standbys: the clock offset from real time (libfaketime) each is
# promoted with, and when it first runs under it: from its first start, or
# from a restart (it starts at real time) while the primary still generates
# ('streaming') or after the primary's stop ('stopped': it then replays the
# end of the WAL from its own pg_wal, and the last leases it replayed may
# be older than its restartpoint).  A clock 2 s behind repeats the
# primary's last IDs only if the failover takes less than 2 s, so those
# without a restart after the stop are promoted together right after it,
# and make their IDs in this order.  The one at +0 is the control.
my @standbys = (
	{ name => 'behind2', offset => -2 },
	{ name => 'restart2', offset => -2, restart => 'streaming' },
	{ name => 'behind30', offset => -30 },
	{ name => 'restart30', offset => -30, restart => 'stopped' },
	{ name => 'behind3600', offset => -3600 },
	{ name => 'restart3600', offset => -3600, restart => 'stopped' },
	{ name => 'realtime', offset => 0 },
);

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
# The settings the standbys inherit through the base backup.
$primary->append_conf(
	'postgresql.conf', qq{
uid.partition = 7
uid.generator = 5
uid.cluster = 3
uid.medallion = '$medallion'
});
$primary->start;

# t_<type>: the replicated IDs (primary key); n_<type>: the IDs a promoted
# standby makes, kept apart first (no constraint) so that a duplicate is
# counted before the insert into t_<type> is tried.
my $ddl = join '', map {
	"CREATE TABLE t_$_->{name} (id $_->{name} PRIMARY KEY, src text NOT NULL);
	 CREATE TABLE n_$_->{name} (id $_->{name} NOT NULL, src text NOT NULL);"
} @types;
$primary->safe_psql(
	'postgres', qq{
	CREATE EXTENSION uid;
	$ddl
	CREATE TABLE ctl (stop bool NOT NULL);
	INSERT INTO ctl VALUES (false);

	-- Committed batches of sno, muid, snowflake_si and revts8 until ctl
	-- says stop, with a pause between them so that seven standbys can
	-- replay all of it on a small machine.
	CREATE PROCEDURE gen(per int) LANGUAGE plpgsql AS \$\$
	BEGIN
		WHILE NOT (SELECT stop FROM ctl) LOOP
			INSERT INTO t_sno SELECT sno_new(), 'primary' FROM generate_series(1, per);
			INSERT INTO t_muid SELECT muid_new(), 'primary' FROM generate_series(1, per);
			INSERT INTO t_snowflake_si SELECT snowflake_si_new(), 'primary'
			FROM generate_series(1, per);
			INSERT INTO t_revts8 SELECT revts8_new(), 'primary' FROM generate_series(1, per);
			COMMIT;
			PERFORM pg_sleep(0.01);
		END LOOP;
	END \$\$;

	-- uid60 apart, a few hundred a second, below its 1024: every second
	-- of the run gets IDs without this worker ever waiting for the next.
	CREATE PROCEDURE gen_uid60(per int) LANGUAGE plpgsql AS \$\$
	BEGIN
		WHILE NOT (SELECT stop FROM ctl) LOOP
			INSERT INTO t_uid60 SELECT uid60_new(), 'primary' FROM generate_series(1, per);
			COMMIT;
			PERFORM pg_sleep(0.02);
		END LOOP;
	END \$\$;
});

# The primary's rows of each type, one line a type in the order of @types.
# (Ordered explicitly: a UNION ALL of big tables may run as a parallel
# append, which returns its rows in any order.)
sub counts
{
	my ($node) = @_;
	return $node->safe_psql(
		'postgres',
		'SELECT n FROM ('
		  . join(' UNION ALL ',
			map {
				"SELECT $_ AS k, count(*) AS n FROM t_$types[$_]{name} WHERE src = 'primary'"
			} 0 .. $#types)
		  . ') c ORDER BY k');
}

# Every generator (id_generators) is refused with 25006 and a message
# naming the function, with a hint that IDs are made on the primary.
sub refuses_every_generator
{
	my ($node, $what) = @_;

	for my $f (id_generators())
	{
		my ($rc, $out, $err) = $node->psql(
			'postgres', "SELECT $f()",
			extra_params => [ '-v', 'VERBOSITY=verbose' ]);
		like(
			$err,
			qr/ERROR:  25006: cannot execute \Q$f\E\(\) during recovery\n(?:.*\n)*HINT:  [^\n]*primary/i,
			"$what: $f() is refused with 25006")
		  or diag "rc $rc, stdout: $out";
	}
	return;
}

# Restarts a standby under its clock offset: still in recovery, it refuses
# to generate.
sub restart_at
{
	my ($s) = @_;
	my $node = $s->{node};

	restart_faked($node, sprintf('%+d', $s->{offset}));
	refuses_every_generator($node, "$s->{name}, restarted");
	return;
}

my @workers = (
	(map { start_worker($primary, 'CALL gen(50)') } 1 .. 2),
	start_worker($primary, 'CALL gen_uid60(10)'));
ok( poll_while_running(
		$primary, q{
		SELECT (SELECT count(*) FROM t_sno) >= 1000
		   AND (SELECT count(*) FROM t_uid60) >= 50}, \@workers),
	'the primary generates');

# A slot per standby keeps the WAL each one still needs.  The backup is
# taken while the workers generate: the state file it copies is behind what
# the primary goes on to make.
$primary->safe_psql('postgres',
	join ';',
	map { "SELECT pg_create_physical_replication_slot('$_->{name}', true)" }
	  @standbys);
$primary->backup('backup');
my $at_backup = counts($primary);

# A partitioned table that partition maintenance has work on: rows in the
# default partition of a period without a partition, an old partition to
# retire, periods to premake.  On a standby the same call must do nothing.
$primary->safe_psql(
	'postgres', q{
	CREATE TABLE ev_part (id sno) PARTITION BY RANGE (id);
	SELECT count(*) FROM uid_create_partitions('ev_part', 1, '2020-01-01Z');
	CREATE TABLE ev_part_default PARTITION OF ev_part DEFAULT;
	INSERT INTO ev_part VALUES (sno_boundary('2021-06-01Z'));});
my $maintain = q{SELECT count(*) FROM uid_maintain_partitions('ev_part', 3, '1 year', 'drop',
	width => '1 month', as_of => '2027-06-01Z')};

for my $s (@standbys)
{
	my $node = PostgreSQL::Test::Cluster->new($s->{name});
	$node->init_from_backup($primary, 'backup', has_streaming => 1);
	$node->append_conf('postgresql.conf', "primary_slot_name = '$s->{name}'");
	set_clock($node, sprintf('%+d', $s->{restart} ? 0 : $s->{offset}));
	start_faked($node);
	$s->{node} = $node;
}
for my $s (grep { ($_->{restart} // '') eq 'streaming' } @standbys)
{
	$primary->wait_for_catchup($s->{node}, 'replay', $primary->lsn('insert'));
	restart_at($s);
}

# While the primary generates, each standby replays its rows, refuses to
# generate and reads the replicated IDs: every ID goes through text, its
# binary form and its accessors (into from_parts) and comes back equal.
for my $s (@standbys)
{
	my $node = $s->{node};
	my $name = $s->{name};

	$primary->wait_for_catchup($node, 'replay', $primary->lsn('insert'));
	is($node->safe_psql('postgres', 'SELECT pg_is_in_recovery()'),
		't', "$name: in recovery");
	refuses_every_generator($node, $name);
	my ($rc, $out, $err) = $node->psql('postgres', $maintain);
	is("$rc|$out|$err", '0|0|',
		"$name: partition maintenance does nothing in recovery, and says nothing");
	is($node->safe_psql('postgres',
		"SELECT count(*) FROM pg_inherits WHERE inhparent = 'ev_part'::regclass"),
		'2', "$name: the partitions are the primary's");
	for my $T (@types)
	{
		my $type = $T->{name};
		my $same = join ' AND ', map { "$_ = id" } @{ $T->{copies} };
		my ($rows, $bad) = split /\|/,
		  $node->safe_psql(
			'postgres', qq{
			SELECT count(*), count(*) FILTER (WHERE NOT ($same AND $T->{settings}))
			FROM t_$type});
		cmp_ok($rows, '>', 0, "$name: $type: replicated IDs to read");
		is($bad, '0',
			"$name: $type: text I/O, casts and accessors work on $rows replicated IDs"
		);
	}
}

# The primary makes many IDs after the backup: the standbys' copies of the
# state file know none of them.
my @at_backup = split /\n/, $at_backup;
ok( poll_while_running(
		$primary,
		'SELECT '
		  . join(' AND ',
			map {
				"(SELECT count(*) FROM t_$types[$_]{name} WHERE src = 'primary') >= "
				  . ($at_backup[$_] + ($types[$_]{after_backup} // 2000))
			} 0 .. $#types),
		\@workers),
	'the primary made many IDs of every type after the backup');

# The workers stop after the batch they are in; everything committed
# reaches every standby, and only then does the primary stop, at once.
$primary->safe_psql('postgres', 'UPDATE ctl SET stop = true');
for my $i (0 .. $#workers)
{
	my ($rc, $out, $err) = finish_worker($workers[$i]);
	is($rc, 0, "primary worker $i generated until told to stop")
	  or diag $err;
}
my $final = counts($primary);
my $last_lsn = $primary->lsn('insert');
$primary->wait_for_catchup($_->{node}, 'replay', $last_lsn) for @standbys;
$primary->stop('immediate');
my $stopped = time();

# Makes new IDs of every type on a promoted standby, one statement each.
sub generate
{
	my ($s) = @_;
	my $node = $s->{node};

	ok(wait_for_primary($node),
		"$s->{name}: promoted");
	$s->{gen} = [
		map {
			[ $node->psql(
					'postgres',
					"INSERT INTO n_$_->{name} SELECT $_->{name}_new(), '$s->{name}' FROM generate_series(1, $_->{n})",
					extra_params => [ '-v', 'VERBOSITY=verbose' ]) ]
		} @types
	];
	note sprintf('%s: generated %.1f s after the primary stopped',
		$s->{name}, time() - $stopped);
	return;
}

# The standbys that need no restart are promoted at once (without waiting),
# so that each makes its IDs soon after the primary's last ones; the others
# are restarted under their offset first, then promoted.
my @at_once = grep { ($_->{restart} // '') ne 'stopped' } @standbys;
my @restarted = grep { ($_->{restart} // '') eq 'stopped' } @standbys;
$_->{node}->safe_psql('postgres', 'SELECT pg_promote(false)') for @at_once;
generate($_) for @at_once;
for my $s (@restarted)
{
	restart_at($s);
	$s->{node}->safe_psql('postgres', 'SELECT pg_promote(false)');
	generate($s);
}

# The new IDs of a promoted standby against the replicated ones.
sub check_promoted
{
	my ($s) = @_;
	my $node = $s->{node};
	my $name = $s->{name};
	my $offset = $s->{offset};

	check_clock_offset($node, $offset,
		"$name: the server clock is $offset s off real time");
	is(counts($node), $final,
		"$name: every row the primary committed was replayed");

	for my $i (0 .. $#types)
	{
		my $T = $types[$i];
		my $type = $T->{name};
		my ($rc, $out, $err) = @{ $s->{gen}[$i] };

		is($rc, 0, "$name: $type: $T->{n} new IDs made after promotion")
		  or diag $err;
		is( $node->safe_psql(
				'postgres', qq{
				SELECT count(*), count(*) FILTER (WHERE $T->{settings})
				FROM n_$type}),
			"$T->{n}|$T->{n}",
			"$name: $type: the new IDs carry the inherited settings");
		is( $node->safe_psql(
				'postgres',
				"SELECT count(*) FROM n_$type n JOIN t_$type t USING (id)"),
			'0',
			"$name: $type: no new ID equals a replicated one");

		# In the type's btree order; uid60: its second is not earlier.
		my ($key, $cmp) = order_key($type);
		my ($bad, $new_min, $old_max) = split /\|/,
		  $node->safe_psql(
			'postgres', qq{
			SELECT count(*) FILTER (WHERE $key $cmp o.hi),
				   ${type}_timestamp(min(id)), ${type}_timestamp(o.top)
			FROM n_$type,
				 (SELECT max($key) AS hi, max(id) AS top FROM t_$type) o
			GROUP BY o.hi, o.top});
		is($bad, '0',
			"$name: $type: every new ID sorts after every replicated one")
		  or diag "first new ID dated $new_min, last replicated $old_max";

		my ($irc, $iout, $ierr) = $node->psql(
			'postgres', "INSERT INTO t_$type SELECT id, src FROM n_$type",
			extra_params => [ '-v', 'VERBOSITY=verbose' ]);
		is($irc, 0,
			"$name: $type: inserting the new IDs into the replicated table gives no duplicate-key error"
		) or diag $ierr;
	}
	$node->stop;
	return;
}

# Once promoted, the same call does its work: the default's row gets its
# partition (create, move), three months ahead are made, and the 2020 and
# 2021 partitions go (drop).
my $first = $standbys[0]{node};
$first->poll_query_until('postgres', 'SELECT NOT pg_is_in_recovery()')
  or die "$standbys[0]{name} was not promoted";
is( $first->safe_psql(
		'postgres', q{
		SELECT string_agg(action, ',' ORDER BY ord)
		FROM uid_maintain_partitions('ev_part', 3, '1 year', 'drop', width => '1 month',
			as_of => '2027-06-01Z') WITH ORDINALITY AS m (action, partition, f, t, n, ord)}),
	'create,move,create,create,create,create,drop,drop',
	"$standbys[0]{name}: promoted, partition maintenance does its work");

check_promoted($_) for @standbys;

done_testing();
