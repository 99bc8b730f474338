# A writer whose clock disagrees with the coordinator's (issue 24, defect
# 5).  Two holders of one lease id stay apart only while their clocks are
# within the bound of the coordinator's: half its uid.pool_grace
# (src/identity.c).  A writer measures its clock against the coordinator's
# in every claim and renewal, and refuses to generate under a lease whose
# measurement puts its clock further off than the bound.
#
# A coordinator with uid.pool_grace = 2 s (bound 1 s) and two writers
# sharing one pool of size 1, as 023 and 025 do: A (a short lease, the
# right clock) makes IDs of every type up to the moment it stops; once
# its lease has expired and the grace period has passed, B, whose clock is
# 12 s behind, claims the id.  Its IDs would begin 10 s before A's lease
# ended, where A made IDs: B must refuse, naming the offset, its
# uncertainty and the bound, make no ID, and no ID of A's and B's may be
# equal.  B recovers by itself once its clock is set right, its IDs
# after A's, even when its clock then steps back (the recovery raised the
# lease's floor).  Then, with a grace of 20 s (bound 10 s): 2 s off works
# without a warning, 7 s off works with one, 14 s ahead is refused too (the
# old holder's side of the hazard); and with a grace of 0 (bound 0), a
# clock equal to the coordinator's (one host) still generates.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

plan skip_all => 'libfaketime is not installed' unless faketime_lib();

my @types = id_types();
my %generator = generator_calls();
my $pool = 'skew';
my $dir = PostgreSQL::Test::Utils::tempdir;

my ($coord, $coordinator) = coordinator_node('offset_coordinator', 'uid.pool_grace = 2');

# Tables without a key (a duplicate is counted, not refused), and gen():
# batches of $per IDs of every type, each batch its own transaction, until
# ctl says stop or this server's clock passes $until.
my $ddl = join('', map { "CREATE TABLE t_$_ (id $_ NOT NULL);\n" } @types) . q{
	CREATE TABLE ctl (stop bool NOT NULL);
	INSERT INTO ctl VALUES (false);
	CREATE PROCEDURE gen(per int, until timestamptz) LANGUAGE plpgsql AS $$
	BEGIN
		LOOP
			EXIT WHEN (SELECT stop FROM ctl) OR clock_timestamp() > until;
} . join('', map {
	"\t\t\tINSERT INTO t_$_ SELECT $generator{$_} FROM generate_series(1, per);\n"
} @types) . q{
			COMMIT;
			PERFORM pg_sleep(0.01);
		END LOOP;
	END $$;
};

sub writer
{
	my ($name, @conf) = @_;
	my $node = uid_node(
		"offset_$name",
		faked => 1,
		coordinator => $coordinator,
		conf => [ "uid.pool = '$pool'", 'uid.pool_size = 1', @conf ]);
	$node->safe_psql('postgres', $ddl);
	return $node;
}

# The state of id 0 on the coordinator.
sub lease_state
{
	return $coord->safe_psql('postgres',
		"SELECT state FROM uid_pool_leases('$pool') WHERE id = 0");
}

# The coordinator's uid.pool_grace set to $g and reloaded; waits until a
# new session sees it.
sub set_grace
{
	my ($g) = @_;
	$coord->safe_psql('postgres', "LOAD 'uid';\nALTER SYSTEM SET uid.pool_grace = '$g'");
	$coord->reload;
	return poll_until("the coordinator's grace of $g",
		sub { $coord->safe_psql('postgres', "SELECT uid_pool_grace() = '$g'::interval") eq 't' });
}

my $a = writer('a', 'uid.pool_ttl = 4');
my $b = writer('b');

# B's clock 12 s behind, before it makes anything.
set_clock($b, '-12');
check_clock_offset($b, -12, "B's clock is 12 s behind");

# A claims id 0 and makes IDs of every type until it has made them over
# 9 s of its clock: longer than the 12 s offset less the grace, so that
# its IDs cover the time before its lease's end where B's would begin.
my $worker = start_worker($a, "CALL gen(50, 'infinity')");
ok( poll_until(
		'A to make IDs over 9 s',
		sub {
			$a->safe_psql('postgres',
				"SELECT coalesce(max(sno_timestamp(id)) - min(sno_timestamp(id)) >= '9 s', false) FROM t_sno"
			) eq 't';
		}),
	'A made IDs over 9 s');
