# snowflake_si in distributed DML (issue 37, point 2).  Citus refuses a
# function that is not IMMUTABLE in the RETURNING clause of a statement on
# a distributed table, and a STABLE function over a column in the SET or
# WHERE of an UPDATE or DELETE; snowflake_si's one-argument accessors are
# STABLE (they read the node's uid.snowflake_si_epoch and
# uid.snowflake_si_index_bits), its two-argument forms IMMUTABLE.  On a
# table sf keyed by snowflake_si (DEFAULT snowflake_si_new()), through the
# coordinator and through each worker (Citus's MX):
#   1. INSERT .. RETURNING snowflake_si_timestamp(id, <epoch>),
#      snowflake_si_machine(id, <index width>), one row, several rows
#      (VALUES) and INSERT .. SELECT: the time the ID was made (between
#      the clock before the statement and after it) and the node group of
#      the node that made it.  The one-argument forms there: refused in an
#      INSERT .. VALUES; an INSERT .. SELECT takes them (Citus runs its
#      RETURNING on the node of each shard, which decodes with its own
#      settings: uid_citus_check() makes sure they agree, 010).
#   2. UPDATE .. SET .. WHERE snowflake_si_machine(id, <width>) = <group>
#      (and RETURNING, and SET from the ID): the rows that group made;
#      the one-argument forms refused in WHERE and in SET.
#   3. DELETE .. WHERE snowflake_si_timestamp(id, <epoch>) < now() - ..:
#      just the rows of IDs made (snowflake_si_from_parts) two days ago;
#      the one-argument form refused.
#   4. A SELECT (no restriction there): the one-argument forms, run on the
#      workers with their own settings, decode as the two-argument ones.
# The epoch and the width are what the nodes SHOW (all the same: no uid
# setting is touched).  No duplicate ID at the end.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use CitusTest;

my ($coord, $w1, $w2) = citus_cluster();
my @nodes = ($coord, $w1, $w2);
my %group = map { $_->name => node_group($_) } @nodes;

# The layout as each node shows it (the settings are defined once uid is
# loaded).
my %layout = map {
	$_->name => $_->safe_psql('postgres',
		"LOAD 'uid'; SELECT current_setting('uid.snowflake_si_epoch') || '|' || "
		  . "current_setting('uid.snowflake_si_index_bits')")
} @nodes;
my ($epoch, $bits) = split /\|/, $layout{coordinator};
note "snowflake_si layout: epoch $epoch, index width $bits";
is($layout{ $_->name }, $layout{coordinator}, $_->name . ': the coordinator\'s layout')
  for $w1, $w2;
my $ts = "snowflake_si_timestamp(id, '$epoch')";
my $mid = "snowflake_si_machine(id, $bits)";
my $top_mid = 2**(13 - $bits) - 1;    # the largest machine id: no node's group

create_id_table($coord, 'sf', 'snowflake_si', 'g int NOT NULL, v int NOT NULL DEFAULT 0');

# Runs $sql on $node expecting an error: checks its message.
sub refused
{
	my ($node, $sql, $re, $what) = @_;
	my ($rc, $out, $err) = $node->psql('postgres', $sql);
	local $Test::Builder::Level = $Test::Builder::Level + 1;
	ok($rc != 0 && $err =~ $re, "$what: refused")
	  or diag "rc $rc, stdout: $out, stderr: $err";
	return;
}

my $returning_refused = qr/non-IMMUTABLE functions are not allowed in the RETURNING clause/;
my $column_refused = qr/STABLE functions used in UPDATE queries cannot be called with column references/;

# 1. The statements of each kind, on each node, tagged g = the node's group.
my %insert = (
	'one row' => sub { "INSERT INTO sf (g) VALUES ($_[0])" },
	'VALUES' => sub { "INSERT INTO sf (g) VALUES " . join(', ', ("($_[0])") x 20) },
	'INSERT .. SELECT' =>
	  sub { "INSERT INTO sf (g) SELECT $_[0] FROM generate_series(1, 20)" });
my %made;    # rows made, by group
for my $node (@nodes)
{
	my $name = $node->name;
	my $g = $group{$name};
	for my $kind (sort keys %insert)
	{
		my $sql = $insert{$kind}->($g);
		my $before = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
		my $out = $node->safe_psql('postgres', "$sql RETURNING id, $ts, $mid");
		my $after = $node->safe_psql('postgres', 'SELECT clock_timestamp()');
		my @rows = map { [ split /\|/ ] } split /\n/, $out;
		$made{$g} += @rows;
		my $want = $kind eq 'one row' ? 1 : 20;
		is(scalar @rows, $want, "$name, $kind: RETURNING the two-argument forms gives a row per ID");
		is(join(',', sort { $a <=> $b } keys %{ { map { $_->[2] => 1 } @rows } }),
			$g, "$name, $kind: snowflake_si_machine(id, $bits) is the node's group, $g");
		# in the SQL of the coordinator (one clock): the IDs' millisecond
		# is that of the statement
		my $list = join ', ', map { "'$_->[1]'" } @rows;
		is( $coord->safe_psql(
				'postgres', qq{
				SELECT count(*) FILTER (WHERE t < date_trunc('milliseconds', '$before'::timestamptz)
									 OR t > '$after'::timestamptz)
				FROM unnest(ARRAY[$list]::timestamptz[]) t}),
			0,
			"$name, $kind: snowflake_si_timestamp(id, <epoch>) is when the statement ran");
		# the returned IDs are the rows' (and decode the same in a SELECT)
		my $ids = join ', ', map { "'$_->[0]'" } @rows;
		is( $coord->safe_psql('postgres',
				"SELECT count(*) FROM sf WHERE id IN ($ids) AND g = $g AND $mid = $g"),
			$want, "$name, $kind: the IDs returned are the rows inserted");

		if ($kind eq 'INSERT .. SELECT')
		{
			# Citus takes these (it runs the RETURNING on the node of each
			# shard): they decode with that node's settings
			my $out = $node->safe_psql('postgres',
				"$sql RETURNING snowflake_si_timestamp(id) = $ts, "
				  . "snowflake_si_machine(id) = $mid, "
				  . "snowflake_si_index(id) = snowflake_si_index(id, $bits)");
			$made{$g} += 20;
			is(join(',', sort keys %{ { map { $_ => 1 } split /\n/, $out } }), 't|t|t',
				"$name, $kind: RETURNING the one-argument forms is taken, and they decode as the two-argument ones"
			);
			next;
		}
		refused($node, "$sql RETURNING snowflake_si_timestamp(id)",
			$returning_refused, "$name, $kind: RETURNING snowflake_si_timestamp(id)");
		refused($node, "$sql RETURNING snowflake_si_machine(id)",
			$returning_refused, "$name, $kind: RETURNING snowflake_si_machine(id)");
		refused($node, "$sql RETURNING snowflake_si_index(id)",
			$returning_refused, "$name, $kind: RETURNING snowflake_si_index(id)");
	}
}
note 'rows made by group: ' . join ', ', map { "$_: $made{$_}" } sort keys %made;

