# A fleet of writers that lease their identity from a coordinator
# (uid.coordinator) instead of setting it by hand.  Three writers, A, B and
# C, set nothing but the coordinator and a pool of 3 ids; each claims the
# lowest free id with its first ID, and every type embeds it (sno
# partition, snowflake_si machine id, uid60 worker, revts8 generator and
# cluster, muid medallion).  They make IDs of every type in rounds, A, B,
# C, A, B, C ..., and a subscriber takes all of them by logical
# replication (binary) into tables with the same primary keys: every row
# must arrive (a duplicate key would stop apply), the writers hold three
# distinct ids that their IDs carry, and ORDER BY id on the subscriber
# lists the rows in the order they were made, for every type.
#
# Then A, whose lease is short, stops and its lease runs out; a new writer
# D takes A's old id (the lowest free once the grace period has passed)
# and generates.  A starts again: its lease was taken, the pool of 3 is
# full, and its generators refuse (SQLSTATE 53400 from the coordinator's
# claim, naming the pool) instead of generating under an id another server
# holds.  Once D stops and releases its id, A claims it and generates
# again.  No two IDs of one type made anywhere are equal: D's and A's IDs
# under the reused id come after the earlier holder's.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use UidTest;

my @types = id_types();
my %generator = generator_calls(1);

my $pool = 'fleet';

# A subscription's apply and sync errors, from a row s of
# pg_stat_subscription_stats: every *_error_count column (19 split
# sync_error_count into sync_table_error_count and sync_seq_error_count).
my $errors_of =
  q{(SELECT sum(value::bigint) FROM jsonb_each_text(to_jsonb(s)) WHERE key LIKE '%error_count')};
my $rounds = 8;
my $per_step = 3;    # rows of each type a writer inserts in one step

# The coordinator, which is also the subscriber.  An ended lease is
# reusable 1 s after it ended.
my ($coord, $coordinator) = coordinator_node('coordinator', 'uid.pool_grace = 1');

my $tables_ddl = join '', map {
	"CREATE TABLE t_$_ (id $_ PRIMARY KEY DEFAULT $generator{$_}, writer text NOT NULL,
		made timestamptz NOT NULL DEFAULT clock_timestamp(), round int NOT NULL);\n"
} @types;
my $tables = join ', ', map { "t_$_" } @types;
$coord->safe_psql('postgres', $tables_ddl);

# A writer: no identity settings, only the coordinator and the pool (and
# for A a short time to live), the tables and a publication of them, to
# which the subscriber subscribes.
my (%w, %port);
sub writer
{
	my ($name, @conf) = @_;
	my $node = uid_node(
		"writer_$name",
		init => [ allows_streaming => 'logical' ],
		coordinator => $coordinator,
		conf => [ "uid.pool = '$pool'", 'uid.pool_size = 3', @conf ]);

	$node->safe_psql('postgres',
		"$tables_ddl\nCREATE PUBLICATION ids FOR TABLE $tables");
	$coord->safe_psql('postgres',
		"CREATE SUBSCRIPTION sub_$name CONNECTION '"
		  . $node->connstr
		  . " dbname=postgres' PUBLICATION ids WITH (binary = true)");
	$coord->wait_for_subscription_sync($node, "sub_$name");
	$w{$name} = $node;
	$port{$name} = $node->port;
	return $node;
}

# One step: $per_step rows of every type on writer $name, in round $round.
sub step
{
	my ($name, $round) = @_;

	$w{$name}->safe_psql('postgres',
		join '', map {
			"INSERT INTO t_$_ (writer, round) SELECT '$name', $round FROM generate_series(1, $per_step);\n"
		} @types);
	return;
}

# What uid_identity() says on a writer, one line a row.
sub identity
{
	my ($name) = @_;
	return $w{$name}->safe_psql(
		'postgres', q{
		SELECT type, field, value, source, pool, lease_id, several_servers_safe
		FROM uid_identity() ORDER BY type COLLATE "C", field COLLATE "C"});
}

# What uid_identity() must say on a writer holding lease $id.
sub identity_of
{
	my ($id) = @_;
	my %value = (
		'muid medallion' => $id,
		'revts8 cluster' => int($id / 64),
		'revts8 generator' => $id % 64,
		'sno partition' => $id,
		'snowflake_si machine id' => $id,
		'uid60 worker' => $id);

	return join "\n", map {
		my ($type, $field) = split / /, $_, 2;
		"$type|$field|$value{$_}|lease|$pool|$id|t"
	} sort keys %value;
}

# The leases of the pool on the coordinator: "id:state:port of its holder".
sub leases
{
	return $coord->safe_psql(
		'postgres', qq{
		SELECT string_agg(id || ':' || state || ':' || coalesce(substring(holder FROM ':([0-9]+) system '), '?'),
						  ' ' ORDER BY id)
		FROM uid_pool_leases('$pool')});
}

