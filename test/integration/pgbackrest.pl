#!/usr/bin/perl
# test/integration/pgbackrest.pl: the pgBackRest part of the integration
# suite (issue 27).  Run by test/integration/pgbackrest.sh, which installs
# what it needs and passes the installation in the environment; see that
# file for the settings and what it counts.
#
# Per scenario (hand, leased): an original server archiving into a stanza,
# one writer per type; a full backup while they write; a target time, then
# more writing (IDs the original makes after the target, acknowledged and
# recorded); then three point-in-time restores of that backup to the
# target, one after another, each a copy beside the original with its clock
# behind (it passes again through the times of the original's IDs after the
# target), with writers and a probe:
#
#   A  pgBackRest's defaults: the copy pauses at its target (generation
#      refuses, 25006) until pg_wal_replay_resume(); it archives into the
#      original's stanza (archive_mode on, as the backup had it)
#   B  --target-action=promote --archive-mode=off, the default target
#      timeline (latest): does it follow A's timeline from the stanza?
#   C  --target-action=promote --archive-mode=off --target-timeline=current

use strict;
use warnings;

use File::Basename qw(dirname);
use File::Path qw(make_path remove_tree);
use POSIX qw(strftime :sys_wait_h);
use Time::HiRes qw(time sleep);

our ($PART, $SCRATCH_DEFAULT, $PORT_DEFAULT);
BEGIN
{
	($PART, $SCRATCH_DEFAULT, $PORT_DEFAULT) = ('pgbackrest', '/tmp/uid-int', 9300);
	require(dirname(__FILE__) . '/common.pl');
}
our (%gen, @types, @writers, $PG_BIN, $SEED, $RATE, $SCRATCH, $BASE_PORT, $WAIT, $T0, @children, $COORD_PORT,
	%writer_pid, @PIDFILE_GLOBS, $TL_SQL);

