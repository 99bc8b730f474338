# What a server that leases its identity keeps from its clients (issue 24,
# defects 1, 7, 8 and 9).  A writer names a coordinator by host name,
# address, port, login and, in some phases, a password; a plain LOGIN role
# (no privilege beyond the default) collects everything it receives over
# every path it has: SHOW, current_setting(), pg_settings, SHOW ALL,
# uid_config(), uid_identity(), the errors and warnings of every generator
# with client_min_messages = debug5, in a database with the extension and
# one without, in fresh sessions and in a session that lives through the
# reloads.  None of it may hold the password, the coordinator's host name,
# address, port or socket path, its login, nor another holder's host; the
# server log must have the details.
#  A. the coordinator does not listen (TCP);  B. nor on a socket;
#  C. it answers: the lease, and uid_config()'s effective values are what
#     the IDs carry (defect 7);  D. it refuses the login (wrong password);
#  E. it stops: renewals fail (warnings), the lease expires (errors);
#  F. another holder took the lease (warning, 55000 on the coordinator);
#  G. a password in uid.coordinator: refused, the log says why without it;
#  H. a malformed value with a password, and URIs with one.
#  I. uid.coordinator without uid in session_preload_libraries: a fresh
#     session shows the placeholder to anyone (core), so generation and
#     uid_identity_renew() refuse (55000) until the hint's commands ran;
#     the lists are parsed as core does; shared_preload_libraries counts.
#  J. ALTER SYSTEM SET uid.* in a session that has not loaded the library
#     (defect 8): core's error on 15 (17 writes the value unchecked), and
#     README's way (LOAD 'uid' first, or session_preload_libraries) works
#     as written, and checks the value.
#  K. a plain role's session that overrides a uid setting while
#     postgresql.conf has a syntax error (the library reads the files then).

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(usleep);
use UidTest;

my $PW = 'S3cretPw-coord';
my $HOST = 'uid-coord.test';
my $LOGIN = 'coordlogin';
my $SOCK = '/nonexistent/uid-secret-sock';
my $OTHER = 'otherhost.test';
my $plain = 'plain_role';

# The coordinator listens on 127.0.0.1 and wants a password from $LOGIN
# there.
my $coord = PostgreSQL::Test::Cluster->new('coordinator');
$coord->init;
$coord->append_conf('postgresql.conf',
	"listen_addresses = '127.0.0.1'\npassword_encryption = 'scram-sha-256'\nfsync = on");
{
	my $hba = $coord->data_dir . '/pg_hba.conf';
	my $text = slurp_file($hba);
	open my $fh, '>', $hba or die "could not write $hba: $!";
	print $fh "host all $LOGIN 127.0.0.1/32 scram-sha-256\n$text";
	close $fh;
}
$coord->start;
$coord->safe_psql(
	'postgres', qq{
	CREATE EXTENSION uid;
	CREATE ROLE $LOGIN LOGIN PASSWORD '$PW';
	GRANT EXECUTE ON FUNCTION uid_pool_claim(text, integer, text, interval),
							  uid_pool_renew(text, integer, bigint, interval) TO $LOGIN;
	-- ids 0 .. 69 of pool secrets are taken: the writer gets 70, which
	-- gives every type another value and does not fit snowflake_si
	SELECT count(*) FROM generate_series(0, 69) g
		CROSS JOIN LATERAL uid_pool_claim('secrets', 100, 'filler ' || g) c;
});
my $cport = $coord->port;
my $dead = PostgreSQL::Test::Cluster::get_free_port();
my $reach = "host=$HOST hostaddr=127.0.0.1 port=$cport user=$LOGIN dbname=postgres";

# The writers' postmasters find the password in a password file (PGPASSFILE).
my $passfile = PostgreSQL::Test::Utils::tempdir() . '/pgpass';

sub write_passfile
{
	my ($pw) = @_;
	open my $fh, '>', $passfile or die "could not write $passfile: $!";
	print $fh "*:$cport:*:$LOGIN:$pw\n";
	close $fh;
	chmod 0600, $passfile;
	return;
}
write_passfile($PW);

sub start_writer
{
	my ($node) = @_;
	local $ENV{PGPASSFILE} = $passfile;
	$node->start;
	return;
}

