# doc/multi-master.md's recipe, run as written, on a schema nobody here
# wrote: pgbench's, in schema app, with uid in schema uid, on two primaries
# a and b that replicate to each other (PostgreSQL 16+'s origin = none; on
# 15 the file is skipped: the recipe's subscriptions need it).  The page's
# blocks marked "<!-- guide: NAME -->" are read from the page itself and run
# verbatim but for the host in the subscriptions' connection strings.
#
# pgbench -i makes its four tables in app (search_path); uid keys where it
# has none: pgbench_history gets an sno key, and one table per other type
# (muid, snowflake_si, revts8, uid60) a key made by its generator, each row
# noting the server that made it (cluster_name).  Then:
#  a. the guide's check: every row of uid.uid_identity() several_servers_safe
#     on both, no (type, field) with the same value on a and b; the
#     publication lists app's tables only (not uid_pool and the others);
#  b. pgbench, TPC-B-like plus inserts into the per-type tables, on both
#     servers at once: 0 IDs made by both servers, per type; once
#     replication caught up both ways, both hold the same IDs in each
#     uid-keyed table; 0 apply and sync errors in pg_stat_subscription_stats
#     on both;
#  c. the negative control: the same setup on two other servers, the
#     identity's ALTER SYSTEM lines left out: the guide's check says
#     several_servers_safe = f, and an insert into each uid-keyed table is
#     refused with uid's message (SQLSTATE 55000), pgbench's transaction
#     too: no ID is made, rather than the same one on both.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidGuide;
use UidTest;

my $page = 'doc/multi-master.md';
my $refusal = qr/55000: uid makes no ID with a default identity in a database that takes rows from another server/;
my $clients = 2;
my $per_client = 250;    # pgbench transactions per client and server
my $rows = 4;            # rows per transaction in each per-type table

my ($a, $b) = map { PostgreSQL::Test::Cluster->new($_) } 'a', 'b';
my $major = $a->pg_version->major;
plan skip_all => "PostgreSQL $major: the guide's subscriptions take origin = none, which came in 16"
  if $major < 16;

# The uid-keyed tables by type: pgbench's history (sno) and one of ours
# for each other type.
my %keyed = (sno => 'pgbench_history', map { $_ => "t_$_" } qw(muid snowflake_si revts8 uid60));
my @types = id_types();
my $ddl = q{
	ALTER TABLE app.pgbench_history
	    ADD COLUMN id uid.sno PRIMARY KEY DEFAULT uid.sno_new(1),
	    ADD COLUMN made_on text NOT NULL DEFAULT current_setting('cluster_name');
} . join '', map {
	"CREATE TABLE app.t_$_ (id uid.$_ PRIMARY KEY DEFAULT uid.${_}_new(),"
	  . " made_on text NOT NULL DEFAULT current_setting('cluster_name'));\n"
} grep { $_ ne 'sno' } @types;

# pgbench's TPC-B-like transaction (its built-in script), plus $rows rows
# of each per-type table; run with search_path app.
my $script = PostgreSQL::Test::Utils::tempdir() . '/mm.sql';
PostgreSQL::Test::Utils::append_to_file(
	$script, q{\set aid random(1, 100000)
\set bid random(1, 1)
\set tid random(1, 10)
\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
} . join('', map { "INSERT INTO t_$_ SELECT FROM generate_series(1, $rows);\n" } grep { $_ ne 'sno' } @types)
	  . "END;\n");

# pgbench's arguments for NODE's database app, its tables in schema app.
sub pgbench_cmd
{
	my ($node, @args) = @_;
	return ('env', 'PGOPTIONS=-c search_path=app', 'pgbench', @args, '-h', $node->host, '-p', $node->port, 'app');
}

# Starts NODE, whose database app gets uid and the identity of the guide's
# block IDENTITY (its text, as given), pgbench's tables in schema app and
# the uid-keyed tables.
sub guide_node
{
	my ($node, $identity) = @_;
	my $name = $node->name;
	$node->init(allows_streaming => 'logical');
	$node->start;
	$node->safe_psql('postgres', 'CREATE DATABASE app');
	$node->safe_psql('app', $identity);
	$node->safe_psql('app', 'CREATE SCHEMA app');
	$node->command_ok([ pgbench_cmd($node, '-i', '-q', '-s', '1') ], "$name: pgbench -i, in schema app");
	$node->safe_psql('app', $ddl);
	return $node;
}

