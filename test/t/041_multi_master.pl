# Two primaries that replicate both ways (PostgreSQL 16+'s CREATE
# SUBSCRIPTION ... WITH (origin = none); on 15, one way): where IDs made on
# two servers meet through logical replication.
#  a. No uid setting on either: every generator refuses with uid's message
#     (55000) on both, where the database has a subscription, so no ID is
#     made by both; a session that made IDs before its database subscribed
#     is refused from its next transaction, and so are parallel workers and
#     the apply worker, where a column only the subscriber has takes its
#     DEFAULT (the change waits, and comes in once the identity is set);
#     another database of the same server, without a subscription, is not
#     affected; back-fill (sno_new_at) and a role that is not a superuser
#     are refused alike; once the subscription is dropped, IDs are made again.  (uid 0.7.0 made the same
#     snowflake_si and revts8 IDs on both, by the thousand.)
#  b. Identities set by hand, different on each: writers on both at once,
#     every type, one direction binary and the other text: 0 IDs made by
#     both, and once replication has caught up both servers hold the same
#     IDs.  A reload that unsets one of them while the database subscribes
#     is refused from the next transaction.
#  c. Identities leased from one coordinator: the same.
#  d. A server whose replication state slots are all held by subscriptions
#     (max_active_replication_origins on 18+, max_replication_slots before):
#     generation fails with uid's message, which names the setting.
#  e. Two coordinators whose pools replicate (FOR ALL TABLES): a claim on a
#     coordinator whose pool tables a subscription writes into is refused
#     with uid's message; one that only publishes keeps handing out ids.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my @types = id_types();
my %gen = generator_calls();
my $batches = 20;    # per writer and type, of 100 rows each
my $refusal = qr/uid makes no ID with a default identity in a database that takes rows from another server/;

# A node for logical replication, with the extension, the tables t_<type>
# (an ID with its generator as the DEFAULT, and the server that made the
# row, 'a' or 'b', by a DEFAULT of its own), a publication of them, and
# fill(typ, batches): committed batches of 100 rows of one type.
sub mm_node
{
	my ($name, $tag, @conf) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);

	$node->init(allows_streaming => 'logical');
	$node->append_conf('postgresql.conf', join("\n", 'fsync = on', @conf));
	$node->start;
	my $ddl = join '', map {
		"CREATE TABLE t_$_ (id $_ PRIMARY KEY DEFAULT $gen{$_}, made_on text NOT NULL DEFAULT '$tag');\n"
	} @types;
	# t_extra: on b, an ID that the subscriber alone makes for each row a
	# sends (its apply worker takes the column's DEFAULT)
	$ddl .= $tag eq 'b'
	  ? "CREATE TABLE t_extra (k int PRIMARY KEY, id snowflake_si DEFAULT snowflake_si_new());\n"
	  : "CREATE TABLE t_extra (k int PRIMARY KEY);\n";
	$node->safe_psql(
		'postgres', qq{
		CREATE EXTENSION uid;
		$ddl
		CREATE PUBLICATION ids FOR TABLE } . join(', ', 't_extra', map { "t_$_" } @types) . qq{;
		CREATE PROCEDURE fill(typ text, batches int) LANGUAGE plpgsql AS \$\$
		BEGIN
			FOR i IN 1 .. batches LOOP
				EXECUTE format('INSERT INTO %I SELECT FROM generate_series(1, 100)', 't_' || typ);
				COMMIT;
			END LOOP;
		END \$\$;
	});
	return $node;
}

my $a = mm_node('a', 'a');
my $b = mm_node('b', 'b', 'uid.sno_sequence_max = 65279', 'uid.sno_backfill_min = 65280',
	'uid.sno_backfill_max = 65535');
my $major = $a->pg_version->major;
my $both = $major >= 16;
note $both ? "PostgreSQL $major: both ways, origin = none" : "PostgreSQL $major: one way (no origin = none before 16)";

