# The lease pool on a coordinator (src/pool.sql): uid_pool_claim() and
# friends.
#  a. 50 claimants that start together on a pool of 32: exactly 32 get an
#     id, the ids 0 .. 31 once each with the tokens 1 .. 32, the other 18 are
#     refused with 53400, and the table names each winner as the holder of
#     the id it was told, so no id has two live holders.  Under REPEATABLE
#     READ, with every snapshot taken before the first claim commits,
#     exactly one claim succeeds and the others fail with 40001, never with
#     an id someone else holds; claimants that retry on 40001 end as under
#     READ COMMITTED.
#  b. A lease with a short ttl expires; its id is not handed out again
#     during the grace period (uid.pool_grace), and is the first one handed
#     out after it.
#  c. A renewal extends a lease past its old expiry; the holder whose id was
#     handed to another is refused (55000) and its release does nothing.
#  d. The pools survive a crash of the coordinator: the leases are all
#     there, a claim that had not committed is gone, and the next claim
#     takes the lowest free id with a token above every committed one.
# Times are waited for by polling, never assumed.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my $grace = 5;    # seconds: uid.pool_grace
my $node = uid_node('pool', conf => ["uid.pool_grace = $grace", 'fsync = on']);

$node->safe_psql(
	'postgres', q{
	-- A statement's text result, or its error: 'ok <result>' or
	-- 'err <SQLSTATE> <message>'.
	CREATE FUNCTION try(stmt text) RETURNS text LANGUAGE plpgsql AS $$
	DECLARE
		r text;
	BEGIN
		EXECUTE stmt INTO r;
		RETURN 'ok ' || r;
	EXCEPTION WHEN OTHERS THEN
		RETURN 'err ' || SQLSTATE || ' ' || SQLERRM;
	END $$;

	-- A claim that is retried, each time in a new transaction, while it
	-- fails with 40001; the last outcome and the number of attempts.
	CREATE PROCEDURE claim_retrying(pool text, size int, holder text,
									INOUT outcome text DEFAULT NULL, INOUT tries int DEFAULT 0)
	LANGUAGE plpgsql AS $$
	BEGIN
		LOOP
			tries := tries + 1;
			outcome := try(format('SELECT id || '' '' || token FROM uid_pool_claim(%L, %s, %L)',
								  pool, size, holder));
			EXIT WHEN outcome NOT LIKE 'err 40001 %';
			ROLLBACK;
		END LOOP;
	END $$;
});

sub query
{
	return $node->safe_psql('postgres', $_[0]);
}

# An outcome of try(): a hash with id and token, or code and msg.
sub outcome
{
	my ($line) = @_;
	return { id => $1, token => $2, line => $line } if $line =~ /^ok (\d+) (\d+)/;
	return { code => $1, msg => $2, line => $line } if $line =~ /^err (\w{5}) (.*)/;
	return { code => 'none', msg => "no outcome in: $line", line => $line };
}

# One claim in a session of its own (autocommit).
sub claim
{
	my ($pool, $size, $holder, $ttl) = @_;
	$ttl //= '1 hour';
	return outcome(
		query(
			"SELECT try(\$\$SELECT id || ' ' || token FROM uid_pool_claim('$pool', $size, '$holder', '$ttl')\$\$)"
		));
}

sub claim_sql
{
	my ($pool, $size, $holder) = @_;
	return
	  "SELECT try(\$\$SELECT id || ' ' || token FROM uid_pool_claim('$pool', $size, '$holder')\$\$)";
}