# Every type's rows on the subscriber, in ID order: "writer round" each.
sub order_on_subscriber
{
	my ($type) = @_;
	return $coord->safe_psql('postgres',
		"SELECT string_agg(writer || round, ' ' ORDER BY id) FROM t_$type");
}

# A's lease lives 12 s: the rounds (at least 26 s) outlast it twice, so it
# must be renewed; between two of A's steps B's and C's pass, with 2.2 s of
# sleep, and a busy machine can make each step take seconds.  A lease that
# ran out (and past the 1 s grace) in a pause would be another writer's to
# claim.  With 6 s it was: under two CPU hogs and three more test suites
# (load 9 on 2 cores) B's first step took over 4 s, A's lease lapsed before
# C's first ID, and C claimed A's id 0.  13 s of pause is the margin now.
writer('a', 'uid.pool_ttl = 12');
writer('b');
writer('c');

# Before the first ID, no server holds a lease.
for my $name (qw(a b c))
{
	is( $w{$name}->safe_psql(
			'postgres',
			"SELECT string_agg(DISTINCT source || ' ' || pool || ' ' || coalesce(lease_id::text, 'none') || ' ' || several_servers_safe, ',') FROM uid_identity()"
		),
		"lease $pool none false",
		"writer $name: before its first ID its identity is to be leased, and none is held");
}
is($coord->safe_psql('postgres', "SELECT count(*) FROM uid_pool_leases('$pool')"),
	'0', 'the pool has no lease yet');

# The rounds: A, B, C, A, B, C ..., each step after the previous one ended
# by more than a second, so that even uid60's IDs (seconds, in no order
# within one) of successive steps are in different seconds.  (A statement
# ends after its IDs' times: the first uid60 ID after a claim waits for the
# second after the claim rather than being dated ahead of the clock.)
my @expected_order;
for my $round (1 .. $rounds)
{
	for my $name (qw(a b c))
	{
		step($name, $round);
		push @expected_order, ("$name$round") x $per_step;
		usleep(1_100_000);
	}
}

# Each claimed the lowest free id with its first ID: A first, then B, C.
my %lease = (a => 0, b => 1, c => 2);
for my $name (qw(a b c))
{
	# an ID first: idle through the other writers' steps on a busy machine,
	# a lease of 12 s can lapse (live again, with the same id, at the next ID)
	$w{$name}->safe_psql('postgres', 'SELECT sno_new()');
	is(identity($name), identity_of($lease{$name}),
		"writer $name holds lease $lease{$name} of pool $pool, and every type embeds it");
}
# The rounds outlasted A's 12 s lease twice over: it was renewed,
# not claimed again (three claims in all), so A kept its id and token.
is( $coord->safe_psql(
		'postgres', qq{
		SELECT (SELECT claims FROM uid_pool WHERE pool = '$pool'),
			   renewed_at > claimed_at AND expires_at > claimed_at + interval '12 s'
		FROM uid_pool_leases('$pool') WHERE id = 0}),
	'3|t',
	"A's short lease was renewed while it generated, never claimed again");
# A renews on use, and has been idle since its last step, 3.3 s and more
# ago: its 12 s may be running out, the sooner the busier the machine.
# Renewed now (a lease nobody else took can be renewed after its expiry
# too), so that the coordinator is asked well within it.  A claim instead
# of a renewal would show in the count of claims below.
is( $w{a}->safe_psql('postgres', 'SELECT lease_id FROM uid_identity_renew()'),
	'0', 'A renews its lease of id 0');
is(leases(),
	"0:held:$port{a} 1:held:$port{b} 2:held:$port{c}",
	'the coordinator lists three leases held, by A, B and C');

$w{$_}->wait_for_catchup("sub_$_") for qw(a b c);

# Every row arrived, with no apply error: a duplicate key would have
# stopped the apply workers.
for my $type (@types)
{
	my $sum = 0;
	$sum += $w{$_}->safe_psql('postgres', "SELECT count(*) FROM t_$type")
	  for qw(a b c);
	is($sum, 3 * $rounds * $per_step, "$type: every writer made its rows");
	is($coord->safe_psql('postgres', "SELECT count(*) FROM t_$type"),
		$sum, "$type: the subscriber has every writer's rows");
}
is( $coord->safe_psql(
		'postgres', qq{
		SELECT count(*), sum($errors_of)
		FROM pg_stat_subscription_stats s}),
	'3|0',
	'no apply or sync error on any of the three subscriptions');
is( $coord->safe_psql(
		'postgres', q{
		SELECT count(*) FROM pg_stat_subscription
		WHERE relid IS NULL AND pid IS NOT NULL}),
	'3',
	'the three apply workers are running');

