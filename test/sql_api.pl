#!/usr/bin/perl
# test/sql_api.pl HEADER OBJECT.o...: every C function SQL can call (each
# PG_FUNCTION_INFO_V1, seen in the objects as its pg_finfo_ symbol, many
# made by type_support.h's macros) is declared by name in HEADER, under the
# module that defines it, and HEADER declares no other: a name in the SQL
# scripts greps to its declaration.  Exits 1 listing the differences.
use strict;
use warnings;

@ARGV >= 2 or die "usage: $0 HEADER OBJECT.o...\n";
my ($header, @objects) = @ARGV;

my %defined;    # name => module
for my $obj (@objects) {
	(my $m = $obj) =~ s{^.*/src/|^src/}{};
	$m =~ s{\.o$}{};
	open(my $nm, '-|', 'nm', $obj) or die "nm $obj: $!\n";
	while (<$nm>) {
		$defined{$1} = $m if /^\S+\s+T\s+pg_finfo_(\S+)$/;
	}
	close($nm) or die "nm $obj failed\n";
}

my (%declared, $module, @wrong);
open(my $h, '<', $header) or die "$header: $!\n";
while (<$h>) {
	$module = $1 if m{^/\* (\S+)\.c\b};
	next unless /^extern Datum (\w+)\(PG_FUNCTION_ARGS\);/;
	push @wrong, "$1 is declared twice" if $declared{$1};
	$declared{$1} = $module // '?';
}
close($h);

for my $f (sort keys %defined) {
	if (!$declared{$f}) {
		push @wrong, "$f (defined in $defined{$f}.c) is not declared in $header";
	}
	elsif ($declared{$f} ne $defined{$f}) {
		push @wrong, "$f is declared under $declared{$f}.c but defined in $defined{$f}.c";
	}
}
for my $f (sort keys %declared) {
	push @wrong, "$f is declared in $header but no object defines it" unless $defined{$f};
}
if (@wrong) {
	print "$_\n" for @wrong;
	exit 1;
}
printf "%d SQL-callable functions, each declared in %s\n", scalar(keys %defined), $header;
exit 0;
