# A server that leases its identity (uid.coordinator) when the coordinator
# is not there, or stops answering.  Generation must never run without a
# lease and never hang:
#  1. a coordinator nobody listens for: the first ID fails at once with
#     the error that no lease is held and the coordinator could not be
#     reached (SQLSTATE 08006);
#  2. a coordinator that stops after the server claimed a short lease:
#     IDs are made until the lease expires (renewal failures are
#     warnings), then every generator refuses, naming the pool and the
#     expiry; once the coordinator is back the same lease is renewed and
#     generation resumes;
#  3. a restart of the server keeps its lease (id and token): it
#     generates at once with the coordinator stopped, as long as the lease
#     runs, and the coordinator sees no new claim;
#  4. a coordinator that accepts connections and never answers: a
#     statement_timeout ends the wait (57014); without one the attempt
#     ends after uid.coordinator_timeout.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use UidTest;

my @types = id_types();
my %generator = generator_calls();

# Only to catch a hang: a wait is never asserted to be short.
my $patience = $PostgreSQL::Test::Utils::timeout_default;

# A writer leasing from $conninfo, with more settings in @conf.  try_new(f)
# calls generator f and reports when it began and ended, and its outcome:
# 'ok', or the SQLSTATE and message of its error.
sub writer
{
	my ($name, $conninfo, @conf) = @_;
	my $node = uid_node($name, coordinator => $conninfo, conf => \@conf);

	$node->safe_psql(
		'postgres', q{
		CREATE FUNCTION try_new(f text, OUT began timestamptz, OUT ended timestamptz,
								OUT state text, OUT msg text)
		LANGUAGE plpgsql AS $$
		BEGIN
			began := clock_timestamp();
			BEGIN
				EXECUTE 'SELECT ' || f;
				state := 'ok';
			EXCEPTION WHEN OTHERS THEN
				GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
			END;
			ended := clock_timestamp();
		END $$;
	});
	return $node;
}

# The server's lease as uid_identity() shows it: "lease_id|expires_at",
# the same for every row (checked), or "none" when it holds none.
sub lease_of
{
	my ($node) = @_;
	return $node->safe_psql(
		'postgres', q{
		SELECT CASE WHEN count(DISTINCT (lease_id, expires_at)) = 1 AND bool_and(source = 'lease')
					THEN coalesce(min(lease_id)::text || '|' || min(expires_at)::text, 'none')
					ELSE 'mixed: ' || string_agg(source || ' ' || lease_id || ' ' || expires_at, ', ') END
		FROM uid_identity()});
}

my ($coord, $coordinator) = coordinator_node('coordinator');


# 1. Nobody listens where the coordinator should be (a port the framework
# reserved for us and left unused).
my $dead_port = PostgreSQL::Test::Cluster::get_free_port();
my $lonely = writer('lonely', "host=127.0.0.1 port=$dead_port dbname=postgres");

is(lease_of($lonely), 'none', '1. before its first ID the server holds no lease');
my $r = attempt($lonely, 'SELECT sno_new()');
ok(!$r->{timed_out}, '1. sno_new() returns (no hang)');
note sprintf('1. sno_new() failed after %.2f s', $r->{secs});
isnt($r->{rc}, 0, '1. sno_new() fails without a coordinator');
is($r->{sqlstate}, '08006', '1. with SQLSTATE 08006 (connection failure)')
  or diag $r->{err};
like($r->{msg}, qr/^this server holds no lease in pool "uid"$/,
	'1. the error says that the server holds no lease in pool uid');
like($r->{err}, qr/CONTEXT:\s+while generating an ID with sno_new\(\)/,
	'1. its context names sno_new()');
like($r->{detail}, qr/^Claiming one failed: could not connect to the coordinator \(the server log says why\)\.$/,
	'1. the detail says that the coordinator could not be reached');
ok($lonely->log_contains(qr/DETAIL:  Claiming one failed: could not connect to the coordinator: .*\Q$dead_port\E/),
	"1. the server log has libpq's message, with the port (the client does not: TAP 030)");
$r = attempt($lonely, 'SELECT * FROM uid_identity_renew()');
is($r->{sqlstate}, '08006', '1. uid_identity_renew() fails the same way')
  or diag $r->{err};
is(lease_of($lonely), 'none', '1. and the server still holds no lease');
$lonely->stop;


# 2. A short lease (8 s), then the coordinator stops.
my $ttl = 8;
my $short = writer('short', $coordinator, "uid.pool = 'down'", "uid.pool_ttl = $ttl");

# (claimed 0.7 s into a second, so that the expiry is too: uid60's
# one-second tick is refused from the whole second before it, below)
$short->safe_psql('postgres',
	q{SELECT pg_sleep_until(date_trunc('second', clock_timestamp()) + interval '1.7 s')});
is($short->safe_psql('postgres', "SELECT state FROM try_new('sno_new()')"),
	'ok', '2. the first ID claims a lease');
my ($id, $token) = split /\|/,
  $short->safe_psql('postgres', 'SELECT lease_id, token FROM uid_identity_renew()');
