# uid_citus_check(): what the nodes of a Citus cluster must share
# (snowflake_si's layout: uid.snowflake_si_epoch, uid.snowflake_si_index_bits,
# which Citus does not propagate, ALTER SYSTEM being per node) and keep
# apart (each type's identity).
#   1. A fresh cluster: no layout noted on any node; uid_citus_settings()
#      lists the three nodes, every row agreeing; uid_citus_check() passes
#      and notes the layout on every node (uid_citus_node()'s agreed_*).
#   2. One worker's index width changed (ALTER SYSTEM, reload): once it
#      has taken the reload, its snowflake_si_new() is refused (55000), in
#      a session of its own and in an INSERT .. SELECT through the
#      coordinator that generates on the workers; its other types still
#      generate, and so do the other nodes' snowflake_si; uid_citus_check()
#      fails naming the worker and uid.snowflake_si_index_bits.  Reset and
#      reloaded, the worker generates again and the check passes.
#   2b. Its base clock changed alone: it generates (no ID can repeat
#      another node's), warning once per record; the check fails.
#   3. Every node moved to another width: all of them refuse snowflake_si
#      until uid_citus_check() notes the new layout, then all generate
#      under it.
#   4. uid.generator set by hand on worker 2 to worker 1's node group:
#      uid_citus_check() fails naming the identities the two share
#      (snowflake_si, revts8, uid60), and passes once it is reset.
#   5. The noted layout outlives a restart: worker 2 restarted at another
#      width refuses snowflake_si.
#   6. A node added after the check has no layout noted: it generates
#      under its own width until uid_citus_check(), which names it, is run
#      again (so it must be run after every citus_add_node).
#   7. uid_citus_agree() (and uid_citus_check()) are not PUBLIC's, and
#      uid_citus_agree() refuses a non-superuser even with EXECUTE granted
#      (42501), noting nothing.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(id_types poll_until attempt);
use CitusTest;

my ($coord, $w1, $w2) = citus_cluster();
my @nodes = ($coord, $w1, $w2);
my %addr = map { $_->name => '127.0.0.1:' . $_->port } $w1, $w2;
my %group = map { $_->name => node_group($_) } @nodes;
my @other_types = grep { $_ ne 'snowflake_si' } id_types();

# The layout in force and the one noted, as uid_citus_node() shows them.
sub layout
{
	my ($node) = @_;
	return $node->safe_psql('postgres',
		q{SELECT snowflake_si_index_bits, coalesce(agreed_index_bits::text, 'none'),
				 agreed_epoch IS NOT DISTINCT FROM snowflake_si_epoch FROM uid_citus_node()});
}