my @SCENARIOS = split ' ', ($ENV{UID_INT_SCENARIOS} // 'hand leased');
for my $s (@SCENARIOS)
{
	die "unknown scenario '$s': hand or leased\n" unless $s =~ /^(hand|leased)$/;
}
my $STANZA = 'uid';

# Ports: the original 9301, the copies 9302.., the coordinator 9310.
my $ORIG_PORT = $BASE_PORT + 1;
my %copy_port = (A => $BASE_PORT + 2, B => $BASE_PORT + 3, C => $BASE_PORT + 4);

# The plan, drawn from the seed: seconds of writing between the backup and
# the target, after the target, and how far before the target each copy's
# clock reads when it starts making IDs.
srand($SEED);
my %plan = (
	before => 3 + int rand 5,
	after => 8 + int rand 8,
	behind => { map { $_ => 2 + int rand 8 } qw(A B C) });

@PIDFILE_GLOBS = map { "$SCRATCH-pgbr-$_/*/data/postmaster.pid" } @SCENARIOS;

# pgBackRest as server $name's host would run it: each server has a
# configuration of its own (as it would on a host of its own), the same
# repository and stanza, pg1-path its own data directory.  (One file naming
# the original's for all: archive-push from a copy fails, [032] "PostgreSQL
# working directory ... is not the same as option pg1-path", and the copy's
# WAL piles up in pg_wal.)
sub pgbackrest
{
	my ($dir, $name, $log, @args) = @_;
	return run_as_pg(\$log, 'pgbackrest', "--config=$dir/pgbackrest-$name.conf", "--stanza=$STANZA", @args);
}

sub pgbackrest_conf
{
	my ($dir, $name, $port) = @_;
	write_file("$dir/pgbackrest-$name.conf", <<"EOF");
[global]
repo1-path=$dir/repo
repo1-retention-full=2
log-path=$dir/log
lock-path=$dir/lock
spool-path=$dir/spool
log-level-console=warn
log-level-file=detail
start-fast=y
compress-type=lz4

[$STANZA]
pg1-path=$dir/$name/data
pg1-port=$port
pg1-socket-path=$dir/$name
pg1-user=postgres
EOF
}

sub start_server
{
	my ($dir, $name, @env) = @_;
	return run_as_pg(\"$dir/$name/pg_ctl.log", 'env', "PGBACKREST_CONFIG=$dir/pgbackrest-$name.conf", @env, "$PG_BIN/pg_ctl", '-D', "$dir/$name/data", '-w',
		'-t', $WAIT, '-l', "$dir/$name/server.log", 'start');
}

sub stop_server
{
	my ($dir, $name) = @_;
	run_as_pg(\"$dir/$name/pg_ctl.log", "$PG_BIN/pg_ctl", '-D', "$dir/$name/data", '-m', 'fast', '-w', 'stop')
	  if -e "$dir/$name/data/postmaster.pid";
}

# wait_writing, by port: copies B and C may share a timeline.
sub wait_port_writing
{
	my ($dir, $port, $min, $what) = @_;
	for my $type (@writers)
	{
		wait_for("$type to be acknowledged $min times on port $port ($what)",
			sub { (grep { $_->[3] == $port } acks($dir, $type)) >= $min });
	}
}

sub plain_dsn { "dbi:Pg:host=127.0.0.1;port=$_[0];dbname=postgres;connect_timeout=3" }

# The WAL files and history files in the stanza's archive, by timeline.
sub archived
{
	my ($dir) = @_;
	my %tl;
	for my $f (glob "$dir/repo/archive/$STANZA/*/*/* $dir/repo/archive/$STANZA/*/*.history*")
	{
		my ($name) = $f =~ m{([^/]+)$};
		next unless $name =~ /^([0-9A-F]{8})/;
		$tl{ hex $1 }{ $name =~ /history/ ? 'history' : 'wal' }++;
	}
	return \%tl;
}

sub archived_text
{
	my ($arch) = @_;
	return join(', ', map { sprintf 'timeline %d: %d WAL%s', $_, $arch->{$_}{wal} // 0, $arch->{$_}{history} ? ' and its history' : '' }
		  sort { $a <=> $b } keys %$arch);
}

# The longest time a type went without an acknowledged ID on $port between
# $from and $to.
sub longest_gap
{
	my ($dir, $port, $from, $to) = @_;
	my ($worst) = sort { $b <=> $a } map { no_row_for($dir, $_, $from, $to, sub { $_[0][3] == $port }) } @types;
	return $worst;
}

# The longest any type waited for its first acknowledged ID in $av
# (copy_availability()), or undef if one got none.
sub first_ack_wait
{
	my ($av) = @_;
	return undef if grep { !defined $av->{out}{$_} } @types;
	my ($worst) = sort { $b <=> $a } @{ $av->{out} }{@types};
	return $worst;
}

# A copy's availability: per writer, the first row on $port from $from (the
# resume, or pg_ctl's return) on, and uid's refusals until $to.
sub copy_availability
{
	my ($dir, $port, $from, $to) = @_;
	my $av = availability($dir, $from, $to, sub { 0 }, sub { $_[0][3] == $port });
	$av->{out}{$_} = defined $av->{first}{$_} ? $av->{first}{$_} - $from : undef for @writers;
	return $av;
}

# IDs on $port's table made there at or below the greatest ID it holds from
# earlier timelines (restored, or replayed from another copy).
sub below_restored
{
	my ($port) = @_;
	my $dbh = db($port);
	my $n = 0;
	for my $type (@types)
	{
		my ($b) = $dbh->selectrow_array(qq{
			SELECT count(*) FROM t_$type a
			WHERE a.id <= (SELECT max(b.id) FROM t_$type b WHERE b.tl < a.tl)});
		$n += $b;
	}
	$dbh->disconnect;
	return $n;
}

# Restores the backup into copy $name to the target, with $opts, and starts
# it under libfaketime, its clock $behind s before the target; returns the
# real time pg_ctl returned, or undef if the copy did not start.
sub restore_copy
{
	my ($dir, $name, $target, $t1, $behind, @opts) = @_;
	my $port = $copy_port{$name};
	pg_dir("$dir/$name");
	pg_dir("$dir/$name/data");
	pgbackrest($dir, $name, "$dir/$name/restore.log", '--type=time', "--target=$target", @opts,
		'restore')
	  or fail("restore of copy $name (see $dir/$name/restore.log)");
	open my $fh, '>>', "$dir/$name/data/postgresql.conf" or die;
	print $fh "# copy $name\nport = $port\nunix_socket_directories = '$dir/$name'\n";
	close $fh;
	write_file("$dir/$name/faketime.rc", sprintf("%+d\n", $t1 - $behind - time()));
	my $started = time();
	my $ok = start_server($dir, $name, faked_env("$dir/$name/faketime.rc"));
	return $ok ? time() : undef;
}

sub scenario
{
	my ($sc) = @_;
	my $dir = "$SCRATCH-pgbr-$sc";
	fresh_scratch($dir, '*/data/postmaster.pid');
	pg_dir("$dir/$_") for qw(repo log lock spool);
	say "$sc: scratch $dir";
	my %r = (sc => $sc);
	start_coordinator("$dir/coordinator") if $sc eq 'leased';

	pgbackrest_conf($dir, $_, $_ eq 'orig' ? $ORIG_PORT : $copy_port{$_}) for qw(orig A B C);

	# the original: its clock right, archiving into the stanza
	init_server("$dir/orig", $ORIG_PORT, "archive_mode = on\narchive_command = 'pgbackrest --stanza=$STANZA archive-push %p'\n"
		  . "max_wal_senders = 4\nshared_buffers = 64MB\nmax_connections = 60\nlc_messages = 'C'\n"
		  . identity_conf($sc),
		'the original', "$dir/orig/initdb.log");
	start_server($dir, 'orig') or fail('start of the original');
	my $dbh = db($ORIG_PORT);
	$dbh->do('CREATE EXTENSION uid');
	create_tables($dbh);
	$dbh->disconnect;
	pgbackrest($dir, 'orig', "$dir/stanza-create.log", 'stanza-create') or fail("stanza-create (see $dir/stanza-create.log)");
	say "$sc: the original on port $ORIG_PORT, stanza '$STANZA' in $dir/repo";

	start_writers($dir, plain_dsn($ORIG_PORT));
	wait_writing($dir, 1, 50, 'start');

	# a full backup while the writers write
	my $b0 = time();
	pgbackrest($dir, 'orig', "$dir/backup.log", '--type=full', 'backup') or fail("backup (see $dir/backup.log)");
	my $b1 = time();
	wait_writing($dir, 1, ack_count($dir, 'uid60', 1) + 10, 'after the backup');
	$r{backup_s} = $b1 - $b0;
	$r{backup_gap} = longest_gap($dir, $ORIG_PORT, $b0, $b1);
	say sprintf('%s: full backup while writing: %.1f s; the longest a type went without an ID in it: %.2f s',
		$sc, $r{backup_s}, $r{backup_gap});

	# the target, then IDs the original makes after it
	wait_for("$plan{before} s of writing after the backup", sub { time() >= $b1 + $plan{before} }, $plan{before} + 5, 0.1);
	my ($target, $t1) = sql1($ORIG_PORT,
		q{SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || '+00', extract(epoch FROM now())});
	my %at_target = map { $_ => ack_count($dir, $_) } @types;
	wait_for("$plan{after} s of writing after the target", sub { time() >= $t1 + $plan{after} }, $plan{after} + 5, 0.1);
	stop_writers();
	my $t_end = time();
	$r{after_target} = 0;
	$r{after_target} += ack_count($dir, $_) - $at_target{$_} for @types;
	pgbackrest($dir, 'orig', "$dir/check.log", 'check') or fail("check (see $dir/check.log)");
	my $orig_archived = archived($dir);
	say sprintf('%s: target %s; %d IDs acknowledged after it, in %.1f s; archived: %s', $sc, $target, $r{after_target},
		$t_end - $t1, archived_text($orig_archived));

	# A: the defaults
	my $pa = $copy_port{A};
	my $ready = restore_copy($dir, 'A', $target, $t1, $plan{behind}{A}) or fail("copy A did not start (see $dir/A)");
	my $state = wait_for('A to pause at its target', sub {
		my ($s) = sql1($pa, 'SELECT pg_get_wal_replay_pause_state()');
		$s eq 'paused' ? $s : 0;
	});
	start_probe($dir, 'A', $pa);
	wait_for('the probe to be refused 10 times by every type on paused A', sub {
		my %n;
		$_->[2] eq 'err' && $_->[3] eq '25006' && $n{ $_->[1] }++ for probe_lines($dir, 'A');
		!grep { ($n{$_} // 0) < 10 } @types;
	});
	my ($msg) = map { $_->[4] } grep { $_->[1] eq 'sno' && $_->[2] eq 'err' } probe_lines($dir, 'A');
	# its clock $behind s before the target when it resumes
	set_clock("$dir/A/faketime.rc", $pa, $t1 - $plan{behind}{A} - time());
	start_writers($dir, plain_dsn($pa));
	my $resume = time();
	$r{A_paused} = $resume - $ready;
	sql1($pa, 'SELECT pg_wal_replay_resume()');
	wait_for('A to promote', sub { !sql1($pa, 'SELECT pg_is_in_recovery()') });
	my $tl_a = wait_for('a writer on A', sub { my ($tl) = sql1($pa, $TL_SQL); $tl });
	wait_port_writing($dir, $pa, 20, 'on A');
	wait_for("A's clock to pass the original's last ID", sub { time() + clock_offset($pa) > $t_end + 1 }, $WAIT, 0.5);
	$r{avail}{A} = copy_availability($dir, $pa, $resume, time());
	$r{A_refused} = first_probe_wait($dir, 'A', $resume);
	$r{A_refused_ack} = first_ack_wait($r{avail}{A});
	sql1($pa, 'SELECT pg_switch_wal()');
	# a finding, not a condition: whether it archives at all
	eval {
		wait_for('A to archive its WAL', sub {
			my ($failed, $last) = sql1($pa, 'SELECT failed_count, last_archived_wal FROM pg_stat_archiver');
			$r{A_archive_failed} = $failed;
			$last && hex(substr($last, 0, 8)) == $tl_a;
		}, 60);
	};
	stop_writers();
	stop_probes();
	$r{below} = below_restored($pa);
	stop_server($dir, 'A');
	my $a_archived = archived($dir);
	say sprintf('%s: copy A (defaults): paused at the target, generation refused (%s) for %.1f s until pg_wal_replay_resume(); '
		  . 'then timeline %d, the first ID of every type %.2f s after the resume (the first acknowledged insert %.2f s); it archived into the stanza: %s',
		$sc, $msg // '?', $r{A_paused}, $tl_a, $r{A_refused}, $r{A_refused_ack}, archived_text($a_archived));
	$r{A_pushed} = ($a_archived->{$tl_a}{wal} // 0) + ($a_archived->{$tl_a}{history} // 0);

	# B: promote, no archiving, the default target timeline; C: the current one
	for my $name (qw(B C))
	{
		my $p = $copy_port{$name};
		my @opts = ('--target-action=promote', '--archive-mode=off');
		push @opts, '--target-timeline=current' if $name eq 'C';
		my $t_start = time();
		my $up = restore_copy($dir, $name, $target, $t1, $plan{behind}{$name}, @opts);
		if (!$up)
		{
			my ($why) = grep { /FATAL|PANIC/ } `cat '$dir/$name/server.log' 2>/dev/null`;
			chomp $why if $why;
			$r{"${name}_failed"} = $why // 'see the server log';
			say "$sc: copy $name (@opts) did not start: " . ($why // "see $dir/$name/server.log");
			next;
		}
		start_probe($dir, $name, $p);
		start_writers($dir, plain_dsn($p));
		wait_for("$name to promote", sub { !sql1($p, 'SELECT pg_is_in_recovery()') });
		my $tl = wait_for("a writer on $name", sub { my ($tl) = sql1($p, $TL_SQL); $tl });
		wait_port_writing($dir, $p, 20, "on $name");
		wait_for("$name\'s clock to pass the original's last ID", sub { time() + clock_offset($p) > $t_end + 1 }, $WAIT, 0.5);
		$r{"${name}_start"} = $up - $t_start;
		$r{avail}{$name} = copy_availability($dir, $p, $up, time());
		$r{"${name}_refused"} = first_probe_wait($dir, $name, $up);
		$r{"${name}_refused_ack"} = first_ack_wait($r{avail}{$name});
		stop_writers();
		stop_probes();
		$r{below} += below_restored($p);
		my $dbh = db($p);
		my %from;
		for my $type (@types)
		{
			my $rows = $dbh->selectall_arrayref("SELECT tl, count(*) FROM t_$type WHERE tl <> $tl GROUP BY tl");
			$from{ $_->[0] } += $_->[1] for @$rows;
		}
		$dbh->disconnect;
		$r{"${name}_from_A"} = $from{$tl_a} // 0;
		stop_server($dir, $name);
		my $arch = archived($dir);
		$r{"${name}_pushed"} = ($arch->{$tl}{wal} // 0) + ($arch->{$tl}{history} // 0);
		say sprintf('%s: copy %s (%s): restored and started in %.1f s; timeline %d, the first ID of every type %.2f s after pg_ctl returned '
			  . '(the first acknowledged insert %.2f s); it holds %d rows of copy A (timeline %d) and %d of the original; it archived %d files',
			$sc, $name, "@opts", $r{"${name}_start"}, $tl, $r{"${name}_refused"}, $r{"${name}_refused_ack"}, $r{"${name}_from_A"}, $tl_a, $from{1} // 0,
			$r{"${name}_pushed"});
	}

	# the original archives on after its copies
	my $check = pgbackrest($dir, 'orig', "$dir/check-after.log", 'check');
	$r{orig_check} = $check ? 'ok' : 'failed';
	say "$sc: pgbackrest check on the original after the copies: $r{orig_check}";
	stop_server($dir, 'orig');
	stop_coordinator("$dir/coordinator") if $sc eq 'leased';

	# the counts
	my $held = held_ids($dir);
	my %where = (1 => 'orig');
	my ($n, $per) = reissued($held);
	$r{reissued} = $n;
	$r{reissued_per} = join(', ', map { "$_ $per->{$_}" } grep { $per->{$_} } @types) || 'none';
	# IDs a copy was given that the original had acknowledged after the target
	my %orig_after;
	for my $type (@types)
	{
		my @acks = acks($dir, $type);
		$r{ids} += @acks;
		$orig_after{$type}{ $_->[1] } = 1 for grep { $_->[3] == $ORIG_PORT && $_->[0] >= $t1 } @acks;
		$r{again_after_target} += grep { $_->[3] != $ORIG_PORT && $orig_after{$type}{ $_->[1] } } @acks;
		$r{again_after_target} += grep { $_->[2] !~ /^port $ORIG_PORT$/ && $orig_after{$type}{ $_->[1] } }
		  grep { $_->[2] =~ /^probe/ } @{ $held->{$type} };
	}
	# the bigserial's, as the copies gave them: the sequence restored to the
	# target gives again what the original gave after it
	my @bs = acks($dir, 'bigserial');
	my %bs_after = map { $_->[1] => 1 } grep { $_->[3] == $ORIG_PORT && $_->[0] >= $t1 } @bs;
	$r{bigserial_again} = grep { $_->[3] != $ORIG_PORT && $bs_after{ $_->[1] } } @bs;
	$r{probe_ids} = 0;
	$r{ro_ids} = 0;
	for my $name (qw(A B C))
	{
		for my $l (probe_lines($dir, $name))
		{
			next unless $l->[2] eq 'ok' && $l->[1] ne 'write';
			$r{probe_ids}++;
			my ($ro, $rec) = @{$l}[ 4, 5 ];
			$r{ro_ids}++ if $ro eq 'on' || $rec;
		}
	}
	my $e = error_counts($dir);
	@r{qw(dup_key other other_detail)} = @{$e}{qw(dup_key other detail)};
	return \%r;
}

# --- main --------------------------------------------------------------------------

$ENV{UID_INT_MAIN_PID} = $$;
$SIG{INT} = $SIG{TERM} = sub { die "interrupted\n" };

say sprintf('integration pgbackrest: seed %d; %d s of writing before the target, %d s after; copies\' clocks %s s before it',
	$SEED, $plan{before}, $plan{after}, join('/', map { $plan{behind}{$_} } qw(A B C)));
my @line;
my $bad = 0;
for my $sc (@SCENARIOS)
{
	my $r = run_scenario($sc, "$SCRATCH-pgbr-$sc", \&scenario);
	my $restores = 3 - grep { $r->{"${_}_failed"} } qw(B C);
	say sprintf('integration pgbackrest: %s: %d restores, %d ids (%d from probes), %d reissued (%s; %d of them IDs the original '
		  . 'acknowledged after the target), %d at or below the restored, %d 23505, %d other errors, %d made read-only or in recovery; '
		  . 'refused %.1f s paused, then %.2f s (A), %s s (B), %s s (C); A archived %d files into the stanza, B followed A\'s timeline: %s',
		$sc, $restores, $r->{ids} + $r->{probe_ids}, $r->{probe_ids}, $r->{reissued}, $r->{reissued_per}, $r->{again_after_target},
		$r->{below}, $r->{dup_key}, $r->{other}, $r->{ro_ids}, $r->{A_paused}, $r->{A_refused},
		map({ defined $r->{"${_}_refused"} ? sprintf('%.2f', $r->{"${_}_refused"}) : 'did not start' } qw(B C)),
		$r->{A_pushed}, $r->{B_failed} ? "did not start ($r->{B_failed})" : $r->{B_from_A} ? "$r->{B_from_A} of A's rows" : 'no');
	say "  other error: $_ (x$r->{other_detail}{$_})" for sort keys %{ $r->{other_detail} };
	my %what = (A => 'restore, paused, then resumed', B => 'restore with --target-action=promote',
		C => 'restore with --target-action=promote --target-timeline=current');
	report_availability($sc, "copy $_ ($what{$_})", $r->{avail}{$_}) for grep { $r->{avail}{$_} } qw(A B C);
	print join('|', 'ids', $PART, $sc, $r->{ids} + $r->{probe_ids}, '-', $r->{again_after_target}, $r->{reissued}, '-',
		$r->{bigserial_again}, '-'), "\n";
	push @line, sprintf('%s: %d restores, %d ids, %d reissued', $sc, $restores, $r->{ids} + $r->{probe_ids}, $r->{reissued});
	$bad = 1 if $r->{dup_key} || $r->{below} || $r->{other} || $r->{ro_ids} || $r->{C_failed};
	$bad = 1 if $sc eq 'leased' && $r->{reissued};
	$bad = 1 if ($r->{C_from_A} // 0) || $r->{B_pushed} || $r->{C_pushed} || $r->{orig_check} ne 'ok';
}
printf "integration pgbackrest: seed %d, %s; %d s%s\n", $SEED, join('; ', @line), time() - $T0, $bad ? '; FAILED' : '';
exit $bad;
