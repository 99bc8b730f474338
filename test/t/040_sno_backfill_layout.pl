# sno back-fill moved to the other side of the live range (issue 49, case
# 5): back-fill has used the sequences 128..255 (the live range then
# 256..65279), for rows dated yesterday and a few dated at the last moment;
# then the server moves to the README's layout, live 0..65279 and back-fill
# 65280..65535.  0.7.0 refused that back-fill ("the back-fill range
# 65280..65535 with those used before would span the live range"), though
# no ID could repeat: every ID back-filled in 128..255 is dated before the
# move, and every live ID of timeline 0 (the tick bit back-filled IDs have)
# made after it is dated later, the generator's timeline-0 mark being raised
# past the last one when the new pass begins (doc/design.md, invariant 10).
#
# Checked here: the move is accepted; the timeline-0 mark is at or past the
# last ID back-filled in 128..255 before any live ID of the new layout;
# live IDs then take sequences of 128..255 (not vacuous) and back-fill in
# 65280..65535 goes over yesterday again and over the live IDs' times; no
# back-filled ID equals a live one (every ID goes into one table with a
# unique index), before and after a restart; 128..255 itself stays refused
# for back-fill (it was used).  Nothing is timed.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my $node = uid_node(
	'layout',
	conf => [
		'uid.sno_sequence_min = 256', 'uid.sno_sequence_max = 65279',
		'uid.sno_backfill_min = 128', 'uid.sno_backfill_max = 255'
	]);
sub q1 { return $node->safe_psql('postgres', $_[0]); }

q1(q{
	CREATE TABLE live (id sno NOT NULL, phase text NOT NULL);
	CREATE TABLE bf (id sno NOT NULL, phase text NOT NULL);
});

# 1. The first layout: live IDs, then back-fill of yesterday's rows in
# 128..255, in time order, and a few dated at the clock, after every live ID.
q1(q{INSERT INTO live SELECT sno_new(1), 'first' FROM generate_series(1, 20000)});
q1(q{
	INSERT INTO bf SELECT sno_new_at(1, now() - interval '1 day' + g * interval '1 ms'), 'yesterday'
	FROM generate_series(1, 5000) g});
q1(q{INSERT INTO bf SELECT sno_new_at(1, clock_timestamp()), 'last' FROM generate_series(1, 50)});
is( q1(q{SELECT count(*) FILTER (WHERE sno_sequence(id) NOT BETWEEN 128 AND 255) || '/' || count(*) FROM bf}),
	'0/5050', 'first layout: 5,050 IDs back-filled in 128..255');
is(q1(q{SELECT min(sno_sequence(id)) >= 256 FROM live}), 't', 'first layout: live IDs in 256..65279');

# 2. The README's layout: live 0..65279, back-fill 65280..65535.
reload_with($node,
	'uid.sno_sequence_min' => 0,
	'uid.sno_backfill_min' => 65280,
	'uid.sno_backfill_max' => 65535)
  or BAIL_OUT('the reload was not taken');
my $r = attempt($node,
	q{INSERT INTO bf SELECT sno_new_at(1, now() - interval '1 day' + g * interval '1 ms'), 'again'
	  FROM generate_series(1, 2000) g});
is($r->{rc} == 0 ? 'accepted' : "$r->{sqlstate}: $r->{msg}", 'accepted',
	"README's layout: back-fill in 65280..65535 over yesterday again is accepted")
  or diag $r->{err};

# The live IDs that may now take 128..255 come after every ID back-filled
# there: the timeline-0 mark is at or past the last one, before any of them.
is( q1(q{
	SELECT s.timeline0_time >= (SELECT max(sno_timestamp(id)) FROM bf WHERE phase IN ('yesterday', 'last'))
	FROM sno_snapshot() s}),
	't', "README's layout: the timeline-0 mark is past every ID back-filled in 128..255");
is( q1(q{SELECT sequence_min || '..' || sequence_max || ' ' || backfill_min || '..' || backfill_max FROM sno_snapshot()}),
	'0..65279 65280..65535', "README's layout: sno_new() issues from 0..65279");

# 3. Live IDs until some hold a sequence of 128..255 (a 4 ms unit with more
# than 128 of them; one session makes thousands per unit).
my $shared = 0;
for my $round (1 .. 20)
{
	q1(q{INSERT INTO live SELECT sno_new(1), 'after' FROM generate_series(1, 50000)});
	$shared = q1(q{
		SELECT count(*) FROM live
		WHERE phase = 'after' AND sno_tick(id) = 0 AND sno_sequence(id) BETWEEN 128 AND 255});
	last if $shared > 0;
}
cmp_ok($shared, '>', 0,
	"README's layout: live IDs of timeline 0 with sequences of 128..255, the old back-fill range's");