# SQLSTATE|message of what running $sql on $node raised, or 'ok'.
sub outcome
{
	my ($node, $sql) = @_;
	my $r = attempt($node, $sql);
	return $r->{rc} == 0 ? 'ok' : ($r->{sqlstate} // '?') . '|' . ($r->{msg} // $r->{err});
}

my $layout_refused = "55000|this node's snowflake_si layout is not its Citus cluster's";

# Whether snowflake_si_new() works on $node: 'ok', or what it raised.
sub snowflake
{
	my ($node) = @_;
	return outcome($node, 'SELECT snowflake_si_new()');
}

# uid_citus_check() on the coordinator: 'ok|<its text>' or
# 'SQLSTATE|message|detail'.
sub check
{
	my $r = attempt($coord, 'SELECT uid_citus_check()');
	return "ok|$r->{out}" if $r->{rc} == 0;
	return join '|', map { $_ // '' } @$r{qw(sqlstate msg detail)};
}

# The rows of uid_citus_settings() that do not agree: node|name|value.
sub disagreeing
{
	return $coord->safe_psql('postgres',
		q{SELECT node || '|' || name || '|' || coalesce(value, '') FROM uid_citus_settings()
		  WHERE NOT agrees ORDER BY 1});
}

# 1.
is(layout($_), '8|none|f', $_->name . ': a fresh node has no layout noted') for @nodes;
is( $coord->safe_psql('postgres',
		q{SELECT count(DISTINCT node) || ' nodes, ' || count(*) || ' rows, ' ||
				 count(*) FILTER (WHERE agrees) || ' agree' FROM uid_citus_settings()}),
	'3 nodes, 24 rows, 24 agree',
	'uid_citus_settings(): the three nodes\' version, layout and five identities, all agreeing');
is( $coord->safe_psql('postgres',
		q{SELECT string_agg(DISTINCT node_group::text, ',' ORDER BY node_group::text) FROM uid_citus_settings()}),
	join(',', sort values %group), 'uid_citus_settings(): the nodes\' groups');
like(check(), qr/^ok\|3 nodes agree: snowflake_si epoch .*, index width 8\b/,
	'uid_citus_check() passes on a fresh cluster');
is(layout($_), '8|8|t', $_->name . ': uid_citus_check() noted the layout') for @nodes;
is(snowflake($_), 'ok', $_->name . ': snowflake_si_new() under the noted layout') for @nodes;

$coord->safe_psql(
	'postgres', q{
	CREATE TABLE src (k int, v int);
	SELECT create_distributed_table('src', 'k');
	INSERT INTO src SELECT g, g FROM generate_series(1, 200) g;
	CREATE TABLE sf (id snowflake_si PRIMARY KEY DEFAULT snowflake_si_new(), v int);
	SELECT create_distributed_table('sf', 'id');
});
my $on_workers = 'INSERT INTO sf (id, v) SELECT snowflake_si_new(), v FROM src';
is(outcome($coord, $on_workers), 'ok',
	'an INSERT .. SELECT through the coordinator generates on the workers');

# 2.
ok( reload_setting($w1, 'uid.snowflake_si_index_bits', 6, sub { layout($w1) eq '6|8|t' }),
	'worker1: uid.snowflake_si_index_bits 6 in force after the reload');
ok(poll_until('worker1 to refuse snowflake_si', sub { snowflake($w1) ne 'ok' }),
	'worker1: snowflake_si_new() refused once the reload is taken');
is(snowflake($w1), $layout_refused, 'worker1: snowflake_si_new() refused with 55000');
like(attempt($w1, 'SELECT snowflake_si_new()')->{detail},
	qr/"uid\.snowflake_si_index_bits" 6; uid_citus_check\(\) found the cluster's nodes to share .* and 8\./,
	'worker1: the refusal says what the node has and what the cluster shares');
is(outcome($w1, "SELECT ${_}_new()"), 'ok', "worker1: $_ still generates") for @other_types;
is(snowflake($_), 'ok', $_->name . ': snowflake_si_new() still works') for $coord, $w2;
is(outcome($coord, $on_workers), $layout_refused,
	'an INSERT .. SELECT through the coordinator that generates on worker1 is refused');
is(outcome($coord, 'INSERT INTO sf (v) SELECT g FROM generate_series(1, 50) g'), 'ok',
	'the coordinator still generates into the shards on worker1');
my $c = check();
like($c, qr/^55000\|the nodes of this Citus cluster do not agree on uid's settings\|/,
	'uid_citus_check() fails');
like($c, qr/uid\.snowflake_si_index_bits on \Q$addr{worker1}\E: 6 \(coordinator: 8\)/,
	'uid_citus_check() names worker1 and uid.snowflake_si_index_bits');
is(disagreeing(), "$addr{worker1}|uid.snowflake_si_index_bits|6",
	'uid_citus_settings(): the one row that does not agree');

ok( reload_setting($w1, 'uid.snowflake_si_index_bits', undef, sub { layout($w1) eq '8|8|t' }),
	'worker1: uid.snowflake_si_index_bits reset');
ok(poll_until('worker1 to generate snowflake_si', sub { snowflake($w1) eq 'ok' }),
	'worker1: snowflake_si_new() works again once the reset is taken');
like(check(), qr/^ok\|3 nodes agree/, 'uid_citus_check() passes again');
is(outcome($coord, $on_workers), 'ok',
	'the INSERT .. SELECT that generates on the workers works again');

# 2b. Worker1's base clock changed alone: its snowflake_si cannot repeat
#     another node's (the index width, hence the machine ids, are the
#     cluster's), so it generates, with a WARNING once per record that the
#     other nodes date its IDs with their own base clock; uid_citus_check()
#     fails naming the setting.  Reset, it generates without a word.
ok( reload_setting($w1, 'uid.snowflake_si_epoch', q{'2025-06-01 00:00:00+00'},
		sub { layout($w1) eq '8|8|f' }),
	'worker1: another uid.snowflake_si_epoch in force after the reload');
my $r = attempt($w1, 'SELECT count(*) FROM (SELECT snowflake_si_new() FROM generate_series(1, 3)) s');
is("$r->{rc}|$r->{out}", '0|3', 'worker1: snowflake_si_new() generates under another base clock');
my @warnings = $r->{err} =~ /WARNING:\s+(?:01000: |55000: )?(this node's snowflake_si base clock is not its Citus cluster's)/g;
is(scalar @warnings, 1, 'worker1: with one WARNING for the three IDs') or diag $r->{err};
like($r->{err}, qr/uid_citus_check\(\) found the cluster's nodes to share/,
	'worker1: the WARNING says what the cluster shares');
is(outcome($coord, $on_workers), 'ok',
	'an INSERT .. SELECT that generates on worker1 goes through');
like(check(), qr/^55000\|the nodes of this Citus cluster do not agree on uid's settings\|.*uid\.snowflake_si_epoch on \Q$addr{worker1}\E/s,
	'uid_citus_check() fails naming worker1 and uid.snowflake_si_epoch');
ok( reload_setting($w1, 'uid.snowflake_si_epoch', undef, sub { layout($w1) eq '8|8|t' }),
	'worker1: uid.snowflake_si_epoch reset');
$r = attempt($w1, 'SELECT snowflake_si_new()');
is("$r->{rc}|" . ($r->{err} =~ /WARNING/ ? 'warned' : 'quiet'), '0|quiet',
	'worker1: snowflake_si_new() generates without a WARNING once reset');
like(check(), qr/^ok\|3 nodes agree/, 'uid_citus_check() passes again');

# 3.
for my $node (@nodes)
{
	ok( reload_setting($node, 'uid.snowflake_si_index_bits', 6, sub { layout($node) eq '6|8|t' }),
		$node->name . ': uid.snowflake_si_index_bits 6 in force');
}
ok(poll_until('every node to refuse snowflake_si', sub { !grep { snowflake($_) eq 'ok' } @nodes }),
	'every node refuses snowflake_si under a width not noted');
is(snowflake($_), $layout_refused, $_->name . ': refused with 55000') for @nodes;
like(check(), qr/^ok\|3 nodes agree: .*, index width 6\b/,
	'uid_citus_check() passes with every node at width 6');
is(layout($_), '6|6|t', $_->name . ': the new layout noted') for @nodes;
for my $node (@nodes)
{
	my $g = $group{ $node->name };
	is( $node->safe_psql('postgres',
			'SELECT snowflake_si_machine(id, 6) || \'|\' || snowflake_si_machine(id) '
			  . 'FROM (SELECT snowflake_si_new() AS id) s'),
		"$g|$g", $node->name . ": generates at width 6, machine id $g");
}
is(outcome($coord, $on_workers), 'ok', 'the INSERT .. SELECT that generates on the workers works at width 6');
check_no_duplicates($coord, 'sf', 'snowflake_si, widths 8 and 6');

# 4.
my $g1 = $group{worker1};
ok( reload_setting(
		$w2, 'uid.generator', $g1,
		sub {
			$w2->safe_psql('postgres',
				q{SELECT value || '|' || source FROM uid_identity() WHERE type = 'uid60'}) eq
			  "$g1|setting";
		}),
	"worker2: uid.generator $g1 (worker1's group) by hand");
$c = check();
like($c, qr/^55000\|the nodes of this Citus cluster do not agree on uid's settings\|/,
	'uid_citus_check() fails when two nodes share an identity');
for my $type (qw(snowflake_si revts8 uid60))
{
	like($c, qr/identity: $type on \Q$addr{$_}\E: /, "uid_citus_check() names $type on $_")
	  for qw(worker1 worker2);
}
unlike($c, qr/identity: (?:sno|muid) /, 'uid_citus_check() names no identity of sno or muid');
is( $coord->safe_psql('postgres',
		q{SELECT string_agg(name || ' on ' || node, ', ' ORDER BY name, node) FROM uid_citus_settings()
		  WHERE NOT agrees}),
	join(', ',
		map { my $t = $_; map { "identity: $t on $addr{$_}" } qw(worker1 worker2) }
		  qw(revts8 snowflake_si uid60)),
	'uid_citus_settings(): the shared identities are the rows that do not agree');
ok( reload_setting(
		$w2, 'uid.generator', undef,
		sub {
			$w2->safe_psql('postgres',
				q{SELECT value || '|' || source FROM uid_identity() WHERE type = 'uid60'}) eq
			  "$group{worker2}|citus";
		}),
	'worker2: uid.generator reset, its node group again');
like(check(), qr/^ok\|3 nodes agree/, 'uid_citus_check() passes once reset');

# 5. The noted layout outlives a restart (a word of the state file).
$w2->safe_psql('postgres', 'ALTER SYSTEM RESET uid.snowflake_si_index_bits');
$w2->restart;
is(layout($w2), '8|6|t', 'worker2, restarted at width 8: the noted layout is still 6');
is(snowflake($w2), $layout_refused, 'worker2, restarted at width 8: snowflake_si_new() refused');
ok(reload_setting($w2, 'uid.snowflake_si_index_bits', 6, sub { snowflake($w2) eq 'ok' }),
	'worker2: back at width 6, snowflake_si_new() works');

# 6. A node added after the check has no layout noted: it generates under
# its own (here the built-in width, 8), which the others decode with
# theirs, until uid_citus_check() is run again, which names it.
my $w3 = citus_node('worker3', 3);
my $g3 = add_node($coord, $w3);
my $addr3 = '127.0.0.1:' . $w3->port;
is(layout($w3), '8|none|f', 'worker3, added after the check: no layout noted');
is( $w3->safe_psql('postgres',
		'SELECT snowflake_si_machine(id) || \'|\' || snowflake_si_machine(id, 6) = \'' . $g3 . '|' . $g3 . '\' '
		  . 'FROM (SELECT snowflake_si_new() AS id) s'),
	'f', "worker3: generates at width 8, its IDs' machine id not $g3 at the cluster's width 6");
like(check(), qr/uid\.snowflake_si_index_bits on \Q$addr3\E: 8 \(coordinator: 6\)/,
	'uid_citus_check() names worker3 and its width');
ok(reload_setting($w3, 'uid.snowflake_si_index_bits', 6, sub { layout($w3) eq '6|none|f' }),
	'worker3: width 6 in force');
like(check(), qr/^ok\|4 nodes agree: .*, index width 6\b/, 'uid_citus_check() passes with worker3');
is(layout($w3), '6|6|t', 'worker3: the layout noted');
is( $w3->safe_psql('postgres',
		'SELECT snowflake_si_machine(id, 6) FROM (SELECT snowflake_si_new() AS id) s'),
	$g3, "worker3: generates at width 6, machine id $g3");

# 7.
$coord->safe_psql('postgres', 'CREATE ROLE alice LOGIN');
for my $node (@nodes)
{
	my $name = $node->name;
	is( $node->safe_psql(
			'postgres', q{
			SELECT p.proacl IS NOT NULL AND NOT EXISTS (SELECT 1 FROM aclexplode(p.proacl) a
						WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE')
			FROM pg_proc p WHERE p.oid = 'uid_citus_agree(timestamptz, integer)'::regprocedure}),
		't', "$name: PUBLIC may not execute uid_citus_agree()");
	is( $node->safe_psql('postgres',
			q{SELECT has_function_privilege('alice', 'uid_citus_agree(timestamptz, integer)', 'EXECUTE')}),
		'f', "$name: nor may a role of its own");
}
is(outcome($coord, "SET ROLE alice; SELECT uid_citus_agree('2024-01-01Z', 8)"),
	'42501|permission denied for function uid_citus_agree',
	'uid_citus_agree() refused to a non-superuser (42501)');
is(outcome($coord, 'SET ROLE alice; SELECT uid_citus_check()'),
	'42501|permission denied for function uid_citus_check',
	'uid_citus_check() refused to a non-superuser (42501)');
$coord->safe_psql('postgres',
	'GRANT EXECUTE ON FUNCTION uid_citus_agree(timestamptz, integer) TO alice');
is(outcome($coord, "SET ROLE alice; SELECT uid_citus_agree('2024-01-01Z', 8)"),
	"42501|permission denied to note a Citus cluster's snowflake_si layout",
	'uid_citus_agree() refuses a non-superuser granted EXECUTE (42501)');
is(layout($coord), '6|6|t', 'the coordinator: the noted layout unchanged');
is(snowflake($coord), 'ok', 'the coordinator: snowflake_si_new() works');

# On a worker, the check and the listing refuse: the coordinator's values
# are what the others are compared with.
for my $f ('uid_citus_check()', '* FROM uid_citus_settings()')
{
	my $r = attempt($w1, "SELECT $f");
	is("$r->{sqlstate}|$r->{msg}", '55000|this node is not the coordinator of its Citus cluster',
		"SELECT $f on a worker refuses");
}

done_testing();