# A writer leasing from $conninfo with hand settings that the lease must
# override, more lines in @conf; a plain role, and a database without the
# extension.
sub writer
{
	my ($name, $conninfo, @conf) = @_;
	my $node = PostgreSQL::Test::Cluster->new($name);

	$node->init;
	$node->append_conf(
		'postgresql.conf',
		join("\n",
			"uid.coordinator = '$conninfo'", "uid.pool = 'secrets'",
			'uid.pool_size = 100', 'uid.coordinator_timeout = 5000',
			'uid.partition = 7', "uid.medallion = 'abc'",
			'uid.generator = 9', 'uid.cluster = 3', @conf));
	start_writer($node);
	$node->safe_psql('postgres',
		"CREATE EXTENSION uid; CREATE ROLE $plain LOGIN; CREATE DATABASE noext;");
	return $node;
}

# The postmaster's last reload time, as a fresh session inherits it.
sub reload_time
{
	my ($node) = @_;
	return $node->safe_psql('postgres', 'SELECT pg_conf_load_time()');
}

# Sets lines of postgresql.conf (later lines win) and reloads; returns once
# a new session has the reload, whether the values were taken or not.
sub reconf
{
	my ($node, %set) = @_;

	$node->append_conf('postgresql.conf',
		join("\n", map { "$_ = '$set{$_}'" } sort keys %set));
	reload_applied($node) or die 'the reload did not happen';
	return;
}

# Sets uid.coordinator to a value the server must refuse, while the plain
# session $s of phase $phase lives through the reload; sno_new() must
# refuse with 22023 ($what says why).  Returns the attempt.
sub refuse_value
{
	my ($w, $s, $phase, $value, $what) = @_;

	reconf($w, 'uid.coordinator' => $value);
	probe_session($s, $phase, reload_time($w));
	probe($w, $phase);
	my $r = attempt($w, 'SELECT sno_new()');
	is($r->{sqlstate}, '22023', "$phase. $what: sno_new() refuses (22023)")
	  or diag $r->{err};
	return $r;
}

# Everything a plain role received, per phase.
my %seen;

my @look = (
	'SHOW uid.coordinator;',
	q{SELECT current_setting('uid.coordinator');},
	q{SELECT current_setting('uid.coordinator', true);},
	q{SELECT name, setting, reset_val, boot_val FROM pg_settings WHERE name LIKE 'uid.%';},
	'SHOW ALL;');
my @use = (
	'SELECT * FROM uid_config();',
	'SELECT * FROM uid_identity();',
	(map { "SELECT $_;" } qw(sno_new() muid_new() snowflake_si_new() revts8_new() uid60_new())),
	'SELECT * FROM uid_identity_renew();');

# Runs $sql as the plain role in a fresh session of database $db with
# client_min_messages = debug5 from the start; what it received goes to
# phase $label.  Returns psql's exit code, stdout and stderr.
sub as_plain
{
	my ($node, $label, $sql, $db) = @_;
	local $ENV{PGOPTIONS} = '-c client_min_messages=debug5';
	my ($rc, $out, $err) = $node->psql(
		$db // 'postgres', "\\set VERBOSITY verbose\n$sql",
		extra_params => [ '-U', $plain ],
		on_error_stop => 0);
	$seen{$label} .= "$out\n$err\n";
	return ($rc, $out, $err);
}

# The plain role looks at the settings, uses every uid function, and looks
# again, in fresh sessions of both databases.
sub probe
{
	my ($node, $label) = @_;
	as_plain($node, $label, join("\n", @look, @use, @look));
	as_plain($node, $label, join("\n", @look, "LOAD 'uid';", @look), 'noext');
	return;
}

# A plain session that lives through reloads (started before them).
sub plain_session
{
	my ($node) = @_;
	local $ENV{PGOPTIONS} = '-c client_min_messages=debug5';
	my $s = $node->background_psql(
		'postgres',
		on_error_stop => 0,
		extra_params => [ '-U', $plain ]);
	$s->query('\set VERBOSITY verbose');
	$s->query('SELECT count(*) FROM uid_config()');
	return $s;
}

# The plain session takes the reload that made the postmaster's reload
# time $t (a backend takes one between statements), then probes; what it
# received goes to phase $label.
sub probe_session
{
	my ($s, $label, $t) = @_;
	poll_until('the plain session to take the reload',
		sub { $s->query("SELECT pg_conf_load_time() >= '$t'") eq 't' });
	my $out = '';
	$out .= $s->query($_) . "\n" for (@look, @use, @look);
	$seen{$label} .= "$out\n$s->{stderr}\n";
	$s->{stderr} = '';
	return;
}

