# test/t/UidTest/Takeover.pm, a part of uid's TAP harness (test/t/UidTest.pm
# exports what it exports to every test): the helpers of the tests in which
# a server takes over the IDs of every type that another one made (a
# restore, a rewind, an upgrade), and the ID types in the order the tests go
# through them.

package UidTest::Takeover;

use strict;
use warnings;

use Exporter 'import';
use Test::More;
use UidTest::Clock qw(check_clock_offset);

our @EXPORT = qw(id_types generator_calls id_generators order_key
  create_id_tables row_counts latest_id_time check_clock_behind
  new_ids_behind check_new_ids);

# The helpers below serve the tests in which a server takes over the IDs
# of every type that another one made (a restore, a rewind, an upgrade)
# and must make new ones that repeat none of them.  The IDs are in one
# table with a primary key per type, t_<type> (id, ph int), ph the phase
# in which a row was made.

# The ID types, in the order the tests go through them.
sub id_types
{
	return qw(sno muid snowflake_si revts8 uid60);
}

# Each type's generator call, as a hash: type => 'sno_new(META)', ...  (sno's
# metabyte $meta, default 0).
sub generator_calls
{
	my ($meta) = @_;
	return (
		sno => 'sno_new(' . ($meta // '') . ')',
		muid => 'muid_new()',
		snowflake_si => 'snowflake_si_new()',
		revts8 => 'revts8_new()',
		uid60 => 'uid60_new()');
}

# Each generator, called on its own (muid_txn is muid's other way in): a
# server that must not generate refuses every one.
sub id_generators
{
	return qw(sno_new muid_new muid_txn snowflake_si_new revts8_new uid60_new);
}

# The key that orders a type's IDs in the order they were made, and the
# operator by which a later ID is wrong when compared with an earlier one's
# key: the ID itself, not above; for uid60, whose sequence runs on within a
# second (it wraps), so that IDs of one second are not in the order they
# were made, its second, not earlier.
sub order_key
{
	my ($type) = @_;
	return $type eq 'uid60' ? ('uid60_timestamp(id)', '<') : ('id', '<=');
}

# Creates t_<type> for every type, ctl (phase, stop) and two procedures:
#  - gen(typ, per, batches, pause): committed batches of per IDs of one
#    type, tagged with the phase current when the batch began, until ctl
#    says stop or, when batches is not null, that many batches are done;
#    pause seconds between batches (only on a server whose clock is not
#    moved: pg_sleep sleeps until a wall-clock time);
#  - ins(typ, n, p): n new IDs of one type in phase p, each inserted in its
#    own transaction (muid takes one timestamp a transaction, so each is a
#    fresh timestamp that may meet one made before); a duplicate-key error
#    is counted in dups (and the first duplicate kept in first_dup) instead
#    of ending the run; any other error ends it.
sub create_id_tables
{
	my ($node) = @_;
	my $ddl = join '',
	  map { "CREATE TABLE t_$_ (id $_ PRIMARY KEY, ph int NOT NULL);\n" }
	  id_types();

	$node->safe_psql(
		'postgres', qq{
		$ddl
		CREATE TABLE ctl (phase int NOT NULL, stop bool NOT NULL);
		INSERT INTO ctl VALUES (0, false);

		CREATE PROCEDURE gen(typ text, per int, batches int, pause float8)
		LANGUAGE plpgsql AS \$\$
		DECLARE
			i int := 0;
			p int;
			st bool;
		BEGIN
			LOOP
				SELECT phase, stop INTO p, st FROM ctl;
				EXIT WHEN st OR (batches IS NOT NULL AND i >= batches);
				EXECUTE format(
					'INSERT INTO %I (id, ph) SELECT %I(), \$1 FROM generate_series(1, \$2)',
					't_' || typ, typ || '_new') USING p, per;
				i := i + 1;
				COMMIT;
				PERFORM pg_sleep(pause);
			END LOOP;
		END \$\$;

		CREATE PROCEDURE ins(typ text, n int, p int,
							 INOUT dups int DEFAULT 0, INOUT first_dup text DEFAULT NULL)
		LANGUAGE plpgsql AS \$\$
		DECLARE
			v text;
		BEGIN
			FOR i IN 1 .. n LOOP
				EXECUTE format('SELECT %I()::text', typ || '_new') INTO v;
				BEGIN
					EXECUTE format('INSERT INTO %I (id, ph) VALUES (\$1::%I, \$2)',
								   't_' || typ, typ) USING v, p;
				EXCEPTION WHEN unique_violation THEN
					dups := dups + 1;
					first_dup := coalesce(first_dup, v);
				END;
				COMMIT;
			END LOOP;
		END \$\$;
	});
	return;
}

# How many rows of each type, as "type=count ...".
sub row_counts
{
	my ($node) = @_;
	return join ' ', map {
		"$_=" . $node->safe_psql('postgres', "SELECT count(*) FROM t_$_")
	} id_types();
}

# The time of the latest ID in the tables (any type), as a timestamptz.
sub latest_id_time
{
	my ($node) = @_;
	return $node->safe_psql('postgres',
		'SELECT greatest('
		  . join(', ',
			map { "(SELECT max(${_}_timestamp(id)) FROM t_$_)" } id_types())
		  . ')');
}

# The clock is where the test put it ($offset s off real time), and behind
# the latest ID the server took over: a generator that followed the clock,
# or the high-water mark of a stale or a fresh state file, would make IDs
# again where IDs already are, or below them.  $latest is that ID's time
# (default: latest_id_time), $of what the test names call it (default: the
# latest ID there).
sub check_clock_behind
{
	my ($node, $what, $offset, $latest, $of) = @_;
	$of //= 'the latest ID there';

	check_clock_offset($node, $offset,
		"$what: the server clock is "
		  . ($offset == 0 ? 'at real time' : "$offset s off real time"));
	$latest //= latest_id_time($node);
	is($node->safe_psql('postgres', "SELECT clock_timestamp() < '$latest'"),
		't', "$what: the clock is behind $of")
	  or diag "$of is dated $latest";
	return;
}

# The IDs of type $type made in phase $phase against those that were there
# before them: the rows for which $old holds (an SQL condition on ph;
# default: another phase).  Returns a hash: n, how many new ones; behind,
# how many of them do not sort after every earlier one (order_key); new_min
# and old_max, the lowest new and the highest earlier key; gap, the seconds
# from the latest earlier ID's time to the earliest new one's.
sub new_ids_behind
{
	my ($node, $type, $phase, $old, $since) = @_;
	my ($key, $op) = order_key($type);
	my $from = defined $since ? "'$since'::timestamptz" : 'min(old.ts)';
	my %r;

	$old //= "ph <> $phase";
	@r{qw(n behind new_min old_max gap)} = split /\|/,
	  $node->safe_psql(
		'postgres', qq{
		WITH old AS (SELECT max($key) AS m, max(${type}_timestamp(id)) AS ts
					 FROM t_$type WHERE $old)
		SELECT count(*), count(*) FILTER (WHERE $key $op old.m), min($key), min(old.m),
			   extract(epoch FROM min(${type}_timestamp(id)) - $from)
		FROM t_$type, old WHERE ph = $phase});
	return \%r;
}

# Makes new IDs of each type with ins, in phase $phase, on a node that took
# over IDs made before: no duplicate-key error, and each sorts after every
# earlier one (uid60: dated no earlier than the latest).  Options: n, how
# many of each type; old, which rows are the earlier ones (as for
# new_ids_behind); gap, when given: the first new IDs continue from the
# earlier ones, dated less than gap seconds after the latest of the type, or
# with since (a time), after that: the server's latest ID of any type (a
# fence moves IDs at most a lease past the server's last one, whatever its
# type, not far ahead; a type made seconds before the others is moved past
# those too); old_words, true
# when the test names call the earlier IDs old (those of a server upgraded
# from) rather than the IDs there.
sub check_new_ids
{
	my ($node, $what, $phase, %o) = @_;
	my $n = $o{n};
	my ($every, $latest, $highest) =
	  $o{old_words}
	  ? ('every old one', 'the latest old one', 'the highest old')
	  : ('every ID there', 'the latest one there', 'the highest before');
	my $of = defined $o{since} ? "$o{since}, the latest ID of any type" : $latest;

	for my $type (id_types())
	{
		my ($dups, $first) = split /\|/,
		  $node->safe_psql('postgres', "CALL ins('$type', $n, $phase)");
		is($dups, '0', "$what: $type: no duplicate-key error among $n new IDs")
		  or diag "$dups inserts failed with a duplicate key; the first duplicate: $first";

		my $r = new_ids_behind($node, $type, $phase, $o{old}, $o{since});
		# A rejected duplicate does not sort after the earlier ones either.
		my $behind = $r->{behind} + $dups;
		is($behind, 0,
			$type eq 'uid60'
			? "$what: uid60: no new ID is dated before $latest"
			: "$what: $type: every new ID sorts after $every")
		  or diag "$behind of $n new IDs do not; the lowest new: $r->{new_min}, "
		  . "$highest: $r->{old_max}";
		next unless defined $o{gap};
		cmp_ok($r->{gap}, '<', $o{gap},
			"$what: $type: the new IDs continue from the old ones, not far ahead")
		  or diag "the lowest new ID is dated $r->{gap} s after $of";
		note "$what: $type: the lowest new ID is dated $r->{gap} s after $of";
	}
	return;
}

1;