# The IDs on the subscriber carry their writer's lease id.
my $lease_values = join ', ', map { "('$_', $lease{$_})" } sort keys %lease;
for my $type (@types)
{
	my $carried = carried_lease_id($type);
	is( $coord->safe_psql(
			'postgres', qq{
			SELECT count(*) FILTER (WHERE $carried <> l.lease_id), count(*)
			FROM t_$type JOIN (VALUES $lease_values) l(writer, lease_id) USING (writer)}),
		'0|' . 3 * $rounds * $per_step,
		"$type: every ID carries its writer's lease id");
}

# ORDER BY id is the order in which the rows were made.
for my $type (@types)
{
	is(order_on_subscriber($type), join(' ', @expected_order),
		"$type: ORDER BY id on the subscriber lists the writers in the order they made the rows");
}

# A stops, and its lease runs out: past its expiry and the grace period
# its id is free.
my $a_rows = $w{a}->safe_psql('postgres',
	join(' UNION ALL ', map { "SELECT '$_', count(*) FROM t_$_" } @types)
	  . ' ORDER BY 1');
$w{a}->stop('fast');
ok( poll_until(
		"A's lease to become free",
		sub {
			$coord->safe_psql('postgres',
				"SELECT state FROM uid_pool_leases('$pool') WHERE id = 0") eq 'free';
		}),
	"A's lease ran out after A stopped: id 0 is free");
is(leases(), "0:free:$port{a} 1:held:$port{b} 2:held:$port{c}",
	'B and C still hold theirs');

# D, a new writer with the settings of B and C, takes the lowest free id:
# A's old one.
writer('d');
step('d', $rounds + 1);
push @expected_order, ("d" . ($rounds + 1)) x $per_step;
is(identity('d'), identity_of(0), 'writer D claimed id 0, which A held before');
is(leases(),
	"0:held:$port{d} 1:held:$port{b} 2:held:$port{c}",
	'the coordinator lists id 0 held by D');
is($coord->safe_psql('postgres', "SELECT claims FROM uid_pool WHERE pool = '$pool'"),
	'4', 'four claims in all');
for my $type (@types)
{
	my $carried = carried_lease_id($type);
	is( $w{d}->safe_psql('postgres',
			"SELECT count(*), count(*) FILTER (WHERE $carried = 0) FROM t_$type"),
		"$per_step|$per_step",
		"$type: D generates under id 0");
}

# A starts again.  Its state file still names id 0 with A's token, which
# the coordinator now gives to D: A's renewal is refused, A gives the id
# up (a warning) and tries to claim another, but the pool is full.  Every
# generator refuses with the coordinator's 53400, naming the pool; A makes
# no ID.
$w{a}->start;
my $first = attempt($w{a}, "SELECT sno_new(1)");
isnt($first->{rc}, 0, 'A restarted: sno_new() fails');
like($first->{err},
	qr/WARNING:.*lease of id 0 in pool "$pool" is no longer held; claiming another/,
	'A noticed that its lease was taken by another server (a warning)');
for my $type (@types)
{
	my $g = $generator{$type};
	(my $func = $g) =~ s/\(.*\)/()/;
	my $r = $type eq 'sno' ? $first : attempt($w{a}, "SELECT $g");
	is($r->{sqlstate}, '53400', "A restarted: $g fails with SQLSTATE 53400")
	  or diag $r->{err};
	like($r->{msg}, qr/^this server holds no lease in pool "$pool"/,
		"A restarted: $g says that this server holds no lease in pool $pool");
	like($r->{err}, qr/CONTEXT:\s+while generating an ID with \Q$func\E/,
		"A restarted: the context names $func");
}
like($first->{err}, qr/pool "$pool" is exhausted: all 3 ids are leased/,
	"the error tells that the coordinator's pool is exhausted");
for my $type (@types)
{
	my $r = attempt($w{a},
		"INSERT INTO t_$type (writer, round) VALUES ('a', 0)");
	is($r->{sqlstate}, '53400', "A restarted: an insert into t_$type is refused with 53400")
	  or diag $r->{err};
}
is( $w{a}->safe_psql('postgres',
		join(' UNION ALL ', map { "SELECT '$_', count(*) FROM t_$_" } @types)
		  . ' ORDER BY 1'),
	$a_rows,
	'A made no row after its restart');
is( $w{a}->safe_psql('postgres',
		"SELECT count(*) FILTER (WHERE lease_id IS NOT NULL OR several_servers_safe), count(*) FROM uid_identity()"),
	'0|6',
	"A's uid_identity() shows no lease");
is(leases(),
	"0:held:$port{d} 1:held:$port{b} 2:held:$port{c}",
	'the leases are as before: A took none');

# D stops and releases its id; once the grace period has passed, A claims
# it and generates again.
my ($d_id, $d_token) = split /\|/,
  $w{d}->safe_psql('postgres', 'SELECT lease_id, token FROM uid_identity_renew()');
