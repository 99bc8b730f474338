# test/t/UidTest/Settings.pm, a part of uid's TAP harness (test/t/UidTest.pm
# exports what it exports to every test): the helpers of the settings
# record's tests (TAP 035, 036, 039): probe(), background worker slots held
# so that no uid settings worker starts, and the record's writer word given
# to a process.

package UidTest::Settings;

use strict;
use warnings;

use Exporter 'import';
use Test::More;
use UidTest::Session qw(start_worker finish_worker poll_until);
use UidTest::State qw(live_state);

our @EXPORT = qw(probe_sql slot_conf create_slot_holder take_slots free_slots
  hold_record_writer);

# SQL that makes probe(): one sno and one snowflake_si, as
# 'partition/machine', or the error as 'SQLSTATE: message' (an error would
# end a background psql).  TAP 035 and 036.
sub probe_sql
{
	return q{
	CREATE FUNCTION probe() RETURNS text LANGUAGE plpgsql AS $$
	DECLARE
		s sno;
		f snowflake_si;
	BEGIN
		s := sno_new();
		f := snowflake_si_new();
		RETURN sno_partition(s) || '/' || snowflake_si_machine(f);
	EXCEPTION WHEN OTHERS THEN
		RETURN SQLSTATE || ': ' || SQLERRM;
	END $$;
};
}

# The helpers below leave no background worker slot free, so that no uid
# settings worker can start (TAP 036 does the same by hand, 039): a server
# with three slots (slot_conf, for its postgresql.conf; the logical
# replication launcher takes none), and a query whose three parallel
# workers sleep, holding them all.

sub slot_conf
{
	return ('max_worker_processes = 3', 'max_parallel_workers = 3',
		'max_logical_replication_workers = 0');
}

# Makes on $node the table and the function the holding query needs.
sub create_slot_holder
{
	my ($node) = @_;
	$node->safe_psql(
		'postgres', q{
		CREATE TABLE big AS SELECT g FROM generate_series(1, 10000) g;
		ALTER TABLE big SET (parallel_workers = 3);
		ANALYZE big;
		-- each parallel worker sleeps at its first row, holding its slot
		CREATE FUNCTION hold(int) RETURNS bool LANGUAGE plpgsql VOLATILE PARALLEL SAFE AS $$
		BEGIN
			PERFORM pg_sleep(600);
			RETURN true;
		END $$;
	});
	return;
}

my $parallel_workers =
  q{SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'parallel worker'};

# Starts the holding query; returns its worker once its parallel workers
# hold every slot.
sub take_slots
{
	my ($node) = @_;
	my $h = start_worker(
		$node,
		'SET max_parallel_workers_per_gather = 3',
		'SET parallel_setup_cost = 0',
		'SET parallel_tuple_cost = 0',
		'SET min_parallel_table_scan_size = 0',
		'SET parallel_leader_participation = off',
		'SELECT count(*) FROM big WHERE hold(g)');
	poll_until('three parallel workers holding the slots',
		sub { $node->safe_psql('postgres', $parallel_workers) eq '3' });
	return $h;
}

# Cancels the holding query $h; returns once its workers are gone.
sub free_slots
{
	my ($node, $h) = @_;
	$node->safe_psql(
		'postgres', q{
		SELECT pg_cancel_backend(pid) FROM pg_stat_activity
		WHERE query LIKE '%hold(g)%' AND backend_type = 'client backend'
		  AND pid <> pg_backend_pid()});
	my (undef, undef, $err) = finish_worker($h);
	like($err, qr/canceling statement/, 'the holding query was canceled');
	poll_until('the parallel workers to exit',
		sub { $node->safe_psql('postgres', $parallel_workers) eq '0' });
	return;
}

# Gives the settings record's writer word to the living process $pid of
# $node's server life, as a uid settings worker stopped mid-publication
# holds it (TAP 036 does the same by hand, 039): no worker publishes until
# that process is gone.  Written in the running server's shared state (the
# state file is read at the start only): the word at offset 1592, the
# server life in the body in force (the bodies at 1616, 136 bytes each, the
# sequence word at 1584 naming the one in force; pinned in src/state.c).
sub hold_record_writer
{
	my ($node, $pid) = @_;

	open(my $fh, '+<:raw', live_state($node)) or die "could not open the shared state: $!";
	seek($fh, 1584, 0) or die;
	read($fh, my $cur, 8) == 8 or die;
	seek($fh, 1616 + (unpack('Q<', $cur) & 1) * 136 + 8, 0) or die;
	read($fh, my $life, 8) == 8 or die;
	seek($fh, 1592, 0) or die;
	print $fh pack('Q<', ((unpack('Q<', $life) >> 32) << 32) | $pid);
	close $fh or die;
	return;
}

1;