my %secret = (
	'password' => qr/\Q$PW\E/,
	"coordinator's host name" => qr/\Q$HOST\E/,
	"coordinator's address" => qr/127\.0\.0\.1/,
	"coordinator's port" => qr/(?:port\W{1,3}|PGSQL\.|:)(?:$cport|$dead)\b/i,
	'socket path' => qr/\Q$SOCK\E/,
	'login name' => qr/\b\Q$LOGIN\E\b/,
	"another holder's host" => qr/\Q$OTHER\E/);

sub no_secret
{
	my ($label) = @_;
	my $text = $seen{$label} // '';

	ok(length($text) > 0, "$label: the plain role received something");
	for my $what (sort keys %secret)
	{
		my @hits;
		push @hits, $1 while @hits < 3 && $text =~ /(.{0,80}$secret{$what}.{0,80})/g;
		ok(!@hits, "$label: the plain role received no $what")
		  or diag "it received:\n" . join("\n", @hits);
	}
	return;
}

# An error as attempt() parses it, and its hint.
sub hint_of
{
	my ($r) = @_;
	return $r->{err} =~ /^HINT:\s+(.*)$/m ? $1 : '';
}


# A. Nobody listens at the coordinator's address.
my $w = writer('writer', "host=$HOST hostaddr=127.0.0.1 port=$dead user=$LOGIN dbname=postgres",
	"session_preload_libraries = 'uid'");
my $off = -s $w->logfile;
probe($w, 'A');
my $r = attempt($w, 'SELECT sno_new()');
is($r->{sqlstate}, '08006', 'A. sno_new() fails with 08006') or diag $r->{err};
like($r->{detail}, qr/^Claiming one failed: could not connect to the coordinator/,
	'A. the detail says that the coordinator could not be reached');
unlike($r->{err}, qr/\Q$HOST\E|127\.0\.0\.1|$dead/,
	"A. the client's error names no address, not even a superuser's");
ok( $w->log_contains(
		qr/could not connect to the coordinator: connection to server at "127\.0\.0\.1", port $dead failed/,
		$off),
	"A. the server log has libpq's message, with the address");
no_secret('A');

# B. Nor on a socket.
$off = -s $w->logfile;
reconf($w, 'uid.coordinator' => "host=$SOCK port=$dead user=$LOGIN dbname=postgres");
probe($w, 'B');
ok($w->log_contains(qr/\Q$SOCK\E\/\.s\.PGSQL\.$dead/, $off),
	'B. the server log has the socket path');
no_secret('B');

# C. The coordinator answers.  Before the first ID there is no lease, and
# uid_config() says so rather than show the hand settings.
reconf($w, 'uid.coordinator' => $reach);
my $effective = q{
	SELECT string_agg(name || ' = ' || effective, E'\n' ORDER BY name) FROM uid_config()
	WHERE name IN ('uid.cluster', 'uid.generator', 'uid.medallion', 'uid.partition')};
is( $w->safe_psql('postgres', $effective),
	join("\n", map { "uid.$_ = (lease: none held yet)" } qw(cluster generator medallion partition)),
	'C. before the first ID, uid_config() shows no effective identity (none held yet)');
probe($w, 'C');
my $id = $w->safe_psql('postgres', 'SELECT DISTINCT lease_id FROM uid_identity()');
is($id, '70', 'C. the plain role made the server claim id 70 of pool secrets');
# What the IDs carry, and what uid_config() calls effective.
my $carried = $w->safe_psql(
	'postgres', q{
	SELECT sno_partition(sno_new()), lpad(upper(to_hex(muid_medallion(muid_new()))), 11, '0'),
		   revts8_generator(r), revts8_cluster(r), uid60_worker(uid60_new())
	FROM (SELECT revts8_new() AS r) x});
is($carried, '70|00000000046|6|1|70', 'C. the IDs carry lease id 70');
is( $w->safe_psql('postgres', $effective),
	join("\n",
		'uid.cluster = 1 (lease id 70)',
		'uid.generator = snowflake_si refuses (70 > 31), revts8 6, uid60 70 (lease id 70)',
		'uid.medallion = 00000000046 (lease id 70)',
		'uid.partition = 70 (lease id 70)'),
	"C. uid_config()'s effective values are what the IDs carry (defect 7)");
no_secret('C');

