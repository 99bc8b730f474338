# A Citus node group beyond a type's identity space.  Citus hands out node
# group ids from a sequence on the coordinator (pg_catalog.pg_dist_groupid_seq)
# and never twice, so a cluster whose nodes have come and gone reaches
# groups that some types cannot embed: snowflake_si's machine id (13 - the
# index width bits: 0..31 at width 8), uid60's worker (0..511), revts8's
# generator and cluster (64 x 16: 0..1023), sno's partition (0..65535);
# muid's medallion holds any.  With the sequence restarted before the add,
# a worker takes each group below in turn (removed and added again): each
# type that cannot embed it refuses (22023, naming the group, the field
# and its range, a hint naming a lease pool), the others generate and
# their IDs carry it (revts8: group % 64 and group / 64), and
# uid_identity() there says where each comes from (citus) and whether it
# keeps the nodes apart (several_servers_safe false where the type
# refuses).  At group 600, uid_citus_check() fails naming the types that
# refuse, and uid.generator set by hand is the way out for those it sets.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(id_types attempt);
use CitusTest;

my ($coord, $w1) = citus_cluster(workers => 1);
my $node = citus_node('worker2', 2);
my $bits = $coord->safe_psql('postgres',
	"LOAD 'uid'; SELECT current_setting('uid.snowflake_si_index_bits')");
my $mid_max = 2**(13 - $bits) - 1;

is( $coord->safe_psql('postgres',
		q{SELECT count(*) FROM pg_class WHERE oid = 'pg_catalog.pg_dist_groupid_seq'::regclass AND relkind = 'S'}),
	1, 'Citus hands out node groups from the sequence pg_catalog.pg_dist_groupid_seq');

# Each type: its field as uid_identity() and the refusal name it, the
# largest group it embeds, and its fields' values for a group.
my %space = (
	sno => [ 'partition', 65535 ],
	muid => [ 'medallion', undef ],
	snowflake_si => [ 'machine id', $mid_max ],
	revts8 => [ 'generator and cluster', 1023 ],
	uid60 => [ 'worker id', 511 ]);