is($d_id, 0, 'D holds id 0 (uid_identity_renew)');
$w{d}->wait_for_catchup('sub_d');
my %d_ids = map {
	$_ => [ split /\n/, $w{d}->safe_psql('postgres', "SELECT id FROM t_$_") ]
} @types;
$w{d}->stop('fast');
$coord->safe_psql('postgres', 'ALTER SUBSCRIPTION sub_d DISABLE');
is($coord->safe_psql('postgres', "SELECT uid_pool_release('$pool', 0, $d_token)"),
	't', "D's lease is released with D's token");
ok( poll_until(
		'the released id to become free',
		sub {
			$coord->safe_psql('postgres',
				"SELECT state FROM uid_pool_leases('$pool') WHERE id = 0") eq 'free';
		}),
	'id 0 is free again after the grace period');

# A's generators retry the coordinator at most once a second after a
# failure: poll until the claim has gone through.
my $again = poll_until(
	'A to generate again',
	sub {
		my $r = attempt($w{a}, "SELECT sno_new(1)");
		return !$r->{timed_out} && $r->{rc} == 0 ? $r : undef;
	});
ok($again, 'A generates again once an id is free');
step('a', $rounds + 2);
push @expected_order, ("a" . ($rounds + 2)) x $per_step;
is(identity('a'), identity_of(0), 'A now holds id 0');
# A's lease lives 12 s from its claim or last renewal: renewed now, so that
# a busy machine's pauses since do not let it run out before the
# coordinator is asked.
is( $w{a}->safe_psql('postgres', 'SELECT lease_id FROM uid_identity_renew()'),
	'0', 'A renews its lease of id 0');
is(leases(),
	"0:held:$port{a} 1:held:$port{b} 2:held:$port{c}",
	'the coordinator lists id 0 held by A again');
is( $coord->safe_psql(
		'postgres', "SELECT token > $d_token FROM uid_pool_leases('$pool') WHERE id = 0"),
	't', "A's new lease has a newer token than D's");

# Every row of the four writers reached the subscriber, in the order made:
# the IDs under id 0 of A, then D, then A again follow one another.
$w{$_}->wait_for_catchup("sub_$_") for qw(a b c);
for my $type (@types)
{
	my $sum = 0;
	$sum += $w{$_}->safe_psql('postgres', "SELECT count(*) FROM t_$type")
	  for qw(a b c);
	$sum += @{ $d_ids{$type} };
	is($coord->safe_psql('postgres', "SELECT count(*) FROM t_$type"),
		$sum, "$type: the subscriber has every row of A, B, C and D");
	is(order_on_subscriber($type), join(' ', @expected_order),
		"$type: ORDER BY id on the subscriber is still the order the rows were made in");
}
# The apply workers of A and D counted an error each time their publisher
# stopped under them (PostgreSQL counts a lost connection as an apply
# error); none was a conflict, and B's and C's, whose publishers never
# stopped, counted none.
my $errors = $coord->safe_psql('postgres',
	qq{SELECT string_agg(subname || '=' || $errors_of, ' ' ORDER BY subname)
	  FROM pg_stat_subscription_stats s});
note "errors counted by the subscriptions: $errors";
like($errors, qr/^sub_a=\d+ sub_b=0 sub_c=0 sub_d=\d+$/,
	'no apply or sync error on the subscriptions to B and C');
unlike(slurp_file($coord->logfile), qr/duplicate key value violates|conflict detected/,
	"the subscriber's log has no duplicate key and no conflict");
is( $coord->safe_psql(
		'postgres', q{
		SELECT string_agg(subname, ' ' ORDER BY subname) FROM pg_stat_subscription
		WHERE relid IS NULL AND pid IS NOT NULL}),
	'sub_a sub_b sub_c',
	'the apply workers of A, B and C are running');

# No two IDs of one type are equal, wherever they were made: every
# writer's IDs, read from the writers themselves (D's before it stopped),
# gathered on the coordinator in tables without a key.
for my $type (@types)
{
	my @all = @{ $d_ids{$type} };
	push @all, split /\n/, $w{$_}->safe_psql('postgres', "SELECT id FROM t_$type")
	  for qw(a b c);
	my $values = join ', ', map { "('$_')" } @all;
	is( $coord->safe_psql(
			'postgres', qq{
			CREATE TABLE all_$type (id $type NOT NULL);
			INSERT INTO all_$type SELECT v::$type FROM (VALUES $values) x(v);
			SELECT count(*), count(DISTINCT id) FROM all_$type}),
		scalar(@all) . '|' . scalar(@all),
		"$type: all " . scalar(@all) . ' IDs of A, B, C and D are distinct');
}

$_->stop for $w{a}, $w{b}, $w{c}, $coord;

done_testing();
