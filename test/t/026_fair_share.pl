# A session that calls a capacity-bound generator in a loop cannot starve
# the others.  uid60 holds 1024 IDs a second; a loop takes them within the
# second's first moments, and without a share every other session's call
# would wait for the next second.  With two backends taking IDs, each may
# take half of a second's IDs and then waits (src/clock.c, "A fair share of
# a contended tick"); alone, a backend has the whole second again.
#
# Everything here is counted from the IDs themselves (the second each was
# made in, and by whom), never from how fast the machine is: a slow machine
# only makes the hog's seconds take longer to fill.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my $per_tick = 1024;
my $chunk = 256;
my $chunks = 32;

my $node = uid_node('fair_share');
$node->safe_psql(
	'postgres', q{CREATE TABLE t (id uid60 PRIMARY KEY, who text NOT NULL)});

# The hog: back-to-back inserts, committed a chunk at a time so that the
# test sees its progress.
my $hog = start_worker($node,
	("INSERT INTO t SELECT uid60_new(), 'hog' FROM generate_series(1, $chunk)")
	  x $chunks);

# The victim starts once the hog has filled a whole second alone.
ok( poll_until(
		'the hog to fill a second',
		sub {
			$node->safe_psql('postgres',
				"SELECT count(*) >= 2 * $per_tick + $chunk FROM t") eq 't';
		}),
	'the hog has been generating for more than a second');

# The victim: 150 IDs, one every 10 ms, each in its own call.
my ($rc, $out, $err) = $node->psql('postgres',
	q{INSERT INTO t SELECT uid60_new(), (SELECT 'victim' FROM pg_sleep(0.01 + 0 * g))
	  FROM generate_series(1, 150) g});
is($rc, 0, 'the victim made its IDs') or diag $err;

my ($hog_rc, undef, $hog_err) = finish_worker($hog);
is($hog_rc, 0, 'the hog made its IDs') or diag $hog_err;

# IDs per second and maker.
my %n;
for my $row (split /\n/,
	$node->safe_psql(
		'postgres', q{
	SELECT extract(epoch FROM uid60_timestamp(id))::bigint, who, count(*)
	FROM t GROUP BY 1, 2}))
{
	my ($sec, $who, $count) = split /\|/, $row;
	$n{$sec}{$who} = $count;
}
my @victim = sort { $a <=> $b } grep { $n{$_}{victim} } keys %n;
my ($first, $last) = ($victim[0], $victim[-1]);
note join ', ',
  map { sprintf '%d: hog %d victim %d', $_, $n{$_}{hog} // 0, $n{$_}{victim} // 0 }
  sort { $a <=> $b } keys %n;

is( $node->safe_psql('postgres', q{SELECT count(*) FROM t WHERE who = 'victim'}),
	150, 'the victim has all its IDs');
cmp_ok($last - $first, '>=', 1, 'the victim made IDs in two seconds or more');

# Not vacuous: alone, the hog fills whole seconds.
ok((grep { $_ < $first && ($n{$_}{hog} // 0) == $per_tick } keys %n),
	"before the victim came, the hog filled a second ($per_tick IDs)");

# After the victim's first second, both count as sharers: the hog takes half
# of each second the victim is in, and the victim's IDs fit the rest.  (A
# second without victim IDs, were the victim descheduled that long, is not
# shared.)
for my $sec (grep { $n{$_}{victim} } $first + 1 .. $last)
{
	cmp_ok($n{$sec}{hog} // 0, '<=', $per_tick / 2,
		"second $sec: the hog took at most half the second beside the victim");
}

# The share lapses: two seconds after the victim's last, the hog fills a
# whole second alone again.
ok((grep { $_ > $last + 1 && ($n{$_}{hog} // 0) == $per_tick } keys %n),
	'after the victim, the hog fills a second again');

is( $node->safe_psql('postgres', 'SELECT count(*) = count(DISTINCT id) FROM t'),
	't', 'no ID was issued twice');

$node->stop;
done_testing();