# D. The coordinator refuses the login: a new pool (a new key, so a claim)
# with the wrong password in the password file.
write_passfile('wrong password');
$off = -s $w->logfile;
reconf($w, 'uid.pool' => 'secrets2');
probe($w, 'D');
ok($w->log_contains(qr/password authentication failed for user "\Q$LOGIN\E"/, $off),
	'D. the server log says that the login failed');
write_passfile($PW);
no_secret('D');

# E. A lease of 2 s, then the coordinator stops: renewals fail (warnings)
# until the lease expires (errors).
reconf($w, 'uid.pool' => 'secrets3', 'uid.pool_ttl' => '2s');
my (undef, $out, $err) = as_plain($w, 'E', 'SELECT sno_new() IS NOT NULL');
is($out, 't', 'E. the plain role makes an ID (a lease of 2 s)') or diag $err;
$coord->stop('fast');
$off = -s $w->logfile;
my $received = '';
ok( poll_until(
		'the lease to expire',
		sub {
			my (undef, undef, $e) = as_plain($w, 'E', 'SELECT sno_new()');
			$received .= $e;
			return $e =~ /lease of id 0 in pool "secrets3" expired at/;
		}),
	'E. generation fails once the lease expired');
like($received, qr/WARNING:  01000: uid could not renew this server's lease/,
	'E. renewals failed before (warnings)');
ok( $w->log_contains(qr/DETAIL:  .*port $cport failed/, $off),
	"E. the server log has where renewing failed");
$coord->start;
no_secret('E');

# F. Another holder took the lease: the renewal in the lease's second half
# is refused (55000), the server claims another id and warns.
ok( poll_until(
		'generation to resume',
		sub { (as_plain($w, 'F', 'SELECT sno_new() IS NOT NULL'))[1] eq 't' }),
	'F. the coordinator is back: the lease is renewed');
$coord->safe_psql('postgres',
	"UPDATE uid_pool_lease SET token = token + 1000, holder = '$OTHER:5999 system 1' WHERE pool = 'secrets3'"
);
$off = -s $w->logfile;
$received = '';
ok( poll_until(
		'the renewal to find the lease taken',
		sub {
			my (undef, undef, $e) = as_plain($w, 'F', 'SELECT sno_new()');
			$received .= $e;
			return $e =~ /no longer held/;
		}),
	'F. a renewal found the lease held by another');
like($received, qr/WARNING:  01000: uid's lease of id 0 in pool "secrets3" is no longer held; claiming another/,
	'F. the warning names the lease');
ok($w->log_contains(qr/\Q$OTHER\E/, $off),
	"F. the server log has the coordinator's detail (the other holder)");
no_secret('F');