is(q1(q{SELECT max(sno_sequence(id)) <= 65279 FROM live}), 't', "README's layout: no live ID above 65279");

# Back-fill in 65280..65535 at the times of live IDs, before and after the
# move, in time order.
$r = attempt($node, q{
	INSERT INTO bf SELECT sno_new_at(1, t), 'at live'
	FROM (SELECT DISTINCT sno_timestamp(id) AS t FROM live) u ORDER BY t});
is($r->{rc} == 0 ? 'accepted' : "$r->{sqlstate}: $r->{msg}", 'accepted',
	"README's layout: back-fill at the times of live IDs is accepted")
  or diag $r->{err};
is( q1(q{SELECT count(*) FROM bf WHERE phase IN ('again', 'at live') AND sno_sequence(id) NOT BETWEEN 65280 AND 65535}),
	'0', "README's layout: back-fill takes 65280..65535");

# 4. No back-filled ID equals a live one: every ID in one table whose
# unique index refuses a repeat; and the two sets compared.
sub check_unique
{
	my ($what) = @_;
	my $u = attempt($node, q{
		DROP TABLE IF EXISTS all_ids;
		CREATE TABLE all_ids (id sno NOT NULL, src text NOT NULL);
		CREATE UNIQUE INDEX ON all_ids (id);
		INSERT INTO all_ids SELECT id, 'live' FROM live;
		INSERT INTO all_ids SELECT id, 'backfill' FROM bf});
	is($u->{rc} == 0 ? 'unique' : "$u->{sqlstate}: $u->{msg}", 'unique',
		"$what: every live and back-filled ID once in a unique index")
	  or diag $u->{err};
	is(q1(q{SELECT count(*) FROM bf JOIN live USING (id)}), '0', "$what: no back-filled ID equals a live one");
	is(q1(q{SELECT (SELECT count(*) FROM bf) + (SELECT count(*) FROM live) - count(DISTINCT id) FROM all_ids}),
		'0', "$what: no ID repeats");
	# not vacuous: the sequences of 128..255 are both back-filled and live
	is( q1(q{
		SELECT (SELECT count(*) > 0 FROM bf WHERE sno_sequence(id) BETWEEN 128 AND 255 AND sno_tick(id) = 0)
		   AND (SELECT count(*) > 0 FROM live WHERE sno_sequence(id) BETWEEN 128 AND 255 AND sno_tick(id) = 0)}),
		't', "$what: back-filled and live IDs share sequences of 128..255, tick bit 0");
	return;
}
check_unique('after the move');

# 5. The old back-fill range stays refused (it was used; a second pass over
# it could repeat its IDs).
reload_with($node, 'uid.sno_sequence_min' => 1024, 'uid.sno_backfill_min' => 128,
	'uid.sno_backfill_max' => 255)
  or BAIL_OUT('the reload was not taken');
$r = attempt($node, q{SELECT sno_new_at(1, now() - interval '2 days')});
like("$r->{sqlstate}: $r->{msg}", qr/^55000: the back-fill range 128\.\.255 overlaps the back-fill ranges used before/,
	'128..255 again: refused, used before');

# 6. After a restart: the README's layout again, live and back-filled IDs
# go on, none equal.
reload_with($node, 'uid.sno_sequence_min' => 0, 'uid.sno_backfill_min' => 65280,
	'uid.sno_backfill_max' => 65535)
  or BAIL_OUT('the reload was not taken');
$node->restart;
is(q1(q{SELECT sequence_min || '..' || sequence_max FROM sno_snapshot()}),
	'0..65279', 'after a restart: sno_new() issues from 0..65279');
q1(q{INSERT INTO live SELECT sno_new(1), 'restart' FROM generate_series(1, 50000)});
# the first live IDs after a start are fenced past the lease, ahead of the
# clock: back-fill dates only times that have passed
poll_until('the clock past the live IDs',
	sub { q1(q{SELECT clock_timestamp() > max(sno_timestamp(id)) + interval '4 ms' FROM live}) eq 't' });
$r = attempt($node, q{
	INSERT INTO bf SELECT sno_new_at(1, t), 'restart'
	FROM (SELECT DISTINCT sno_timestamp(id) AS t FROM live WHERE phase = 'restart') u ORDER BY t});
is($r->{rc} == 0 ? 'accepted' : "$r->{sqlstate}: $r->{msg}", 'accepted',
	'after a restart: back-fill at the times of the new live IDs is accepted')
  or diag $r->{err};
check_unique('after a restart');
note 'sno_snapshot: ', q1(q{SELECT * FROM sno_snapshot()});

$node->stop;
done_testing();