is($id, 0, '2. the server holds id 0 of pool down');
$coord->stop('fast');

# The lease runs until expires_at; the coordinator cannot extend it now.
my (undef, $expiry) = split /\|/, lease_of($short);
note "2. the lease expires at $expiry";

# Generate every quarter of a second until a call that began after the
# expiry.  Each call: its outcome, whether it ended at least 0.1 s (25 of
# sno's 4 ms ticks) before the expiry, whether it began after it.
my (@before, @after);
my $warnings = '';
# uid60's tick is a whole second: from the second the expiry falls in, the
# tick would end after the lease, and uid60_new() refuses, saying so (it
# said the lease "expired at" a time still to come).  Tried once, by the
# loop below, when it finds the clock in that second.
my $frac = $short->safe_psql('postgres',
	qq{SELECT extract(epoch FROM '$expiry'::timestamptz) - floor(extract(epoch FROM '$expiry'::timestamptz))});
my $uid60_tried;
my $try_uid60 = sub {
	return if $uid60_tried || $frac < 0.6;
	return unless $short->safe_psql('postgres',
		qq{SELECT clock_timestamp() >= date_trunc('second', '$expiry'::timestamptz)}) eq 't';
	$uid60_tried = 1;
	my ($st, $m, $in_time) = split /\|/, $short->safe_psql('postgres',
		qq{SELECT state, coalesce(msg, ''), ended < '$expiry'::timestamptz FROM try_new('uid60_new()')});
	if ($in_time ne 't')
	{
		note '2. uid60_new() ended after the expiry (a slow machine): its refusal before it is not checked';
		return;
	}
	is($st, '08006', '2. in the second before the expiry uid60_new() refuses');
	like($m,
		qr/^this server's lease of id 0 in pool "down" ends at \Q$expiry\E, before the tick of the ID being made ends at /,
		'2. saying that the lease ends before its tick does');
};
my $done = poll_until(
	'a call after the lease expired',
	sub {
		my ($rc, $out, $err) = $short->psql(
			'postgres', qq{
			SELECT state, coalesce(msg, ''), ended < '$expiry'::timestamptz - interval '0.1 s',
				   began > '$expiry'::timestamptz
			FROM try_new('sno_new()')},
			timeout => $patience);
		$warnings .= $err;
		my ($state, $msg, $early, $late) = split /\|/, $out // '';
		$late //= '';
		$early //= '';
		push @before, [ $state, $msg ] if $early eq 't';
		push @after, [ $state, $msg ] if $late eq 't';
		$try_uid60->() unless $late eq 't';
		return $late eq 't';
	});
ok($done, '2. the server was asked for IDs until after its lease expired');
note "2. the expiry is $frac s into its second: uid60's refusal before it is not checked"
  if $frac < 0.6;
my @failed_before = grep { $_->[0] ne 'ok' } @before;
cmp_ok(scalar(@before), '>', 0, '2. and before it expired');
is(scalar(@failed_before), 0,
	'2. with the coordinator stopped, every ID asked for before the expiry was made')
  or diag join "\n", map { "$_->[0]: $_->[1]" } @failed_before;
like($warnings,
	qr/WARNING:  uid could not renew this server's lease of id 0 in pool "down", which expires at \Q$expiry\E/,
	'2. the renewals that failed were warnings naming the lease and its expiry');