# G. A password in the connection string.  A plain session lives through
# the reload.
reconf($w, 'uid.pool_ttl' => '3600s');
my $s = plain_session($w);
$off = -s $w->logfile;
$r = refuse_value($w, $s, 'G', "$reach password=$PW", 'a password in uid.coordinator');
is($r->{msg}, q{the server's value of "uid.coordinator" is invalid},
	'G. naming the setting alone');
is( $w->safe_psql('postgres',
		q{SELECT effective FROM uid_config() WHERE name = 'uid.coordinator'}),
	'(refused: it holds a password (keyword "password"))',
	"G. a superuser's uid_config() says why, without the password");
$r = attempt($w, 'SELECT * FROM uid_identity_renew()');
is($r->{sqlstate}, '22023', 'G. and so does uid_identity_renew()') or diag $r->{err};
ok( $w->log_contains(
		qr/the value of "uid\.coordinator" is refused\n.*It is refused because it holds a password \(keyword "password"\)\..*passfile/s, $off),
	'G. the server log says why (a password), and what to use instead');
no_secret('G');

# H. A value that does not parse, with a password in it, and URIs.
$off = -s $w->logfile;
refuse_value($w, $s, 'H', $_, 'a value that does not parse')
  for ("$reach password=$PW dbname", "postgresql://$LOGIN:$PW\@[::1");
ok($w->log_contains(qr/"uid\.coordinator" is refused\n.*It is refused because it is not a libpq connection string/, $off),
	'H. the server log says that it does not parse');
refuse_value($w, $s, 'H', "postgresql://$LOGIN:$PW\@$HOST:$cport/postgres?hostaddr=127.0.0.1",
	'a URI with a password');
ok( $w->log_contains(qr/"uid\.coordinator" is refused\n.*It is refused because it holds a password/, $off),
	'H. the server log says why');
# libpq 18's OAuth client secret: a secret too (libpq before 18 does not
# know the keyword, and refuses the string; 15's uid may link a newer one)
$off = -s $w->logfile;
refuse_value($w, $s, 'H', "$reach oauth_client_secret=$PW", 'an OAuth client secret');
ok( $w->log_contains(
		$w->pg_version >= 18
		? qr/"uid\.coordinator" is refused\n.*It is refused because it holds a client secret \(keyword "oauth_client_secret"\)/
		: qr/"uid\.coordinator" is refused\n.*It is refused because it (is not a libpq connection string|holds a client secret)/,
		$off),
	'H. the server log says why');
$s->quit;
no_secret('H');
# The postmaster logs each value a reload changes, password and all (core:
# one more reason to keep it out of the value); nothing else does.
my @logged = grep { /\Q$PW\E/ && !/LOG:  parameter "uid\.coordinator" changed to "/ }
  split /\n/, slurp_file($w->logfile);
is(scalar(@logged), 0, "G, H. the server log has the password only in core's lines of the reloads")
  or diag join "\n", @logged[ 0 .. ($#logged < 2 ? $#logged : 2) ];
$w->stop;


# I. A writer without uid in session_preload_libraries.
my $np = writer('nopreload', $reach, "uid.pool = 'nopreload'");
my (undef, $shown) = as_plain($np, 'I', 'SHOW uid.coordinator');
is($shown, $reach,
	'I. without the library loaded, a fresh session shows uid.coordinator to anyone (core)');
$r = attempt($np, 'SELECT sno_new()');
is($r->{sqlstate}, '55000', 'I. so sno_new() refuses (55000)') or diag $r->{err};
my $hint = hint_of($r);
like($hint,
	qr/\QALTER SYSTEM SET session_preload_libraries = 'uid'; SELECT pg_reload_conf();\E/,
	'I. the hint gives the commands');
$r = attempt($np, 'SELECT * FROM uid_identity_renew()');
is($r->{sqlstate}, '55000', 'I. and so does uid_identity_renew()') or diag $r->{err};

# The hint's commands, as written.
my ($commands) = $hint =~ /(ALTER SYSTEM SET session_preload_libraries = 'uid'; SELECT pg_reload_conf\(\);)/;
$r = attempt($np, $commands // 'SELECT 1/0');
is($r->{rc}, 0, "I. the hint's commands run") or diag $r->{err};
ok( poll_until(
		'sno_new() to generate',
		sub { attempt($np, 'SELECT sno_new()')->{rc} == 0 }),
	'I. then sno_new() generates');
$r = attempt($np, 'SELECT sno_partition(sno_new())');
is($r->{out}, '0', 'I. under the lease');
(undef, undef, $err) = as_plain($np, 'I2', 'SHOW uid.coordinator');
like($err, qr/42501/, 'I. and a fresh session of the plain role may not read uid.coordinator');
no_secret('I2');

# The lists are read as core reads them, by new sessions and by one that
# lives through the reloads.
my $su = $np->background_psql('postgres', on_error_stop => 0);
is($su->query('SELECT sno_new() IS NOT NULL'), 't', 'I. a session generates');
for my $case (
	[ q{'plpgsql'}, '55000', 'uid in neither list' ],
	[ q{'plpgsql', '$libdir/uid'}, '', '"$libdir/uid", quoted in a list' ],
	[ q{'uid.so'}, '', 'uid.so' ])
{
	my ($value, $want, $what) = @$case;
	my $before = reload_time($np);
	$np->safe_psql('postgres',
		"ALTER SYSTEM SET session_preload_libraries = $value; SELECT pg_reload_conf();");
	poll_until('the reload',
		sub { $np->safe_psql('postgres', "SELECT pg_conf_load_time() > '$before'") eq 't' });
	$r = attempt($np, 'SELECT sno_new()');
	is($r->{sqlstate} // '', $want, "I. session_preload_libraries = $value: "
		  . ($want ? 'refused' : 'generates') . " ($what)")
	  or diag $r->{err};
	poll_until('the session to take the reload',
		sub { $su->query("SELECT pg_conf_load_time() > '$before'") eq 't' });
	$su->{stderr} = '';
	my $made = $su->query('SELECT sno_new() IS NOT NULL');
	is($want ? ($su->{stderr} =~ /ERROR:  this server names a coordinator but does not load uid/ ? 'refused' : $made)
		  : $made,
		$want ? 'refused' : 't',
		"I. and so does the session that lived through the reload");
}
$su->quit;
$np->safe_psql('postgres',
	"ALTER SYSTEM RESET session_preload_libraries; ALTER SYSTEM SET shared_preload_libraries = 'uid'");
$np->stop;
start_writer($np);
$r = attempt($np, 'SELECT sno_new()');
is($r->{rc}, 0, 'I. uid in shared_preload_libraries counts as well') or diag $r->{err};
$np->stop;


# J. ALTER SYSTEM SET uid.* in a fresh session (defect 8), on a server
# without a coordinator.
my $n = uid_node('alter_system');
$n->safe_psql('postgres', 'CREATE ROLE plain_k LOGIN');
my $major = int($n->safe_psql('postgres', 'SHOW server_version_num') / 10000);
$r = attempt($n, q{ALTER SYSTEM SET uid.pool_grace = '-1'; ALTER SYSTEM RESET uid.pool_grace;});
if ($major == 15)
{
	like($r->{err}, qr/unrecognized configuration parameter "uid\.pool_grace"/,
		"J. without the library loaded, core ($major) does not know uid's settings");
}
elsif ($major >= 17)
{
	is($r->{rc}, 0,
		"J. without the library loaded, core ($major) writes a uid setting unchecked (-1 is out of range)")
	  or diag $r->{err};
}
else
{
	ok($r->{rc} == 0 || $r->{err} =~ /unrecognized configuration parameter/,
		"J. without the library loaded, core ($major) refuses a uid setting or writes it unchecked");
}

# A setting that postgresql.conf names has a placeholder in every session,
# which core lets ALTER SYSTEM set, unchecked (README says so).
$r = attempt($n, q{ALTER SYSTEM SET uid.partition = 99999; ALTER SYSTEM RESET uid.partition;});
is($r->{rc}, 0, "J. without the library, ALTER SYSTEM takes a value it cannot check for a setting postgresql.conf names")
  or diag $r->{err};

# README's way, as written in its section Settings.
my $readme = slurp_file("$FindBin::RealBin/../../README.md");
my ($settings) = $readme =~ /^## Settings\n(.*?)^## /ms;
my ($block) = ($settings // '') =~ /^```sql\n(.*?)^```/ms;
ok(defined $block && $block =~ /^LOAD 'uid';$/m && $block =~ /^ALTER SYSTEM SET uid\./m,
	"J. README's section Settings shows LOAD 'uid' before ALTER SYSTEM SET uid.*")
  or diag $block // '(no sql block)';
$r = attempt($n, $block // 'SELECT 1/0');
is($r->{rc}, 0, "J. README's commands run in a fresh session") or diag $r->{err};
$r = attempt($n, "LOAD 'uid';\nALTER SYSTEM SET uid.pool_grace = -1;");
is($r->{sqlstate}, '22023', 'J. after LOAD the value is checked') or diag $r->{err};
# With uid in session_preload_libraries every session has loaded it.
my $before = reload_time($n);
$n->safe_psql('postgres',
	"ALTER SYSTEM SET session_preload_libraries = 'uid'; SELECT pg_reload_conf();");
poll_until('the reload',
	sub { $n->safe_psql('postgres', "SELECT pg_conf_load_time() > '$before'") eq 't' });
$r = attempt($n, q{ALTER SYSTEM SET uid.pool_grace = '30s'});
is($r->{rc}, 0, 'J. with session_preload_libraries, ALTER SYSTEM SET uid.* works as written')
  or diag $r->{err};

# K. postgresql.conf edited with a quote too many in a password (not
# reloaded: the postmaster would refuse it).  A plain role's session that
# sets a uid setting of its own makes the library read the server's values
# from the files when it loads.
$n->append_conf('postgresql.conf', "uid.coordinator = 'host=$HOST password=S3cret'Pw-coord'");
{
	local $ENV{PGOPTIONS} = '-c uid.partition=1 -c client_min_messages=debug5';
	my (undef, $o, $e) = $n->psql('postgres', 'SELECT 1', extra_params => [ '-U', 'plain_k' ]);
	$seen{K} = "$o
$e";
}
unlike($seen{K}, qr/syntax error in file .* near token/,
	'K. a plain role is not told what the configuration file holds');
$n->stop;

$coord->stop;
done_testing();
