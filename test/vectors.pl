#!/usr/bin/perl
# test/vectors.pl UID_INSPECT INPUTS: the shared vectors of the client
# packages, made by the C codecs: each line of INPUTS (clients/vectors/inputs
# says its form) decoded by uid-inspect (src/inspect over src/codec), printed
# as JSON on standard output.  make vectors writes clients/vectors/vectors.json
# with it; make vectorcheck (part of make unitcheck) makes it again and fails
# if the file differs, so the file is always what the C code says.  Each
# package's tests read the file: a package that drifts from the server fails.
#
# An ID's entry: {"type", "options", "input", "form", "text", "bytes" (hex),
# its fields as uid-inspect names them (the SQL accessors' names),
# "timestamp" (ISO 8601, UTC) and "unix_us"; "bigint" for the 8-byte types,
# "uuid" for muid}.  A refused input's entry: {"type", "options", "input",
# "refused": true}: uid-inspect refuses it as that type, as the server's input
# function does (each package's tests compare their error with the server's).
use strict;
use warnings;
use JSON::PP;

@ARGV == 2 or die "usage: $0 UID_INSPECT INPUTS\n";
my ($inspect, $inputs) = @ARGV;
my $json = JSON::PP->new->canonical->utf8;

open(my $in, '<', $inputs) or die "$inputs: $!\n";
my (@ids, @refused);
while (my $line = <$in>) {
	chomp $line;
	next if $line =~ /^#/ || $line eq '';
	my ($head, $input) = split /\t/, $line, 2;
	die "$inputs:$.: no tab\n" unless defined $input;
	my ($type, @options) = split ' ', $head;
	my $refused = $type =~ s/^!//;
	my %options;
	for (my $i = 0; $i < @options; $i += 2) {
		my ($name, $value) = @options[ $i, $i + 1 ];
		die "$inputs:$.: unknown option $name\n" unless $name =~ /^--(epoch|index-bits)$/ && defined $value;
		(my $key = substr($name, 2)) =~ tr/-/_/;
		$options{$key} = $key eq 'index_bits' ? 0 + $value : $value;
	}
	# its reasons for a refusal on stderr are not wanted
	my $pid = open(my $run, '-|') // die "fork: $!\n";
	if ($pid == 0) {
		open(STDERR, '>', '/dev/null');
		exec($inspect, '--json', '--type', $type, @options, '--', $input) or die "$inspect: $!\n";
	}
	my $out = do { local $/; <$run> };
	close $run;
	my $status = $? >> 8;
	die "$inputs:$.: $inspect exited $status\n" if $status > 1;
	my $result = $json->decode($out);
	my @matches = grep { $_->{type} eq $type } @{ $result->{matches} };
	if ($refused) {
		die "$inputs:$.: uid-inspect reads \"$input\" as a $type\n" if @matches;
		push @refused, { type => $type, options => \%options, input => $input, refused => JSON::PP::true };
		next;
	}
	die "$inputs:$.: uid-inspect does not read \"$input\" as a $type: $result->{error}\n" unless @matches;
	die "$inputs:$.: \"$input\" is a $type in several forms\n" if @matches > 1;
	my $m = $matches[0];
	(my $hex = $m->{bytes}) =~ s/^\\x//;
	my %entry = (%$m, bytes => $hex, options => \%options, input => $input);
	# the base clock and index width are the options', named once
	delete @entry{qw(epoch index_bits)} if $type eq 'snowflake_si';
	push @ids, \%entry;
}
close $in;

my $pretty = JSON::PP->new->canonical->utf8->indent->space_after;
print $pretty->encode(
	{
		comment =>
		  'Made by make vectors (test/vectors.pl over uid-inspect) from clients/vectors/inputs; do not edit. '
		  . 'snowflake_si without options: base clock 2024-01-01T00:00:00Z, index width 8.',
		ids => \@ids,
		refused => \@refused,
	});
