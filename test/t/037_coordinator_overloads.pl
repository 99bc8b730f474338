# A coordinator whose extension schema a role may create in: that role's
# overloads of uid_pool_claim(), uid_pool_renew() and uid_pool_grace()
# (each with a defaulted extra argument, which makes a call by the
# documented arguments "not unique") leave the uid servers' claims and
# renewals working, because a server calls the twins that take
# uid_internal_call first (src/pool_functions.sql), which no role but the
# extension's owner can overload.  The twins keep the documented
# functions' lock: a role without EXECUTE on uid_pool_claim() cannot claim
# through its twin.
#  a. Two servers, connecting as a claimant role GRANTed EXECUTE on the
#     pool's functions, claim ids 0 and 1, distinct and recorded on the
#     coordinator; their IDs carry them.
#  b. Each renews its lease (uid_identity_renew()).
#  c. A role without EXECUTE is refused by the twin (42501).
# (Before the twins: the servers' claims failed with "function
# public.uid_pool_claim(unknown, integer, unknown, interval) is not
# unique" and no server had an identity.)

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my ($coord, $conninfo) = coordinator_node('ovl_coordinator');
$coord->safe_psql(
	'postgres', q{
	CREATE ROLE claimant LOGIN;
	GRANT EXECUTE ON FUNCTION uid_pool_claim(text, integer, text, interval),
		uid_pool_renew(text, integer, bigint, interval) TO claimant;
	CREATE ROLE nobody LOGIN;
	CREATE ROLE squatter;
	GRANT CREATE ON SCHEMA public TO squatter;
	SET ROLE squatter;
	CREATE FUNCTION public.uid_pool_claim(pool text, size integer, holder text, ttl interval,
										  x integer DEFAULT 0)
	RETURNS TABLE (id integer, token bigint, expires_at timestamptz)
	LANGUAGE sql AS $$ SELECT 0, 1::bigint, now() + interval '1 day' $$;
	CREATE FUNCTION public.uid_pool_renew(pool text, id integer, token bigint, ttl interval,
										  x integer DEFAULT 0)
	RETURNS timestamptz LANGUAGE sql AS $$ SELECT now() + interval '1 day' $$;
	CREATE FUNCTION public.uid_pool_grace(x integer DEFAULT 0)
	RETURNS interval LANGUAGE sql AS $$ SELECT interval '0' $$;
	RESET ROLE;});

# (the overloads do make a user's own call by the documented arguments fail)
my ($rc, $out, $err) = $coord->psql('postgres', 'SELECT uid_pool_grace()');
like($err, qr/function uid_pool_grace\(\) is not unique/,
	"the squatter's overloads make a user's call of uid_pool_grace() ambiguous");

# a. Two servers claim as the claimant.
my @servers;
for my $i (1 .. 2)
{
	my $node = uid_node(
		"ovl_server$i",
		coordinator => "$conninfo user=claimant",
		conf => ["uid.pool = 'ovl'"]);
	push @servers, $node;
	$node->safe_psql('postgres', 'CREATE TABLE t (id sno PRIMARY KEY DEFAULT sno_new())');
	($rc, $out, $err) =
	  $node->psql('postgres', 'INSERT INTO t SELECT FROM generate_series(1, 100)');
	is($rc, 0, "server $i: its INSERT with sno_new() succeeded") or diag $err;
}
my @ids = map {
	$_->safe_psql('postgres',
		"SELECT source || ' ' || lease_id FROM uid_identity() WHERE type = 'sno'")
} @servers;
is_deeply(\@ids, [ 'lease 0', 'lease 1' ], 'the servers hold the leases of ids 0 and 1');
is( $coord->safe_psql(
		'postgres',
		"SELECT string_agg(id || ':' || token, ',' ORDER BY id) FROM uid_pool_lease WHERE pool = 'ovl'"),
	'0:1,1:2',
	'the coordinator recorded both claims, with the tokens 1 and 2');
for my $i (0 .. 1)
{
	is( $servers[$i]->safe_psql(
			'postgres', 'SELECT count(DISTINCT sno_partition(id)) || \' \' || min(sno_partition(id)) FROM t'),
		"1 $i",
		'server ' . ($i + 1) . ": its IDs carry id $i");
}

# b. The renewals.
for my $i (0 .. 1)
{
	my $before = $coord->safe_psql('postgres',
		"SELECT renewed_at FROM uid_pool_lease WHERE pool = 'ovl' AND id = $i");
	($rc, $out, $err) = $servers[$i]->psql('postgres', 'SELECT lease_id FROM uid_identity_renew()');
	is("$rc $out", "0 $i", 'server ' . ($i + 1) . ': uid_identity_renew() renewed its lease')
	  or diag $err;
	is( $coord->safe_psql(
			'postgres',
			"SELECT renewed_at > '$before' FROM uid_pool_lease WHERE pool = 'ovl' AND id = $i"),
		't',
		'server ' . ($i + 1) . ': the coordinator shows the renewal');
}

# c. The twin's lock is the documented function's.
($rc, $out, $err) = $coord->psql('postgres',
	"SET ROLE nobody; SELECT * FROM uid_pool_claim(true::uid_internal_call, 'ovl', 4, 'x', '1 hour')");
like($err, qr/permission denied for function uid_pool_claim/,
	'a role without EXECUTE on uid_pool_claim() cannot claim through its twin');

$_->stop for @servers;
$coord->stop;

done_testing();