# The guide's block NAME, its connection string's host set to PUB's.
sub subscribe_block
{
	my ($name, $other, $pub) = @_;
	my $sql = guide_block($page, $name);
	my $host = 'host=' . $pub->host . ' port=' . $pub->port;
	$sql =~ s/'host=\Q$other\E (dbname=app user=repl)'/'$host $1'/ == 1
	  or die "$page: block \"$name\" has no connection 'host=$other dbname=app user=repl'";
	return $sql;
}

# The guide's publication and subscriptions on X and Y (as a and b), each
# apply worker running.
sub pair
{
	my ($x, $y) = @_;
	$_->safe_psql('app', guide_block($page, 'publish')) for $x, $y;
	$x->safe_psql('app', subscribe_block('subscribe a', 'b', $y));
	$y->safe_psql('app', subscribe_block('subscribe b', 'a', $x));
	for ([ $x, 'a_from_b' ], [ $y, 'b_from_a' ])
	{
		my ($node, $sub) = @$_;
		$node->poll_query_until('app', "SELECT pid IS NOT NULL FROM pg_stat_subscription WHERE subname = '$sub'")
		  or die "the apply worker of $sub did not start on " . $node->name;
	}
	return;
}

# The guide's check on NODE: "type field" => [source, value, safe].
sub identity
{
	my ($node) = @_;
	my %id;
	for (split /\n/, $node->safe_psql('app', guide_block($page, 'check')))
	{
		my ($type, $field, $source, $value, $safe) = split /\|/;
		$id{"$type $field"} = [ $source, $value, $safe ];
	}
	return \%id;
}

sub check_identities
{
	my ($what) = @_;
	my ($ia, $ib) = (identity($a), identity($b));
	for my $k (sort keys %$ia)
	{
		is($ia->{$k}[2], 't', "$what: a: $k several_servers_safe (source $ia->{$k}[0])");
		is($ib->{$k}[2], 't', "$what: b: $k several_servers_safe (source $ib->{$k}[0])");
		isnt($ia->{$k}[1], $ib->{$k}[1], "$what: $k: a's value ($ia->{$k}[1]) is not b's");
	}
	is(join(',', sort keys %$ib), join(',', sort keys %$ia), "$what: the same rows on both");
	cmp_ok(scalar(keys %$ia), '>=', scalar(@types), "$what: a row for each type");
	return;
}

# ------------------------------------------------------------------ a
guide_node($a, guide_block($page, 'identity a'));
guide_node($b, guide_block($page, 'identity b'));
check_identities('a. after the guide\'s identity');
pair($a, $b);
check_identities('a. subscribed both ways');
my $app_tables = join ',', 'app.pgbench_accounts', 'app.pgbench_branches', 'app.pgbench_history',
  'app.pgbench_tellers', map { "app.t_$_" } sort grep { $_ ne 'sno' } @types;
for my $node ($a, $b)
{
	is($node->safe_psql('app',
		q{SELECT string_agg(schemaname || '.' || tablename, ',' ORDER BY tablename) FROM pg_publication_tables WHERE pubname = 'app_pub'}),
		$app_tables, 'a. ' . $node->name . ': the publication has app\'s tables, not uid\'s');
}