# 2. UPDATE by the machine id: through each node, the rows one group made.
my %marker = (1 => 10, 2 => 20, 0 => 30);
my @by = ([ $coord, 1 ], [ $w1, 2 ], [ $w2, 0 ]);
for my $u (@by)
{
	my ($node, $g) = @$u;
	$node->safe_psql('postgres', "UPDATE sf SET v = $marker{$g} WHERE $mid = $g");
}
is( $coord->safe_psql('postgres', 'SELECT g, v, count(*) FROM sf GROUP BY g, v ORDER BY g, v'),
	join("\n", map { "$_|$marker{$_}|$made{$_}" } sort keys %made),
	'UPDATE .. WHERE snowflake_si_machine(id, <width>) = <group> through each node: '
	  . 'just the rows that group made, all of them');
for my $node (@nodes)
{
	my $name = $node->name;
	my $g = $group{$name};
	my $out = $node->safe_psql('postgres',
		"UPDATE sf SET v = $mid + 100 WHERE $mid = $g RETURNING $mid, $ts >= '$epoch'");
	is(join(',', sort keys %{ { map { $_ => 1 } split /\n/, $out } }), "$g|t",
		"$name: UPDATE .. SET v = snowflake_si_machine(id, <width>) .. RETURNING the two-argument forms");
}
is( $coord->safe_psql('postgres', 'SELECT count(*) FROM sf WHERE v <> g + 100'),
	0, 'UPDATE .. SET from the two-argument form: every row set from its own ID');
for my $node (@nodes)
{
	my $name = $node->name;
	refused($node, 'UPDATE sf SET v = 0 WHERE snowflake_si_machine(id) = 1',
		$column_refused, "$name: UPDATE .. WHERE snowflake_si_machine(id) = ..");
	refused($node, 'UPDATE sf SET v = snowflake_si_index(id) WHERE g = 1',
		$column_refused, "$name: UPDATE .. SET v = snowflake_si_index(id)");
	refused($node, 'UPDATE sf SET v = 0 WHERE g = 1 RETURNING snowflake_si_timestamp(id)',
		$returning_refused, "$name: UPDATE .. RETURNING snowflake_si_timestamp(id)");
}
is($coord->safe_psql('postgres', 'SELECT count(*) FROM sf WHERE v <> g + 100'),
	0, 'the refused UPDATEs changed nothing');

# 3. DELETE by the time: rows of IDs made two days ago (the machine id no
# node has), deleted through each node in turn.
my $total = $coord->safe_psql('postgres', 'SELECT count(*) FROM sf');
for my $node (@nodes)
{
	my $name = $node->name;
	$coord->safe_psql('postgres',
		"INSERT INTO sf (id, g) SELECT snowflake_si_from_parts(now() - interval '2 days', $top_mid, i, '$epoch', $bits), -1 "
		  . 'FROM generate_series(0, 9) i');
	refused($node, "DELETE FROM sf WHERE snowflake_si_timestamp(id) < now() - interval '1 day'",
		$column_refused, "$name: DELETE .. WHERE snowflake_si_timestamp(id) < ..");
	my @deleted = split /\n/,
	  $node->safe_psql('postgres',
		"DELETE FROM sf WHERE $ts < now() - interval '1 day' RETURNING g, $mid");
	is(join(',', sort keys %{ { map { $_ => 1 } @deleted } }) . ' x' . @deleted,
		"-1|$top_mid x10",
		"$name: DELETE .. WHERE snowflake_si_timestamp(id, <epoch>) < now() - .. deletes just the old IDs' rows");
	is($coord->safe_psql('postgres', 'SELECT count(*) FROM sf'), $total, "$name: the others are there");
}

# 4. In a SELECT, the one-argument forms run on the workers and decode as
# the two-argument ones there.
is( $coord->safe_psql(
		'postgres', qq{
		SELECT count(*) FILTER (WHERE snowflake_si_timestamp(id) <> $ts
							 OR snowflake_si_machine(id) <> $mid
							 OR snowflake_si_index(id) <> snowflake_si_index(id, $bits))
		FROM sf WHERE snowflake_si_machine(id) >= 0}),
	0, 'SELECT: the one-argument forms decode as the two-argument ones on every node');

check_no_duplicates($coord, 'sf', 'snowflake_si through every node');

done_testing();