my ($state, $msg) = @{ $after[0] // [ '', '' ] };
is($state, '08006', '2. after the expiry sno_new() refuses (08006: the coordinator is not there)');
is($msg,
	qq{this server's lease of id 0 in pool "down" expired at $expiry},
	'2. the error names the pool, the lease id and its expiry');

# Every generator refuses now.
for my $type (@types)
{
	my $g = $generator{$type};
	my $r = attempt($short, "SELECT $g");
	is($r->{sqlstate}, '08006', "2. after the expiry $g refuses with 08006")
	  or diag $r->{err};
	like($r->{msg}, qr/^this server's lease of id 0 in pool "down" expired at \Q$expiry\E$/,
		"2. $g names the pool, the lease and its expiry");
}
is( $short->safe_psql('postgres',
		'SELECT count(*) FILTER (WHERE several_servers_safe) FROM uid_identity()'),
	'0', '2. uid_identity() no longer calls the expired identity safe');

# The coordinator comes back: the lease nobody took in the meantime is
# renewed, and generation resumes under the same id and token.
$coord->start;
ok( poll_until(
		'generation to resume',
		sub {
			$short->safe_psql('postgres', "SELECT state FROM try_new('sno_new()')") eq 'ok';
		}),
	'2. generation resumes once the coordinator is back');
my ($id2) = split /\|/, lease_of($short);
is($id2, $id, '2. under the same lease id');
is( $coord->safe_psql(
		'postgres', q{
		SELECT id, token, state, (SELECT claims FROM uid_pool WHERE pool = 'down')
		FROM uid_pool_leases('down')}),
	"$id|$token|held|1",
	'2. the coordinator renewed the same lease (same token, no other claim)');
for my $type (@types)
{
	my $carried = carried_lease_id($type);
	is( $short->safe_psql('postgres',
			"SELECT $carried FROM (SELECT $generator{$type} AS id) x"),
		$id, "2. $type: a new ID carries the lease id");
}


# 3. The server restarts, with the coordinator stopped, and keeps its
# lease.  A longer time to live first, so that the lease outlasts the
# restart however slow it is.
$short->append_conf('postgresql.conf', 'uid.pool_ttl = 600');
$short->reload;
ok( poll_until(
		'the new time to live',
		sub {
			$short->safe_psql('postgres',
				q{SELECT effective FROM uid_config() WHERE name = 'uid.pool_ttl'}) eq '600 s';
		}),
	'3. uid.pool_ttl is 600 s after a reload');
my ($id4, $token4, $expiry4) = split /\|/,
  $short->safe_psql('postgres', 'SELECT lease_id, token, expires_at FROM uid_identity_renew()');
is("$id4|$token4", "$id|$token", '3. renewed: the same lease');
$coord->stop('fast');
$short->restart;
is(lease_of($short), "$id4|$expiry4",
	'3. after the restart uid_identity() shows the same lease, expiring when it did');
is( $short->safe_psql('postgres',
		"SELECT count(*) FILTER (WHERE several_servers_safe AND note LIKE 'leased from pool \"down\" of the coordinator; every pool hands out the same ids: %') FROM uid_identity()"),
	'6', '3. and calls it safe for several servers');
for my $type (@types)
{
	my $carried = carried_lease_id($type);
	my $r = attempt($short, "SELECT $carried FROM (SELECT $generator{$type} AS id) x");
	is($r->{out}, $id4,
		"3. $type: generated right after the restart, with the coordinator stopped, under the lease id")
	  or diag $r->{err};
}
$coord->start;
is( $coord->safe_psql(
		'postgres', q{
		SELECT id, token, state, (SELECT claims FROM uid_pool WHERE pool = 'down')
		FROM uid_pool_leases('down')}),
	"$id4|$token4|held|1",
	'3. the coordinator saw no new claim: the lease is held by the same token');
is( $short->safe_psql('postgres', 'SELECT lease_id, token FROM uid_identity_renew()'),
	"$id4|$token4",
	'3. and the server renews it with the same token');
$short->stop;


# 4. A coordinator that accepts connections and never answers: a listener
# of ours that keeps every connection open and says nothing.
my $hang_port = PostgreSQL::Test::Cluster::get_free_port();
my ($lin, $lout) = ('', '');
my $listener = IPC::Run::start(
	[
		$^X, '-MIO::Socket::INET', '-e', q{
		my $s = IO::Socket::INET->new(LocalAddr => '127.0.0.1', LocalPort => $ARGV[0],
			Listen => 64, ReuseAddr => 1, Proto => 'tcp') or die "listen: $!";
		$| = 1;
		print "listening\n";
		my @keep;
		while (1) { my $c = $s->accept; push @keep, $c if $c; }
	}, $hang_port
	],
	'<', \$lin, '>', \$lout, '2>', \$lout);
END { $listener->kill_kill if $listener && $listener->pumpable; }
my $listening = poll_until(
	'the listener',
	sub {
		$listener->pump_nb if $listener->pumpable;
		return $lout =~ /listening/;
	});
ok($listening, "4. a silent listener runs on port $hang_port") or diag $lout;

my $mute = writer('mute', "host=127.0.0.1 port=$hang_port dbname=postgres",
	'uid.coordinator_timeout = 2000');
$r = attempt($mute, "SET statement_timeout = '1s';\nSELECT sno_new();");
ok(!$r->{timed_out}, '4. with statement_timeout, sno_new() returns (no hang)');
is($r->{sqlstate}, '57014', '4. it ends with the statement timeout (57014)')
  or diag $r->{err};
like($r->{msg}, qr/canceling statement due to statement timeout/,
	'4. canceling statement due to statement timeout');
note sprintf('4. the statement timeout ended it after %.2f s', $r->{secs});

$r = attempt($mute, 'SELECT sno_new()');
ok(!$r->{timed_out}, '4. without statement_timeout, sno_new() returns (no hang)');
is($r->{sqlstate}, '08006', '4. it fails with 08006') or diag $r->{err};
like($r->{msg}, qr/^this server holds no lease in pool "uid"$/,
	'4. the server holds no lease');
like($r->{detail},
	qr/no answer within "uid\.coordinator_timeout" \(2000 ms\)/,
	'4. the coordinator gave no answer within uid.coordinator_timeout');
# The wait is bounded by the deadline, not ended early by something else.
cmp_ok($r->{secs}, '>=', 1.9, '4. it waited for uid.coordinator_timeout (2 s)');
note sprintf('4. sno_new() failed after %.2f s', $r->{secs});
is($mute->safe_psql('postgres', 'SELECT 1'), '1', '4. the server still answers');
$mute->stop;
$listener->kill_kill;

$coord->stop;

done_testing();
