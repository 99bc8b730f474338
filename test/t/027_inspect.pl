# uid-inspect, installed with the extension, decodes what the server makes
# as the server's SQL accessors do.  IDs of every type from T_new() and from
# T_from_parts() at the edges of every field and at values spread over the
# whole range go through the installed program (--json, one ID a line on
# standard input), as text and as the bytes of their binary form
# (T_send); every field, the time (ISO 8601 in UTC and Unix microseconds),
# the canonical text, the bytes and the bigint casts must equal what SQL
# says.  snowflake_si is checked for every index width at three base
# clocks, with --epoch and --index-bits, and against the server's settings:
# the program's defaults against the extension's, then non-default settings.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use IPC::Run;
use JSON::PP;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest;

my $node = uid_node('inspect',
	conf => [ 'uid.generator = 5', 'uid.cluster = 3', "uid.medallion = 'ABC'" ]);

# "make install" put it beside the server's programs
my $bin = $node->config_data('--bindir') . '/uid-inspect';
ok(-x $bin, "uid-inspect is installed in pg_config --bindir ($bin)");

# What SQL says of each type: the accessors, the time's precision in
# to_char's terms, and whether it has a bigint cast.
my %spec = (
	sno => {
		time => 'sno_timestamp(id)',
		precision => '.MS',
		fields => [
			meta => 'sno_meta(id)',
			partition => 'sno_partition(id)',
			sequence => 'sno_sequence(id)',
			tick => 'sno_tick(id)'
		],
	},
	muid => {
		time => 'muid_timestamp(id)',
		precision => '.US',
		fields =>
		  [ medallion => 'muid_medallion(id)', offset => 'muid_offset(id)' ],
	},
	snowflake_si => {
		time => 'snowflake_si_timestamp(id)',
		precision => '.MS',
		fields => [
			machine => 'snowflake_si_machine(id)',
			index => 'snowflake_si_index(id)'
		],
		bigint => 1,
	},
	revts8 => {
		time => 'revts8_timestamp(id)',
		precision => '.MS',
		fields => [
			sequence => 'revts8_sequence(id)',
			generator => 'revts8_generator(id)',
			cluster => 'revts8_cluster(id)'
		],
		bigint => 1,
	},
	uid60 => {
		time => 'uid60_timestamp(id)',
		precision => '',
		fields => [
			worker => 'uid60_worker(id)',
			sequence => 'uid60_sequence(id)',
			random => 'uid60_random(id)'
		],
		bigint => 1,
	});

# Runs the program on these lines; returns its exit status, its standard
# error and the decoded objects, one a line (JSON::PP dies on anything that
# is not JSON).
sub inspect
{
	my ($lines, @args) = @_;
	my $in = join('', map { "$_\n" } @$lines);
	my ($out, $err) = ('', '');
	IPC::Run::run([ $bin, '--json', @args ], \$in, \$out, \$err);
	my $rc = $? >> 8;
	my $json = JSON::PP->new;
	my @objects = map { $json->decode($_) } split /\n/, $out;
	return ($rc, $err, @objects);
}