$a->safe_psql('postgres', 'UPDATE ctl SET stop = true');
my ($rc, $out, $err) = finish_worker($worker);
is($rc, 0, "A's generator ran to its end") or diag $err;
is($a->safe_psql('postgres', "SELECT DISTINCT lease_id FROM uid_identity()"),
	'0', 'A held id 0');
my $a_latest = $a->safe_psql('postgres', 'SELECT max(sno_timestamp(id)) FROM t_sno');

# A is idle from now on: its lease is not renewed, and expires.
ok(poll_until("A's lease to expire and its grace to pass", sub { lease_state() eq 'free' }),
	"A's lease of id 0 expired and the grace period passed");

# B claims id 0.  Its clock is 12 s behind the coordinator's: more than the
# bound of 1 s.
my $r = attempt($b, 'SELECT sno_new()');
note "B's first ID: $r->{err}";
is($r->{rc}, 3, "B's first ID is refused") or diag $r->{err} . $r->{out};
is($r->{sqlstate}, '55000', 'with SQLSTATE 55000');
my ($off) = ($r->{msg} // '') =~ /^this server's clock is (\d+\.\d{3}) s behind the coordinator's$/;
ok(defined $off && abs($off - 12) < 1.5,
	"the error names B's clock's offset from the coordinator's (12 s behind)")
  or diag $r->{err};
like($r->{detail} // '',
	qr/^Measured when claiming id 0 of pool "$pool", to within \d+\.\d{3} s \(at least \d+\.\d{3} s\); the bound is 1\.000 s, half the coordinator's "uid\.pool_grace"\.$/,
	'the detail names the uncertainty and the bound, from uid.pool_grace')
  or diag $r->{err};
like($r->{err}, qr/HINT:\s+Set this server's clock right, .*; see "Why two holders of one id never make the same ID" in doc\/several-servers\.md\./,
	'the hint says which clock to fix, and where the manual explains the bound')
  or diag $r->{err};
is(lease_state(), 'held', 'the claim took id 0 on the coordinator');

# Every generator refuses the same way until B's clock is fixed (within a
# second of a measurement, with that measurement; later, with a new one).
$r = attempt($b, "CALL gen(50, '$a_latest'::timestamptz + interval '1 s')");
like($r->{msg} // '', qr/^this server's clock is \d+\.\d{3} s behind the coordinator's$/,
	"B's generators refuse while its clock is off") or diag $r->{err};
for my $type (@types)
{
	my $g = $generator{$type};
	$r = attempt($b, "SELECT $g");
	like($r->{msg} // '', qr/^this server's clock is \d+\.\d{3} s behind the coordinator's$/,
		"B: $g refuses") or diag $r->{err};
}

# Every ID of A and B on the coordinator: none equal, per type.
sub gather
{
	my ($tag) = @_;
	my %dups;
	for my $type (@types)
	{
		for my $w ([ a => $a ], [ b => $b ])
		{
			my ($name, $node) = @$w;
			my $file = "$dir/${tag}_${name}_$type.txt";
			$node->safe_psql('postgres', "COPY t_$type TO '$file'");
			$coord->safe_psql('postgres',
				"DROP TABLE IF EXISTS ${name}_$type; CREATE TABLE ${name}_$type (id $type NOT NULL); COPY ${name}_$type FROM '$file'");
		}
		my ($na, $nb, $d) = split /\|/, $coord->safe_psql(
			'postgres', qq{
			SELECT (SELECT count(*) FROM a_$type), (SELECT count(*) FROM b_$type),
				   (SELECT count(*) - count(DISTINCT id) FROM (SELECT id FROM a_$type UNION ALL SELECT id FROM b_$type) u)});
		note "$tag: $type: A made $na, B made $nb, $d duplicates";
		$dups{$type} = $d;
	}
	return %dups;
}

my %dups = gather('skewed');
for my $type (@types)
{
	is($dups{$type}, 0, "$type: no ID of B equals one of A's");
	is($b->safe_psql('postgres', "SELECT count(*) FROM t_$type"), 0, "$type: B made no ID");
}

# B's clock set right: B measures again by itself at its next ID, a second
# or more after the last measurement, and generates, after A's IDs.
set_clock($b, '+0');
my $fixed_at = $b->safe_psql('postgres', 'SELECT clock_timestamp()');
ok( poll_until(
		'B to generate again',
		sub { attempt($b, 'SELECT sno_new()')->{rc} == 0 }),
	"B generates once its clock is right");
$r = attempt($b, "CALL gen(50, clock_timestamp() + interval '1 s')");
is($r->{rc}, 0, 'B makes IDs of every type') or diag $r->{err};
unlike($r->{err}, qr/WARNING/, 'without a warning');
is($b->safe_psql('postgres', "SELECT DISTINCT lease_id FROM uid_identity()"),
	'0', 'B holds id 0');
%dups = gather('fixed');
for my $type (@types)
{
	is($dups{$type}, 0, "$type: after the fix, no ID of B equals one of A's");
	is( $b->safe_psql('postgres',
			"SELECT count(*) FILTER (WHERE ${type}_timestamp(id) <= '$a_latest') FROM t_$type"),
		0, "$type: B's IDs come after A's");
}

# The measurement that let B generate again raised its lease's floor to
# its own reading: the floor the claim set came from a clock 12 s behind,
# before A's last IDs.  After a step back, sno would otherwise flip to its
# other timeline down to that old floor (seen without the raise: IDs 13.8 s
# before the clock was set right, among A's); the new floor holds it.
set_clock($b, '-30');
my $oldest = $b->safe_psql('postgres',
	'SELECT min(sno_timestamp(id)) FROM (SELECT sno_new() AS id FROM generate_series(1, 100)) g');
is($b->safe_psql('postgres', "SELECT '$oldest'::timestamptz >= '$fixed_at'::timestamptz"),
	't', "30 s back, B's sno IDs are not dated before its clock was set right")
  or diag "oldest $oldest, clock set right at $fixed_at";

# A grace of 20 s: a bound of 10 s, a warning from 5 s.
set_grace('20 s');
sub renew_b
{
	return attempt($b, 'SELECT lease_id FROM uid_identity_renew(); '
		  . join('; ', map { "SELECT $generator{$_}" } @types));
}

set_clock($b, '-2');
$r = renew_b();
is($r->{rc}, 0, '2 s behind, under half the bound: B renews and generates') or diag $r->{err};
unlike($r->{err}, qr/WARNING/, 'without a warning') or diag $r->{err};

set_clock($b, '-7');
$r = renew_b();
note "7 s behind: $r->{err}";
is($r->{rc}, 0, '7 s behind, past half the bound: B renews and generates') or diag $r->{err};
like($r->{err},
	qr/WARNING:\s+01000: this server's clock is (\d+\.\d{3}) s behind the coordinator's, past half the bound of 10\.000 s/,
	'with a warning naming the offset and the bound') or diag $r->{err};

set_clock($b, '+7');
$r = renew_b();
is($r->{rc}, 0, '7 s ahead: B renews and generates') or diag $r->{err};
like($r->{err}, qr/WARNING:.*clock is \d+\.\d{3} s ahead of the coordinator's, past half the bound/,
	'with a warning') or diag $r->{err};

# Ahead by more than the bound: a renewal would let B's IDs run past the
# coordinator's expiry into the next holder's.
set_clock($b, '+14');
$r = attempt($b, 'SELECT * FROM uid_identity_renew()');
is($r->{sqlstate}, '55000', '14 s ahead: the renewal is refused') or diag $r->{err};
like($r->{msg} // '', qr/^this server's clock is \d+\.\d{3} s ahead of the coordinator's$/,
	'naming the offset') or diag $r->{err};
like($r->{err}, qr/CONTEXT:\s+while renewing the lease with uid_identity_renew\(\)/,
	'in a context naming uid_identity_renew()') or diag $r->{err};
$r = attempt($b, 'SELECT uid60_new()');
like($r->{msg} // '', qr/^this server's clock is \d+\.\d{3} s ahead/,
	'and generators refuse') or diag $r->{err};

# Grace 0, bound 0: B's clock is the coordinator's (one host), which the
# measurement cannot tell apart from none: B generates.
set_grace('0');
set_clock($b, '+0');
ok( poll_until(
		'B to generate with grace 0',
		sub { attempt($b, 'SELECT revts8_new()')->{rc} == 0 }),
	'grace 0, equal clocks: B generates');
$r = renew_b();
is($r->{rc}, 0, 'grace 0, equal clocks: B renews and generates') or diag $r->{err};
unlike($r->{err}, qr/WARNING/, 'without a warning') or diag $r->{err};

$_->stop for $a, $b, $coord;

done_testing();