# sub subscribes to pub's publication "ids" (binary or text), without the
# rows already there, and waits until its apply worker runs.
sub subscribe
{
	my ($sub, $pub, $name, $binary, $publication) = @_;
	my $opts = 'copy_data = false, binary = ' . ($binary ? 'true' : 'false');

	$opts .= ', origin = none' if $both;
	$sub->safe_psql('postgres',
		"CREATE SUBSCRIPTION $name CONNECTION '"
		  . $pub->connstr . ' dbname=postgres'
		  . "' PUBLICATION "
		  . ($publication // 'ids')
		  . " WITH ($opts)");
	$sub->poll_query_until('postgres',
		"SELECT pid IS NOT NULL FROM pg_stat_subscription WHERE subname = '$name'")
	  or die "the apply worker of $name did not start";
	return;
}

# a and b subscribe to each other (on 15: b to a only).
sub pair
{
	my ($a, $b) = @_;
	subscribe($b, $a, 'b_from_a', 1);
	subscribe($a, $b, 'a_from_b', 0) if $both;
	return;
}

sub unpair
{
	my ($a, $b) = @_;
	$b->safe_psql('postgres', 'DROP SUBSCRIPTION b_from_a');
	$a->safe_psql('postgres', 'DROP SUBSCRIPTION a_from_b') if $both;
	return;
}

# The IDs of one type that a node made itself, as a hash.
sub own_ids
{
	my ($node, $type, $tag) = @_;
	return { map { $_ => 1 } split /\n/,
		  $node->safe_psql('postgres', "SELECT id FROM t_$type WHERE made_on = '$tag'") };
}

# Writers on both nodes at once, one per type and node; then, per type, the
# IDs both made (0 where they are kept apart), and, once each subscription
# has caught up, whether both hold the same IDs.  Returns the writers'
# outcomes per "node type": [rc, stderr].
sub write_both
{
	my ($a, $b, $what, $expect_ok) = @_;
	my %w;
	for my $t (@types)
	{
		$w{"a $t"} = start_worker($a, "CALL fill('$t', $batches)");
		$w{"b $t"} = start_worker($b, "CALL fill('$t', $batches)");
	}
	my %out = map { my ($rc, undef, $err) = finish_worker($w{$_}); ($_ => [ $rc, $err ]) } keys %w;
	for my $t (@types)
	{
		my ($ia, $ib) = (own_ids($a, $t, 'a'), own_ids($b, $t, 'b'));
		my $common = grep { $ib->{$_} } keys %$ia;
		is($common, 0, "$what: $t: 0 IDs made by both servers ("
			  . scalar(keys %$ia) . ' and ' . scalar(keys %$ib) . ' made)');
	}
	return %out unless $expect_ok;
	for my $k (sort keys %out)
	{
		is($out{$k}[0], 0, "$what: the writer of $k ran through") or diag $out{$k}[1];
	}
	$a->wait_for_catchup('b_from_a');
	$b->wait_for_catchup('a_from_b') if $both;
	for my $t (@types)
	{
		my $q = "SELECT count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY id)) FROM t_$t";
		my $qa = $both ? $q : "$q WHERE made_on = 'a'";
		is($b->safe_psql('postgres', $qa), $a->safe_psql('postgres', $qa),
			"$what: $t: both servers hold the same IDs once replication caught up");
	}
	return %out;
}

# ------------------------------------------------------------------ a
# a session of b (which subscribes on every major) that makes IDs from
# before the subscription: a batch a transaction until refused, or 600
# batches
$b->safe_psql(
	'postgres', q{
	CREATE PROCEDURE until_refused(INOUT made int DEFAULT 0) LANGUAGE plpgsql AS $$
	BEGIN
		FOR i IN 1 .. 600 LOOP
			INSERT INTO t_snowflake_si SELECT FROM generate_series(1, 10);
			made := made + 10;
			COMMIT;
			PERFORM pg_sleep(0.05);
		END LOOP;
	END $$;
});
my $early = start_worker($b, 'CALL until_refused()');
poll_until('the early session made IDs',
	sub { $b->safe_psql('postgres', 'SELECT count(*) > 0 FROM t_snowflake_si') eq 't' })
  or BAIL_OUT('the early session made no ID');
$b->safe_psql('postgres', 'CREATE DATABASE other');
$b->safe_psql('other', 'CREATE EXTENSION uid');

pair($a, $b);
my ($rc, undef, $err) = finish_worker($early);
isnt($rc, 0, 'a. a session open before its database subscribed is refused from its next transaction');
like($err, $refusal, 'a. with uid\'s message');

my %out = write_both($a, $b, 'a. no uid setting', 0);
for my $k (sort keys %out)
{
	my ($node) = $k =~ /^(\w)/;
	next if !$both && $node eq 'a';    # on 15, a only publishes
	like($out{$k}[1], $refusal, "a. the writer of $k is refused with uid's message");
}
if (!$both)
{
	is($out{"a $_"}[0], 0, "a. on a server that only publishes, $_ is made") for @types;
}
my ($state, $detail) = split /\|/, $b->safe_psql('postgres',
	q{SELECT count(*) FILTER (WHERE NOT several_servers_safe AND note LIKE '(no ID is made: subscription "b_from_a"%'), count(*) FROM uid_identity()});
is($state, $detail, 'a. uid_identity() says why no ID is made, naming the subscription');
for my $g (id_generators())
{
	my ($r, undef, $e) = $b->psql('postgres', "SELECT $g()");
	like($e, $refusal, "a. $g() is refused");
}
# back-fill dates IDs with the same partition: refused too
my (undef, undef, $bferr) = $b->psql('postgres', q{SELECT sno_new_at(1, now() - interval '1 hour')});
like($bferr, $refusal, 'a. sno_new_at() (back-fill) is refused');
# a role that is not a superuser (pg_subscription's conninfo is hidden from
# it; uid reads the catalog itself): the same refusal and report
$b->safe_psql('postgres',
	'CREATE ROLE plain LOGIN; GRANT INSERT, SELECT ON t_snowflake_si TO plain');
my (undef, undef, $plerr) = $b->psql('postgres', 'INSERT INTO t_snowflake_si DEFAULT VALUES',
	extra_params => [ '-U', 'plain' ]);
like($plerr, $refusal, 'a. a role that is not a superuser is refused with uid\'s message');
is($b->safe_psql('postgres',
		q{SELECT count(*) FILTER (WHERE note LIKE '(no ID is made: subscription "b_from_a"%') > 0 FROM uid_identity()},
		extra_params => [ '-U', 'plain' ]),
	't', 'a. and uid_identity() tells it why');
# a parallel plan's workers (if the generators run there) read the
# catalog for themselves
my ($prc, undef, $perr) = $b->psql(
	'postgres', q{
	SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;
	SELECT count(snowflake_si_new()) FROM t_snowflake_si});
like($perr, $refusal, 'a. a parallel plan is refused');
# the apply worker, where b's own column takes its DEFAULT
my $log_at = -s $b->logfile;
$a->safe_psql('postgres', 'INSERT INTO t_extra VALUES (1)');
ok($b->wait_for_log($refusal, $log_at),
	'a. the apply worker refuses a DEFAULT of a column only the subscriber has');
is($b->safe_psql('postgres', 'SELECT count(*) FROM t_extra'), '0', 'a. and applies nothing of it');
is($b->safe_psql('other', 'SELECT count(DISTINCT x) FROM (SELECT snowflake_si_new() x FROM generate_series(1, 100)) s'),
	'100', 'a. another database of the server, without a subscription, makes IDs');

unpair($a, $b);
is($b->safe_psql('postgres', 'SELECT snowflake_si_new() IS NOT NULL'), 't',
	'a. once the subscription is dropped, the default identity is used again');

# ------------------------------------------------------------------ b
$_->safe_psql('postgres', 'TRUNCATE ' . join(', ', map { "t_$_" } @types)) for $a, $b;
$b->safe_psql('postgres', 'DROP PROCEDURE until_refused');
my %hand = (a => 1, b => 2);
for my $n ([ $a, 'a' ], [ $b, 'b' ])
{
	my $v = $hand{ $n->[1] };
	$n->[0]->append_conf('postgresql.conf',
		"uid.partition = $v\nuid.medallion = '${v}c'\nuid.generator = $v\nuid.cluster = $v\n");
	$n->[0]->reload;
	$n->[0]->safe_psql('postgres', 'SELECT uid_reload()');
}
pair($a, $b);
write_both($a, $b, 'b. identities set by hand', 1);
$a->safe_psql('postgres', 'INSERT INTO t_extra VALUES (2)');
$a->wait_for_catchup('b_from_a');
is($b->safe_psql('postgres', 'SELECT k, snowflake_si_machine(id, 8) FROM t_extra'), '2|2',
	'b. the apply worker takes the DEFAULT with the identity set by hand');
# a reload that takes a hand identity away while the database subscribes:
# refused from the next transaction (sno's partition, still set, is not)
$b->adjust_conf('postgresql.conf', 'uid.generator', undef);
$b->adjust_conf('postgresql.conf', 'uid.cluster', undef);
$b->reload;
$b->safe_psql('postgres', 'SELECT uid_reload()');
my (undef, undef, $rlerr) = $b->psql('postgres', 'SELECT snowflake_si_new()');
like($rlerr, $refusal, 'b. a reload that unsets uid.generator: snowflake_si_new() is refused');
is($b->safe_psql('postgres', 'SELECT sno_new() IS NOT NULL'), 't', 'b. sno_new(), its partition still set, is not');
$b->append_conf('postgresql.conf', "uid.generator = 2\nuid.cluster = 2\n");
$b->reload;
$b->safe_psql('postgres', 'SELECT uid_reload()');
unpair($a, $b);

# ------------------------------------------------------------------ c
my ($coord, $conninfo) = coordinator_node('coord');
my %leased;
for my $tag ('a', 'b')
{
	my $n = mm_node("leased_$tag", $tag,
		"session_preload_libraries = 'uid'", "uid.coordinator = '$conninfo'");
	$leased{$tag} = $n;
}
pair($leased{a}, $leased{b});
write_both($leased{a}, $leased{b}, 'c. identities leased from one coordinator', 1);
unpair($leased{a}, $leased{b});

# ------------------------------------------------------------------ d, e
# d: a second coordinator with a single replication state slot, which its
# subscription to the first holds; the pools of both replicate
my $slots = $major >= 18 ? 'max_active_replication_origins' : 'max_replication_slots';
my @logical = ('wal_level = logical', 'max_wal_senders = 10', 'max_replication_slots = 10');
my ($d) = coordinator_node('d', @logical, "$slots = 1", 'uid.generator = 9',
	'uid.partition = 9', "uid.medallion = '9d'");
$coord->append_conf('postgresql.conf', join("\n", @logical));
$coord->restart;
$_->safe_psql('postgres', 'CREATE PUBLICATION pools FOR ALL TABLES') for $coord, $d;
subscribe($d, $coord, 'd_from_coord', 0, 'pools');
subscribe($coord, $d, 'coord_from_d', 0, 'pools') if $both;

($rc, undef, $err) = $d->psql('postgres', 'SELECT snowflake_si_new()');
like($err, qr/uid cannot make IDs: no replication state slot is free for its replication origin "uid_fence"/,
	'd. every replication state slot held by a subscription: uid\'s message');
like($err, qr/"$slots"/, "d. which names $slots");

my $pool_refusal = qr/this coordinator's pools take rows from another server: subscription "(d_from_coord|coord_from_d)" writes into/;
($rc, undef, $err) = $d->psql('postgres', q{SELECT id FROM uid_pool_claim('mm', 8, 'h1')});
like($err, $pool_refusal, 'e. a claim on a coordinator whose pool a subscription writes into is refused');
($rc, my $out, $err) = $coord->psql('postgres', q{SELECT id FROM uid_pool_claim('mm', 8, 'h2')});
if ($both)
{
	like($err, $pool_refusal, 'e. so is one on the other coordinator of the pair');
}
else
{
	is($out, '0', 'e. one on a coordinator that only publishes hands out an id') or diag $err;
}

done_testing();