# Checks every ID the query $ids (one column of type $type) returns, read
# from its text and from its bytes, against the SQL accessors.  %o may
# replace the accessors (time, fields), add options for the program (args)
# and values that every match must carry (same: key => value).
sub check_against_sql
{
	my ($type, $ids, $label, %o) = @_;
	my $s = $spec{$type};
	my $time = $o{time} // $s->{time};
	my @fields = @{ $o{fields} // $s->{fields} };
	my @keys = ('text', 'bytes', 'timestamp', 'unix_us');
	my @cols = (
		'id::text',
		"'\\x' || encode(${type}_send(id), 'hex')",
		"to_char($time AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS$s->{precision}\"Z\"')",
		"(extract(epoch FROM $time) * 1000000)::bigint");
	for (my $i = 0; $i < @fields; $i += 2)
	{
		push @keys, $fields[$i];
		push @cols, $fields[ $i + 1 ];
	}
	if ($s->{bigint})
	{
		push @keys, 'bigint';
		push @cols, 'id::bigint';
	}
	my @rows =
	  map { [ split /\|/, $_, -1 ] } split /\n/,
	  $node->safe_psql('postgres',
		'SELECT ' . join(', ', @cols) . " FROM ($ids) s(id)");
	ok(@rows >= 10, "$label: " . scalar(@rows) . ' IDs');

	foreach my $form ('text', 'bytes')
	{
		my $column = $form eq 'text' ? 0 : 1;
		my ($rc, $err, @objects) = inspect([ map { $_->[$column] } @rows ],
			'--type', $type, @{ $o{args} // [] });
		my @bad;

		is($rc, 0, "$label, from $form: every ID decoded") or diag($err);
		is(scalar @objects, scalar @rows, "$label, from $form: one object an ID");
		for my $i (0 .. $#rows)
		{
			my $row = $rows[$i];
			my ($m) = grep { $_->{form} eq $form } @{ $objects[$i]{matches} // [] };

			if (!$m || $m->{type} ne $type)
			{
				push @bad, "$row->[0]: no $type reading from $form";
				next;
			}
			for my $k (0 .. $#keys)
			{
				push @bad, "$row->[0]: $keys[$k] is " . ($m->{ $keys[$k] } // 'missing')
				  . ", SQL says $row->[$k]"
				  unless defined $m->{ $keys[$k] } && $m->{ $keys[$k] } eq $row->[$k];
			}
			my %same = %{ $o{same} // {} };
			for my $k (sort keys %same)
			{
				push @bad, "$row->[0]: $k is " . ($m->{$k} // 'missing') . ", expected $same{$k}"
				  unless defined $m->{$k} && $m->{$k} eq $same{$k};
			}
		}
		is(scalar @bad, 0, "$label, from $form: fields and times agree with SQL")
		  or diag(join("\n", @bad[ 0 .. ($#bad < 9 ? $#bad : 9) ]));
	}
	return;
}

# A value in 0 .. 2^bits - 1 from row g, spread over the range (the high
# bits too), the same on every run.
sub spread
{
	my ($bits, $salt) = @_;
	return "(hashint8extended(g, $salt) & ((1::bigint << $bits) - 1))";
}

# ---- sno ----
check_against_sql('sno', 'SELECT sno_new(g % 256) FROM generate_series(1, 1000) g',
	'sno_new()');
check_against_sql(
	'sno', q{
	SELECT sno_from_parts(t, m, p, s, k)
	FROM (VALUES ('2010-01-01 00:00:00+00'::timestamptz), ('2079-09-07 15:47:35.548+00'),
	             ('2024-02-29 23:59:59.999+00')) a(t),
	     (VALUES (0), (255)) b(m), (VALUES (0), (65535)) c(p), (VALUES (0), (65535)) d(s),
	     (VALUES (0), (1)) e(k)
	UNION ALL
	SELECT sno_from_parts('2010-01-01+00'::timestamptz + } . spread(39, 1) . q{ * interval '4 ms',
	       } . spread(8, 2) . q{::int, } . spread(16, 3) . q{::int, } . spread(16, 4) . q{::int,
	       } . spread(1, 5) . q{::int)
	FROM generate_series(1, 500) g}, 'sno_from_parts()');

# ---- muid ----
check_against_sql(
	'muid', q{
	SELECT muid_new() FROM generate_series(1, 400)
	UNION ALL SELECT muid_txn()
	UNION ALL SELECT 'FFFFFFFFFFFFF-FFFFFFFFFFF-FFFFFFFF'::muid},
	'muid_new(), muid_txn() and the sentinel');
check_against_sql(
	'muid', q{
	SELECT muid_from_parts(t, m, o)
	FROM (VALUES ('1970-01-01 00:00:00+00'::timestamptz), ('2112-09-17 23:53:47.370494+00'),
	             ('2000-02-29 12:00:00.000001+00')) a(t),
	     (VALUES (0::bigint), (17592186044415)) b(m),
	     (VALUES (0), (1), (-1), (-2147483648), (2147483647)) c(o)
	UNION ALL
	SELECT muid_from_parts(to_timestamp(0) + (} . spread(52, 1) . q{ % 4503599627370495) * interval '1 microsecond',
	       } . spread(44, 2) . q{, (} . spread(32, 3) . q{ - 2147483648)::int)
	FROM generate_series(1, 500) g}, 'muid_from_parts()');

# ---- revts8 ----
check_against_sql('revts8', 'SELECT revts8_new() FROM generate_series(1, 1000)',
	'revts8_new()', same => { generator => 5, cluster => 3 });
check_against_sql(
	'revts8', q{
	SELECT revts8_from_parts(t, s, g, c)
	FROM (VALUES ('1970-01-01 00:00:00+00'::timestamptz), ('2109-05-15 07:35:11.103+00'),
	             ('1974-07-14 19:42:16.275+00')) a(t),
	     (VALUES (0), (63)) b(s), (VALUES (0), (63)) d(g), (VALUES (0), (15)) e(c)
	UNION ALL
	SELECT revts8_from_parts(to_timestamp(0) + } . spread(42, 1) . q{ * interval '1 ms',
	       } . spread(6, 2) . q{::int, } . spread(6, 3) . q{::int, } . spread(4, 4) . q{::int)
	FROM generate_series(1, 500) g}, 'revts8_from_parts()');

# ---- uid60 (1024 a second: a few hundred from the generator) ----
check_against_sql('uid60', 'SELECT uid60_new() FROM generate_series(1, 300)',
	'uid60_new()', same => { worker => 5 });
check_against_sql(
	'uid60', q{
	SELECT uid60_from_parts(t, w, s, r)
	FROM (VALUES ('2018-03-01 00:00:00+00'::timestamptz), ('2154-04-07 06:28:15+00'),
	             ('2024-01-01 00:00:00+00')) a(t),
	     (VALUES (0), (511)) b(w), (VALUES (0), (1023)) c(s), (VALUES (0), (511)) d(r)
	UNION ALL
	SELECT uid60_from_parts(to_timestamp(1519862400) + } . spread(32, 1) . q{ * interval '1 s',
	       } . spread(9, 2) . q{::int, } . spread(10, 3) . q{::int, } . spread(9, 4) . q{::int)
	FROM generate_series(1, 500) g}, 'uid60_from_parts()');

# ---- snowflake_si ----

# The program's defaults are the extension's (uid.snowflake_si_epoch
# 2024-01-01, uid.snowflake_si_index_bits 8), read here by the accessors
# that use the settings.
check_against_sql('snowflake_si', 'SELECT snowflake_si_new() FROM generate_series(1, 1000)',
	'snowflake_si_new(), default settings',
	same => { machine => 5, epoch => '2024-01-01T00:00:00.000Z', index_bits => 8 });

# Every width at three base clocks (the earliest the format takes, the
# default, and one with milliseconds), through the accessors that name them.
foreach my $epoch ('2003-03-18 07:20:19.225+00', '2024-01-01 00:00:00+00',
	'2020-02-29 12:34:56.789+00')
{
	my ($date, $time, $ms) = $epoch =~ /^(\S+) ([\d:]+)(\.\d+)?\+00$/;
	my $iso = "${date}T$time" . ($ms // '.000') . 'Z';
	foreach my $k (1 .. 13)
	{
		my $mid_bits = 13 - $k;
		check_against_sql(
			'snowflake_si', qq{
			SELECT snowflake_si_from_parts('$epoch'::timestamptz + t * interval '1 ms', m, i, '$epoch', $k)
			FROM (VALUES (0::bigint), (1099511627775)) a(t),
			     (VALUES (0), ((1 << $mid_bits) - 1)) b(m), (VALUES (0), ((1 << $k) - 1)) c(i)
			UNION ALL
			SELECT snowflake_si_from_parts('$epoch'::timestamptz + } . spread(40, 1) . qq{ * interval '1 ms',
			       } . spread($mid_bits, 2) . q{::int, } . spread($k, 3) . qq{::int, '$epoch', $k)
			FROM generate_series(1, 60) g},
			"snowflake_si_from_parts(), base clock $iso, width $k",
			time => "snowflake_si_timestamp(id, '$epoch')",
			fields => [
				machine => "snowflake_si_machine(id, $k)",
				index => "snowflake_si_index(id, $k)"
			],
			args => [ '--epoch', $epoch, '--index-bits', $k ],
			same => { epoch => $iso, index_bits => $k });
	}
}

# The server's settings changed: the program agrees given the same, and
# not without them (so the options are what made it agree).
$node->append_conf('postgresql.conf',
	"uid.snowflake_si_epoch = '2020-02-29 12:34:56.789+00'\nuid.snowflake_si_index_bits = 5");
$node->reload;
ok( $node->poll_query_until(
		'postgres',
		q{SELECT current_setting('uid.snowflake_si_index_bits') = '5'}),
	'the settings are reloaded');
$node->safe_psql('postgres',
	'CREATE TABLE sf AS SELECT snowflake_si_new() AS id FROM generate_series(1, 1000)');
check_against_sql('snowflake_si', 'SELECT id FROM sf',
	'snowflake_si_new(), base clock 2020-02-29 12:34:56.789, width 5',
	args => [ '--epoch=2020-02-29T12:34:56.789Z', '--index-bits=5' ],
	same => { machine => 5, epoch => '2020-02-29T12:34:56.789Z', index_bits => 5 });
{
	my ($id, $sql_time) = split /\|/,
	  $node->safe_psql('postgres',
		q{SELECT id, to_char(snowflake_si_timestamp(id) AT TIME ZONE 'UTC',
		  'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM sf LIMIT 1});
	my ($rc, $err, $o) = inspect([$id], '--type', 'snowflake_si');
	isnt($o->{matches}[0]{timestamp}, $sql_time,
		'with the default base clock the program gives another time');
}

# A value no type takes: status 1 and an error in its object.
{
	my ($rc, $err, $o) = inspect(['not-an-id']);
	is($rc, 1, 'an input of no type: exit status 1');
	like($err, qr/uid-inspect: "not-an-id" is not an ID of any type tried:\n  sno: /,
		'an input of no type: the reason on standard error');
	ok(@{ $o->{matches} } == 0 && $o->{error} =~ /^"not-an-id" is not an ID/,
		'an input of no type: no match, and the reason');
}

done_testing();