# Runs $n sessions that claim at the same moment: each queues behind an
# advisory lock that a session of ours holds, and all are let go at once.
# Session s runs @{$o{before}}, waits at the lock, then runs the commands
# $sql_of->(s) and @{$o{after}}.  Returns their outcomes (outcome()), by
# session 1 .. $n.
sub claim_released
{
	my ($what, $n, $sql_of, %o) = @_;
	my $gate = $node->background_psql('postgres');

	$gate->query_safe('SELECT pg_advisory_lock(4242)');
	my @workers = map {
		start_worker($node, @{ $o{before} // [] },
			'SELECT pg_advisory_lock_shared(4242)',
			$sql_of->($_), @{ $o{after} // [] })
	} 1 .. $n;
	ok( $node->poll_query_until(
			'postgres',
			"SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
			$n),
		"$what: all $n claimants wait at the barrier");
	$gate->query_safe('SELECT pg_advisory_unlock(4242)');
	$gate->quit;

	my @out;
	my $failed = 0;
	for my $s (1 .. $n)
	{
		my ($rc, $out, $err) = finish_worker($workers[ $s - 1 ]);
		my ($line) = grep { /^(ok|err) / } split /\n/, $out;
		if ($rc != 0 || !defined $line)
		{
			$failed++;
			diag "claimant $s: exit code $rc: $err";
		}
		push @out, outcome($line // '');
	}
	is($failed, 0, "$what: every claimant's session ran to its end");
	return @out;
}

# The winners of a run (outcomes with an id) against the table: each got its
# own id, and the pool's held leases are exactly theirs, each under the
# holder name of the session that was told it holds it (w1 .. wn).
sub check_winners
{
	my ($what, $pool, @out) = @_;
	my @won = grep { defined $out[$_]{id} } 0 .. $#out;
	my %ids;
	$ids{ $out[$_]{id} }++ for @won;

	is(scalar(grep { $_ > 1 } values %ids), 0, "$what: no id was handed to two claimants");
	my $told = join ',',
	  map { "$out[$_]{id}:w" . ($_ + 1) . ":$out[$_]{token}" }
	  sort { $out[$a]{id} <=> $out[$b]{id} } @won;
	is( query(
			"SELECT string_agg(id || ':' || holder || ':' || token, ',' ORDER BY id)
			 FROM uid_pool_leases('$pool') WHERE state = 'held'"),
		$told,
		"$what: the pool's held leases are exactly the winners', each under its holder and token");
	return @won;
}

# The codes of the failed outcomes, as "code xN ...".
sub failure_codes
{
	my %codes;
	$codes{ $_->{code} }++ for grep { defined $_->{code} } @_;
	return join ' ', map { "$_ x$codes{$_}" } sort keys %codes;
}

#
# a. 50 claimants, a pool of 32, under READ COMMITTED.  The pool does not
# exist yet: they race to create it too.
#
my @out = claim_released('read committed', 50,
	sub { claim_sql('a', 32, "w$_[0]") });
my @won = check_winners('read committed', 'a', @out);
is(scalar @won, 32, 'read committed: 32 claimants got an id');
is( join(',', sort { $a <=> $b } map { $out[$_]{id} } @won),
	join(',', 0 .. 31),
	'read committed: the ids 0 .. 31, each once');
is( join(',', sort { $a <=> $b } map { $out[$_]{token} } @won),
	join(',', 1 .. 32),
	'read committed: the tokens 1 .. 32, each once');
is(failure_codes(@out), '53400 x18',
	'read committed: the other 18 were refused with 53400 (configuration_limit_exceeded)');
is(query("SELECT size || ' ' || claims FROM uid_pool WHERE pool = 'a'"),
	'32 32', 'read committed: the refused claims took no token');

#
# The same under REPEATABLE READ, every claimant's snapshot taken before the
# barrier, so before any claim commits: the first claim to get the pool's
# lock succeeds, and each of the others finds the pool (created or updated)
# by a transaction its snapshot does not see, and fails with 40001.
#
@out = claim_released(
	'repeatable read, snapshots before the barrier',
	50,
	sub { claim_sql('rr', 32, "w$_[0]") },
	before => [ 'BEGIN ISOLATION LEVEL REPEATABLE READ', 'SELECT 1' ],
	after => ['COMMIT']);
@won = check_winners('repeatable read, snapshots before the barrier', 'rr', @out);
is(scalar @won, 1, 'repeatable read, snapshots before the barrier: one claim succeeded');
is(failure_codes(@out), '40001 x49',
	'repeatable read, snapshots before the barrier: the 49 others failed with 40001 (serialization_failure)');

# Claimants that retry on 40001, each attempt a new transaction: the end is
# as under READ COMMITTED.
@out = claim_released(
	'repeatable read, retrying',
	50,
	sub { "CALL claim_retrying('rr2', 32, 'w$_[0]')" },
	before => ["SET default_transaction_isolation = 'repeatable read'"]);
# CALL prints "outcome|tries"
my $tries = 0;
$tries += ($_->{line} =~ /\|(\d+)$/ ? $1 : 0) for @out;
@won = check_winners('repeatable read, retrying', 'rr2', @out);
is(scalar @won, 32, 'repeatable read, retrying: 32 claimants got an id');
is( join(',', sort { $a <=> $b } map { $out[$_]{id} } @won),
	join(',', 0 .. 31),
	'repeatable read, retrying: the ids 0 .. 31, each once');
is(failure_codes(@out), '53400 x18',
	'repeatable read, retrying: the other 18 were refused with 53400');
is(query("SELECT claims FROM uid_pool WHERE pool = 'rr2'"),
	'32', 'repeatable read, retrying: only the 32 claims that committed took a token');
note 'repeatable read, retrying: ', $tries - 50, ' attempts failed with 40001 and were retried';

#
# b. Expiry and the grace period: a pool of 3; A holds id 0 for 1 s, B id 1
# for an hour.
#
my $la = claim('ttl', 3, 'A', '1 s');
my $lb = claim('ttl', 3, 'B');
is("$la->{id} $lb->{id}", '0 1', 'ttl: A got id 0 (for 1 s), B id 1');
ok( $node->poll_query_until(
		'postgres', "SELECT state <> 'held' FROM uid_pool_leases('ttl') WHERE id = 0"),
	"ttl: A's lease expired");
my $reusable = query("SELECT reusable_at FROM uid_pool_leases('ttl') WHERE id = 0");
is( query(
		"SELECT reusable_at - expires_at = interval '$grace s' FROM uid_pool_leases('ttl') WHERE id = 0"
	),
	't',
	"ttl: id 0 is reusable uid.pool_grace ($grace s) after the lease expired");

# During the grace period id 0 is not handed out: C gets id 2, D nothing;
# once it is over, the next claim takes id 0.  Each claim's own clock
# decides: on a machine that stalled for the whole grace period between two
# of these steps, C or D may take id 0, but never before it is reusable.
sub claimed_before_reusable
{
	my ($token) = @_;
	return query(
		"SELECT claimed_at < '$reusable' FROM uid_pool_lease WHERE pool = 'ttl' AND token = $token");
}
my ($taker, $taken);    # who took id 0 after A, and its outcome
my $c = claim('ttl', 3, 'C');
if (defined $c->{id} && $c->{id} == 0)
{
	is(claimed_before_reusable($c->{token}), 'f',
		'ttl: C took id 0, but only once its grace period was over');
	($taker, $taken) = ('C', $c);
}
else
{
	is($c->{id}, 2, "ttl: during the grace period C got id 2, not A's id 0")
	  or diag explain $c;
	my $d = claim('ttl', 3, 'D');
	if (defined $d->{id})
	{
		is($d->{id}, 0, 'ttl: D got id 0, the only one left');
		is(claimed_before_reusable($d->{token}), 'f',
			'ttl: D took id 0, but only once its grace period was over');
		($taker, $taken) = ('D', $d);
	}
	else
	{
		is($d->{code}, '53400', 'ttl: during the grace period D was refused with 53400')
		  or diag explain $d;
	}
}
if (!defined $taker)
{
	ok( $node->poll_query_until(
			'postgres', "SELECT state = 'free' FROM uid_pool_leases('ttl') WHERE id = 0"),
		'ttl: the grace period of id 0 ended');
	my $e = claim('ttl', 3, 'E');
	is($e->{id}, 0, 'ttl: after the grace period the next claim took id 0, the lowest free one');
	is(claimed_before_reusable($e->{token}), 'f', 'ttl: not before it was reusable');
	($taker, $taken) = ('E', $e);
}
cmp_ok($taken->{token}, '>', $lb->{token}, 'ttl: with a token above the earlier ones');

#
# c. Renewal.  A, whose id went to another holder, is refused, and its
# release does nothing.
#
my $r = outcome(
	query("SELECT try(\$\$SELECT uid_pool_renew('ttl', 0, $la->{token})::text\$\$)"));
is($r->{code}, '55000', "ttl: A's renewal is refused with 55000 (object_not_in_prerequisite_state)");
like($r->{msg}, qr/^lease 0 of pool "ttl" is not held by token $la->{token}$/,
	"ttl: the message names the lease and A's token");
is(query("SELECT uid_pool_release('ttl', 0, $la->{token})"),
	'f', "ttl: A's release does nothing");
is( query("SELECT holder || ' ' || token || ' ' || state FROM uid_pool_leases('ttl') WHERE id = 0"),
	"$taker $taken->{token} held",
	'ttl: id 0 is still held by the claimant that took it');

# A renewal extends a lease past its old expiry: a lease of 2 s, renewed
# for an hour, is still held after the 2 s.
my $h = claim('renew', 2, 'H', '2 s');
my $old_expiry =
  query("SELECT expires_at FROM uid_pool_lease WHERE pool = 'renew' AND id = $h->{id}");
is( query(
		"SELECT uid_pool_renew('renew', $h->{id}, $h->{token}, '1 hour') - '$old_expiry'::timestamptz
		 > interval '59 min'"),
	't',
	'renew: the renewal moved the expiry an hour on');
ok( $node->poll_query_until('postgres', "SELECT clock_timestamp() > '$old_expiry'"),
	'renew: the old expiry passed');
is( query("SELECT state || ' ' || token FROM uid_pool_leases('renew') WHERE id = $h->{id}"),
	"held $h->{token}",
	'renew: the lease is still held, by the same token');
is(claim('renew', 2, 'I')->{id}, 1 - $h->{id}, 'renew: the next claimant got the other id');

#
# d. A crash of the coordinator, with a claim in flight (not committed).
#
$node->safe_psql('postgres', 'CHECKPOINT');
is(join(' ', map { claim('crash', 8, "k$_")->{id} } 1 .. 3),
	'0 1 2', 'crash: three claims before the crash got 0, 1, 2');
my $inflight = $node->background_psql('postgres');
$inflight->query_safe('BEGIN');
my $lost = outcome(
	$inflight->query_safe(
		"SELECT try(\$\$SELECT id || ' ' || token FROM uid_pool_claim('crash', 8, 'lost')\$\$)"));
is($lost->{id}, 3, 'crash: a claim in a transaction that is not committed got id 3');

my $state_sql = q{
	SELECT string_agg(concat_ws(' ', pool, id, holder, token, claimed_at, renewed_at, expires_at,
								released_at), E'\n' ORDER BY pool, id)
	FROM uid_pool_leases()};
my $claims_sql = q{SELECT string_agg(pool || ' ' || size || ' ' || claims, ', ' ORDER BY pool) FROM uid_pool};
my $leases_before = query($state_sql);
my $claims_before = query($claims_sql);
my $max_token = query("SELECT max(token) FROM uid_pool_lease WHERE pool = 'crash'");

$node->stop('immediate');
eval { $inflight->quit };
$node->start;

is(query($state_sql), $leases_before, 'crash: every committed lease is there, unchanged');
is(query($claims_sql), $claims_before, "crash: every pool's size and count of claims too");
is(query("SELECT count(*) FROM uid_pool_lease WHERE holder = 'lost'"),
	'0', 'crash: the claim that had not committed is gone');
my $after = claim('crash', 8, 'after');
is($after->{id}, 3, 'crash: the next claim took id 3, the lowest free one');
cmp_ok($after->{token}, '>', $max_token,
	'crash: with a token above every committed one');

$node->stop;

done_testing();