# ------------------------------------------------------------------ b
my @bench;
for my $node ($a, $b)
{
	my ($out, $err) = ('', '');
	push @bench, [ $node, \$out, \$err,
		IPC::Run::start([ pgbench_cmd($node, '-n', '-c', $clients, '-t', $per_client, '-f', $script) ],
			'>', \$out, '2>', \$err) ];
}
for (@bench)
{
	my ($node, $out, $err, $h) = @$_;
	ok($h->finish, 'b. ' . $node->name . ': pgbench ran through') or diag "$$out\n$$err";
	like($$out, qr/number of transactions actually processed: @{[ $clients * $per_client ]}\b/,
		'b. ' . $node->name . ': every transaction processed');
}
# What each server made is known before replication catches up (made_on):
# IDs both made would stop a subscription on its first equal key.
my %made;
for my $t (@types)
{
	my $table = "app.$keyed{$t}";
	for my $node ($a, $b)
	{
		my $n = $node->name;
		$made{$t}{$n} = { map { $_ => 1 } split /\n/,
			  $node->safe_psql('app', "SELECT id FROM $table WHERE made_on = '$n'") };
	}
	my $common = grep { $made{$t}{b}{$_} } keys %{ $made{$t}{a} };
	is($common, 0, "b. $t: 0 IDs made by both servers ("
		  . scalar(keys %{ $made{$t}{a} }) . ' and ' . scalar(keys %{ $made{$t}{b} }) . ' made)');
}
$a->wait_for_catchup('b_from_a');
$b->wait_for_catchup('a_from_b');
for my $t (@types)
{
	my $table = "app.$keyed{$t}";
	my $n = $t eq 'sno' ? $clients * $per_client : $clients * $per_client * $rows;
	is(scalar(keys %{ $made{$t}{$_} }), $n, "b. $t: $_ made $n") for qw(a b);
	my $q = "SELECT count(*) || ' ' || md5(string_agg(id::text, ',' ORDER BY id)) FROM $table";
	my $held = $a->safe_psql('app', $q);
	is($b->safe_psql('app', $q), $held, "b. $t: both servers hold the same IDs ($held)");
	like($held, qr/^@{[ 2 * $n ]} /, "b. $t: each holds both servers' IDs");
}
for ([ $a, 'a_from_b' ], [ $b, 'b_from_a' ])
{
	my ($node, $sub) = @$_;
	# every *_error_count column: 19 renamed sync_error_count
	# (sync_table_error_count) and added others
	is($node->safe_psql('app',
		"SELECT count(*) FILTER (WHERE e.key = 'apply_error_count') = 1 AND count(*) >= 2
		        AND sum(e.value::bigint) = 0
		 FROM pg_stat_subscription_stats s, jsonb_each_text(to_jsonb(s)) e
		 WHERE s.subname = '$sub' AND e.key LIKE '%error_count'"),
		't', 'b. ' . $node->name . ": $sub: 0 apply and sync errors");
}

# ------------------------------------------------------------------ c
# The guide's setup without the identity: the same blocks, the lines that
# set it left out.
my ($c, $d) = map { PostgreSQL::Test::Cluster->new($_) } 'c', 'd';
for ([ $c, 'identity a' ], [ $d, 'identity b' ])
{
	my ($node, $block) = @$_;
	(my $none = guide_block($page, $block)) =~ s/^ALTER SYSTEM SET uid\.\w+ = .*\n//mg;
	guide_node($node, $none);
}
pair($c, $d);
for my $node ($c, $d)
{
	my $name = $node->name;
	my $id = identity($node);
	my @safe = grep { $id->{$_}[2] ne 'f' } sort keys %$id;
	is("@safe", '', "c. $name: without the identity, the guide's check says several_servers_safe = f on every row");
	for my $t (@types)
	{
		my $insert = $t eq 'sno'
		  ? 'INSERT INTO app.pgbench_history (tid, bid, aid, delta, mtime) VALUES (1, 1, 1, 0, now())'
		  : "INSERT INTO app.t_$t DEFAULT VALUES";
		my ($rc, undef, $err) = $node->psql('app', "\\set VERBOSITY verbose\n$insert");
		like($err, $refusal, "c. $name: $t: an insert into $keyed{$t} is refused with uid's message, 55000");
	}
	$node->command_checks_all(
		[ pgbench_cmd($node, '-n', '-c', '1', '-t', '1', '-f', $script) ],
		2, [qr/^/], [qr/uid makes no ID with a default identity/],
		"c. $name: pgbench's transaction is refused");
	is($node->safe_psql('app', 'SELECT ' . join ' + ', map { "(SELECT count(*) FROM app.$keyed{$_})" } @types),
		'0', "c. $name: no ID was made");
}

done_testing();
