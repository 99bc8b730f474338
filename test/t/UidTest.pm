# Helpers shared by uid's TAP tests.  This file holds the nodes (uid_node,
# faked_node, coordinators from which servers lease their identity) and
# exports every helper of the harness; the others are in test/t/UidTest/,
# each module a part of it, exported from here:
#   Clock.pm      a server clock that the test steps with libfaketime
#   Session.pm    background psql workers, sessions released together,
#                 polls, attempts, reloads waited for, a listener
#   State.pm      the state file and the live state in shared memory; at
#                 the end of a test, the live state of its servers removed
#   Ids.pm        the checks every type's IDs get
#   ClockJump.pm  the clock-regression test of a single-timeline type
#   Takeover.pm   a server that takes over the IDs another one made
#   Settings.pm   the settings record's tests: probe(), worker slots held,
#                 the record's writer word
# A test says "use UidTest;" (or names what it takes from that list).

package UidTest;

use strict;
use warnings;

use Exporter 'import';
use UidTest::Clock;
use UidTest::Session;
use UidTest::State;
use UidTest::Ids;
use UidTest::ClockJump;
use UidTest::Takeover;
use UidTest::Settings;

our @EXPORT = (
	qw(uid_node faked_node worker_generators_sql coordinator_node carried_lease_id),
	@UidTest::Clock::EXPORT, @UidTest::Session::EXPORT, @UidTest::State::EXPORT,
	@UidTest::Ids::EXPORT, @UidTest::ClockJump::EXPORT, @UidTest::Takeover::EXPORT,
	@UidTest::Settings::EXPORT);

# A started node with the extension created and a fixed sno partition: a
# partition drawn at each start would keep IDs of different starts apart by
# itself and hide a lost or ignored state.  Options: conf, more lines for
# postgresql.conf; init, the arguments of init (extra => ['-g']); faked,
# true to start it under libfaketime (start_faked); coordinator, a
# conninfo: the node leases its identity from that coordinator
# (uid.coordinator) instead of having a fixed partition, and loads uid in
# every session (session_preload_libraries), as such a server must.
sub uid_node
{
	my ($name, %o) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);
	my $identity =
	  defined $o{coordinator}
	  ? "session_preload_libraries = 'uid'\nuid.coordinator = '$o{coordinator}'"
	  : 'uid.partition = 7';

	$node->init(@{ $o{init} // [] });
	$node->append_conf('postgresql.conf',
		join("\n", $identity, @{ $o{conf} // [] }));
	if ($o{faked})
	{
		start_faked($node);
	}
	else
	{
		$node->start;
	}
	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	return $node;
}

# uid_node under libfaketime; extra lines go to postgresql.conf.
sub faked_node
{
	my ($name, @conf) = @_;
	return uid_node($name, faked => 1, conf => \@conf);
}

# PARALLEL SAFE wrappers of the generators, worker_TYPE_new(): the
# generators are PARALLEL RESTRICTED (issue 51), so a parallel plan calls
# them in its leader; these it calls in its workers, as it would a user's
# wrapper wrongly marked PARALLEL SAFE, for the tests of what the IDs that
# parallel workers make carry.
sub worker_generators_sql
{
	return join '', map {
		my ($type, $args, $call) = @$_;
		"CREATE FUNCTION worker_${type}_new($args) RETURNS $type LANGUAGE plpgsql "
		  . "VOLATILE PARALLEL SAFE AS \$\$BEGIN RETURN ${type}_new($call); END\$\$;";
	  } ([ 'sno', 'meta integer DEFAULT 0', 'meta' ], [ 'snowflake_si', '', '' ],
		[ 'revts8', '', '' ], [ 'uid60', '', '' ]);
}


# The helpers below serve the tests of servers that lease their identity
# from a coordinator (uid.coordinator, src/pool.sql).

# A coordinator: a started node with the extension created, @conf more
# lines for its postgresql.conf.  Returns the node and the conninfo by
# which servers reach it (for uid.coordinator, or uid_node's coordinator).
# fsync is on, as a coordinator needs (the pool refuses claims without it;
# PostgreSQL::Test::Cluster turns it off).
sub coordinator_node
{
	my ($name, @conf) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);

	$node->init;
	$node->append_conf('postgresql.conf', join("\n", 'fsync = on', @conf));
	$node->start;
	$node->safe_psql('postgres', 'CREATE EXTENSION uid');
	return ($node,
		'host=' . $node->host . ' port=' . $node->port . ' dbname=postgres');
}

# The lease id that an ID of type $type carries, as an SQL expression of
# id: revts8 has the id's low 6 bits in its generator and the rest in its
# cluster.
sub carried_lease_id
{
	my ($type) = @_;
	my %carried = (
		sno => 'sno_partition(id)',
		muid => 'muid_medallion(id)',
		snowflake_si => 'snowflake_si_machine(id)',
		revts8 => 'revts8_generator(id) + 64 * revts8_cluster(id)',
		uid60 => 'uid60_worker(id)');

	return $carried{$type};
}

1;
