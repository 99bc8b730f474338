# pg_cron runs uid's maintenance (doc/partitioning.md, "Maintenance from
# pg_cron"; doc/several-servers.md, "The lease's life"): a server that
# leases its identity from a coordinator has three jobs, each scheduled
# every minute:
#  - uid_maintain_partitions() on a table with an old partition to detach,
#    rows in its DEFAULT partition from 2024 and from now to move into new
#    partitions, and two months to premake;
#  - uid_identity_renew(), which must renew the lease on the coordinator;
#  - uid_maintain_partitions() with a bad argument, whose error must reach
#    cron.job_run_details;
#  - uid_maintain_partitions() of two tables owned by a plain role, app,
#    whose DEFAULT partitions have a trigger that tries to make app a
#    superuser: one job a superuser's, the other app's as
#    doc/partitioning.md's recipe schedules it (cron.schedule_in_database
#    with username => 'app').  Rows move, the partitions are app's, and app
#    stays a plain role: maintenance runs the table's code as its owner.
# Each job must have run (cron.job_run_details) and done what it should;
# the second run of the maintenance has nothing left to do.  pg_cron is
# Debian 12's package postgresql-15-cron: on a server without it (every
# other major here) the file is skipped.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time usleep);
use UidTest;

my ($sharedir) = run_command([ 'pg_config', '--sharedir' ]);
chomp $sharedir;
my ($version) = run_command([ 'pg_config', '--version' ]);
chomp $version;
# test/check.sh installs pg_cron for Debian 12's major: there it must be found
if (!-f "$sharedir/extension/pg_cron.control")
{
	die "pg_cron is not installed for $version\n" if $ENV{UID_REQUIRE_PG_CRON};
	plan skip_all =>
	  "pg_cron is not installed for $version (only Debian 12's postgresql-15-cron is tested)";
}

my ($coord, $conninfo) = coordinator_node('cron_coordinator');

# pg_cron runs each job in a new session over libpq, through the node's
# socket directory: a normal backend, so session_preload_libraries loads
# uid there as uid.coordinator requires.
my $node = PostgreSQL::Test::Cluster->new('cron');
$node->init;
$node->append_conf(
	'postgresql.conf', join("\n",
		"shared_preload_libraries = 'pg_cron'",
		"cron.database_name = 'postgres'",
		"cron.host = '" . $node->host . "'",
		"session_preload_libraries = 'uid'",
		"uid.coordinator = '$conninfo'",
		"uid.pool = 'cron'"));
$node->start;
$node->safe_psql('postgres', 'CREATE EXTENSION uid; CREATE EXTENSION pg_cron');

# A monthly table: January 2020 (older than the retention of 3 years),
# rows of March 2024 and of now in the default partition (the first sno of
# now claims the lease).
$node->safe_psql(
	'postgres', q{
	CREATE TABLE event (id sno NOT NULL DEFAULT sno_new(), body text, PRIMARY KEY (id))
		PARTITION BY RANGE (id);
	SELECT count(*) FROM uid_create_partitions('event', 1, '2020-01-01Z');
	CREATE TABLE event_default PARTITION OF event DEFAULT;
	INSERT INTO event VALUES (sno_from_parts('2024-03-15Z', 1, 2, 3), 'March 2024');
	INSERT INTO event (body) SELECT 'now' FROM generate_series(1, 25);});
$node->safe_psql(
	'postgres', q{
	CREATE ROLE app LOGIN;
	CREATE SCHEMA app AUTHORIZATION app;
	SET ROLE app;
	CREATE FUNCTION app.escalate() RETURNS trigger LANGUAGE plpgsql AS $$
	BEGIN
		BEGIN
			ALTER ROLE app SUPERUSER;
		EXCEPTION WHEN insufficient_privilege THEN
			NULL;
		END;
		RETURN OLD;
	END $$;
	CREATE TABLE app.by_su (id sno NOT NULL, PRIMARY KEY (id)) PARTITION BY RANGE (id);
	CREATE TABLE app.by_app (id sno NOT NULL, PRIMARY KEY (id)) PARTITION BY RANGE (id);
	CREATE TABLE app.by_su_default PARTITION OF app.by_su DEFAULT;
	CREATE TABLE app.by_app_default PARTITION OF app.by_app DEFAULT;
	CREATE TRIGGER escalate BEFORE DELETE ON app.by_su_default
		FOR EACH ROW EXECUTE FUNCTION app.escalate();
	CREATE TRIGGER escalate BEFORE DELETE ON app.by_app_default
		FOR EACH ROW EXECUTE FUNCTION app.escalate();
	INSERT INTO app.by_su VALUES (sno_from_parts('2024-03-15Z', 1, 2, 3));
	INSERT INTO app.by_app VALUES (sno_from_parts('2024-03-15Z', 1, 2, 3));});
my $claimed = $coord->safe_psql('postgres',
	"SELECT claimed_at FROM uid_pool_lease WHERE pool = 'cron'");
isnt($claimed, '', 'the server leased its identity from the coordinator');

my %job = (
	maintain =>
	  q{SELECT * FROM uid_maintain_partitions('event', premake => 2, retention => '3 years')},
	renew => q{SELECT * FROM uid_identity_renew()},
	bad => q{SELECT * FROM uid_maintain_partitions('event', premake => -1)},
	by_su => q{SELECT * FROM uid_maintain_partitions('app.by_su', premake => 0, width => '1 month')},
	by_app => q{SELECT * FROM uid_maintain_partitions('app.by_app', premake => 0, width => '1 month')});