# The node added as node group $g (the sequence restarted at $g first):
# what each type does there.
sub at_group
{
	my ($g) = @_;
	$coord->safe_psql('postgres', "ALTER SEQUENCE pg_catalog.pg_dist_groupid_seq RESTART $g");
	is(add_node($coord, $node), $g, "the node added after RESTART $g is node group $g");
	is(node_group($node), $g, "the node says it is group $g");

	my $ids = identity_of($node);
	my $want = expected_identity($g);
	my %identity = map {
		my ($k, $v, $s, $safe) = split /\|/;
		($k => "$v|$s|$safe")
	  } split /\n/,
	  $node->safe_psql('postgres',
		q{SELECT type || ' ' || field, coalesce(value::text, 'none'), source, several_servers_safe FROM uid_identity()});
	for my $type (id_types())
	{
		my ($field, $max) = @{ $space{$type} };
		my @rows = $type eq 'revts8' ? ('revts8 generator', 'revts8 cluster') : ("$type " . ($type eq 'uid60' ? 'worker' : $field));
		if (!defined $max || $g <= $max)
		{
			is($ids->{$type}, $want->{$type}, "group $g: $type generates, its IDs carry $want->{$type}");
			my @v = $type eq 'revts8' ? ($g % 64, int($g / 64)) : ($g);
			# (muid beyond 65535: uid_identity() took its space for a lease
			# pool's before this test, and said it refused, which it did not)
			is(join(',', map { $identity{$_} // 'no row' } @rows),
				join(',', map { "$_|citus|t" } @v),
				"group $g: uid_identity() shows the $type identity from citus, safe");
			next;
		}
		my $r = attempt($node, "SELECT " . generator_of($type));
		is( ($r->{sqlstate} // '') . '|' . ($r->{msg} // $r->{err}),
			"22023|Citus node group $g does not fit type $type (0..$max)",
			"group $g: $type refuses (0..$max)");
		like($r->{err}, qr/HINT:  Lease identities from a pool \("uid\.coordinator"\)/,
			"group $g: the refusal's hint names a lease pool");
		is(join(',', map { $identity{$_} // 'no row' } @rows),
			join(',', map { 'none|citus|f' } @rows),
			"group $g: uid_identity() shows $type with no value from citus, not safe");
	}
	return;
}

sub remove
{
	$coord->safe_psql('postgres', "SELECT citus_remove_node('127.0.0.1', " . $node->port . ')');
	return;
}

at_group(600);

# uid_citus_check() fails on the types that refuse.
my $r = attempt($coord, 'SELECT uid_citus_check()');
my $addr = '127.0.0.1:' . $node->port;
is($r->{sqlstate}, '55000', 'group 600: uid_citus_check() fails');
like($r->{detail}, qr/identity: $_ on \Q$addr\E: [^;]*\(none\) \(citus\)/,
	"group 600: uid_citus_check() names $_ on the node, with no value")
  for qw(snowflake_si uid60);
unlike($r->{detail}, qr/identity: (?:sno|muid|revts8) /,
	'group 600: nor any type that generates there');

# uid.generator set by hand: snowflake_si, uid60 and revts8's generator
# take it (revts8's cluster its default, 0).
my $hand = 20;
# Whether uid60's worker on the node comes from $source.
my $uid60_from = sub {
	my ($source) = @_;
	return sub {
		$node->safe_psql('postgres', q{SELECT source FROM uid_identity() WHERE type = 'uid60'}) eq
		  $source;
	};
};
ok(reload_setting($node, 'uid.generator', $hand, $uid60_from->('setting')),
	"group 600: uid.generator $hand in force");
is_deeply(
	identity_of($node),
	{ sno => 600, muid => 600, snowflake_si => $hand, revts8 => "$hand|0", uid60 => $hand },
	"group 600, uid.generator $hand: every type generates, those it sets with $hand");
ok(reload_setting($node, 'uid.generator', undef, $uid60_from->('citus')),
	'group 600: uid.generator reset');
remove();

# The edges of each space.
for my $g ($mid_max, $mid_max + 1, 511, 512, 1023, 1024, 65535, 65536)
{
	at_group($g);
	remove();
}

# A node whose pg_dist_local_group is empty (as between pg_upgrade and
# citus_finish_pg_upgrade(), which fills it with an INSERT, on which
# Citus's trigger sends no invalidation) refuses, and a session that was
# refused takes the group as soon as the row is back: an empty table is
# never kept (before, the session went on refusing until a catalog change
# reached it).
$w1->safe_psql('postgres', 'DELETE FROM pg_dist_local_group');
my $s = $w1->background_psql('postgres', on_error_stop => 0);
$s->query('SELECT snowflake_si_new()');
like($s->{stderr}, qr/this node's Citus node group is not known: pg_catalog\.pg_dist_local_group has no row/,
	'an empty pg_dist_local_group refuses');
$s->{stderr} = '';
$w1->safe_psql('postgres', 'INSERT INTO pg_dist_local_group VALUES (1)');
is($s->query('SELECT snowflake_si_machine(snowflake_si_new(), 8)'), '1',
	'the refused session takes the group once the row is back');
is($s->{stderr}, '', '... with no error');
$s->quit;

# Parallel workers read the group themselves: IDs made in a Gather's workers
# on worker 1 carry its group.
my $par = q{SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0;
	SET min_parallel_table_scan_size = 0; SET max_parallel_workers_per_gather = 2;};
$w1->safe_psql('postgres',
	'CREATE TABLE par (v int); INSERT INTO par SELECT g FROM generate_series(1, 100000) g; ANALYZE par');
like($w1->safe_psql('postgres', "$par EXPLAIN (COSTS OFF) SELECT snowflake_si_new() FROM par"),
	qr/Gather.*Parallel Seq Scan/s, 'the query runs in parallel workers');
is( $w1->safe_psql(
		'postgres', qq{$par
		SELECT string_agg(DISTINCT snowflake_si_machine(id, 8) || '/' || uid60_worker(u), ','), count(*) = count(DISTINCT id)
		FROM (SELECT snowflake_si_new() AS id, uid60_new() AS u FROM par WHERE v % 100 = 0) s}),
	'1/1|t',
	'IDs made by parallel workers carry the node group, none twice');

done_testing();