my %jobid;
for my $name (sort keys %job)
{
	# by_app as doc/partitioning.md schedules it: as the table's owner
	$jobid{$name} = $node->safe_psql('postgres',
		$name eq 'by_app'
		? "SELECT cron.schedule_in_database('uid-$name', '* * * * *', \$cron\$$job{$name}\$cron\$, "
		  . "database => 'postgres', username => 'app')"
		: "SELECT cron.schedule('uid-$name', '* * * * *', \$cron\$$job{$name}\$cron\$)");
}

# Each job runs at the start of a minute: wait for two finished runs of
# each (up to 5 minutes, on a busy machine).
my $finished = q{SELECT count(*) FILTER (WHERE status IN ('succeeded', 'failed')) >= 2
	FROM cron.job_run_details WHERE jobid = %s};
my $deadline = time + 300;
my $all;
while (time < $deadline)
{
	$all = $node->safe_psql('postgres',
		'SELECT ' . join(' AND ', map { '(' . sprintf($finished, $_) . ')' } values %jobid));
	last if $all eq 't';
	usleep(1_000_000);
}
is($all, 't', 'pg_cron ran every job twice')
  or diag $node->safe_psql('postgres', 'SELECT * FROM cron.job_run_details');
$node->safe_psql('postgres', 'SELECT cron.unschedule(jobid) FROM cron.job');

# the runs: status and result, first and second
my %run;
for my $name (keys %jobid)
{
	$run{$name} = [
		split /\n/,
		$node->safe_psql(
			'postgres', qq{
			SELECT status || '|' || return_message || '|' || start_time
			FROM cron.job_run_details WHERE jobid = $jobid{$name} AND status IN ('succeeded', 'failed')
			ORDER BY runid LIMIT 2})
	];
}

# The maintenance: its first run moved the default's rows into the
# partitions of their months, made this month and two more, and detached
# January 2020; its second had nothing to do.
my ($status, $message, $start) = split /\|/, $run{maintain}[0];
is($status, 'succeeded', 'maintenance: the first run succeeded');
# (pg_cron 1.4 gives a SELECT's rows as "N rows")
like($message, qr/^\d+ rows?$/, 'maintenance: it returned its actions')
  and cmp_ok((split / /, $message)[0], '>=', 7,
	'maintenance: at least 7 actions (create and move for March 2024 and this month, '
	  . 'two months premade, January 2020 detached; 8 if a month began since the rows)');
is( $node->safe_psql('postgres', 'SELECT count(*) FROM ONLY event_default'),
	'0', 'maintenance: the default partition is empty');
is( $node->safe_psql(
		'postgres', q{
		SELECT string_agg(tableoid::regclass || ' ' || body, ', ')
		FROM event WHERE body = 'March 2024'}),
	'event_p202403 March 2024',
	'maintenance: the row of March 2024 is in its partition');
is( $node->safe_psql(
		'postgres', q{
		SELECT count(*) FROM event
		WHERE body = 'now'
		  AND tableoid::regclass::text = 'event_p' || to_char(sno_timestamp(id) AT TIME ZONE 'UTC', 'YYYYMM')}),
	'25', 'maintenance: the rows of now are in the partition of their month');
is( $node->safe_psql(
		'postgres',
		"SELECT count(*) FROM uid_create_partitions('event', 3, '$start')"),
	'0',
	'maintenance: the month of its run and the two after it have their partitions');
is( $node->safe_psql(
		'postgres',
		"SELECT relispartition FROM pg_class WHERE relname = 'event_p202001'"),
	'f', 'maintenance: January 2020 was detached, and is a table of its own');
# (unless a month began between the runs: then one month more)
my $start2;
($status, $message, $start2) = split /\|/, $run{maintain}[1];
my $new_month = $node->safe_psql('postgres',
	"SELECT (date_trunc('month', '$start' AT TIME ZONE 'UTC')
			 <> date_trunc('month', '$start2' AT TIME ZONE 'UTC'))::int");
is("$status|$message", 'succeeded|' . ($new_month ? '1 row' : '0 rows'),
	'maintenance: the second run had nothing to do');

# The renewal: both runs renewed the lease, which the coordinator shows.
my $renewed2 = (split /\|/, $run{renew}[1])[2];
is( join(',', map { join '|', (split /\|/)[ 0, 1 ] } @{ $run{renew} }),
	'succeeded|1 row,succeeded|1 row',
	'renewal: both runs succeeded, with the lease');
is( $coord->safe_psql(
		'postgres', qq{
		SELECT claimed_at = '$claimed' AND renewed_at >= '$renewed2'
		FROM uid_pool_lease WHERE pool = 'cron'}),
	't',
	'renewal: the coordinator has the same lease, renewed at the second run');

# The tables of app: each job's first run moved the row of March 2024 out
# of the default into a partition of app's; nothing made app a superuser.
for my $name ('by_su', 'by_app')
{
	is( join(',', map { (split /\|/)[0] } @{ $run{$name} }),
		'succeeded,succeeded', "$name: both runs succeeded");
	is( $node->safe_psql(
			'postgres', qq{
			SELECT t.tableoid::regclass || ' ' || pg_get_userbyid(c.relowner)
			FROM app.$name t JOIN pg_class c ON c.oid = t.tableoid}),
		"app.${name}_p202403 app",
		"$name: the row moved into a partition of app's");
}
is($node->safe_psql('postgres', "SELECT rolsuper FROM pg_roles WHERE rolname = 'app'"),
	'f', "the trigger of app's default partitions did not make app a superuser");

# A failing job: its error is in cron.job_run_details.
($status, $message) = split /\|/, $run{bad}[0];
is($status, 'failed', 'a job with a bad argument failed');
like($message, qr/premake must not be negative, not -1/,
	'and its error is in cron.job_run_details');

$node->stop;
$coord->stop;

done_testing();
