#!/usr/bin/perl
# test/types.pl [SRCDIR]: every type of src/codec/registry.h has what a type
# needs (make layercheck), and nothing is there for a type the registry
# lacks.  The registry is the one list of the types; most lists are made from
# it (the Makefile's TYPES, the slots, uid_stats(), uid_identity()'s rows,
# uid-inspect's table, the simulator's clocks and identities), and a type
# missing from one of those does not build.
# What is written per type by hand is checked here, by name, so that a new
# type's author sees in one run all that the type still lacks (the steps are
# in registry.h's header comment):
#
#   files    its codec, SQL functions and script, uid-inspect's knowledge of
#            it, its unit tests (the codec's and uid-inspect's rows), fuzz
#            target and regression tests with their expected output; its
#            class in each client package (clients/go/<t>.go,
#            clients/js/src/<t>.js, a class of type_name "<t>" in
#            clients/python/pgkuid, clients/java's <T>.java and its
#            pgjdbc/Pg<T>.java, <T> the name in camel case: SnowflakeSi,
#            clients/rust/src/<t>.rs)
#   rows     its block in src/sql_api.h (its identity, in its codec header,
#            and its row of the registry build the rest)
#   docs     its section in doc/formats.md and doc/types.md, its row in the
#            README's table of types
#
# A missing SQL declaration also fails test/sql_api.pl, a missing file the
# build, later and one at a time.
#
# And no other list of every type is written by hand: among src/, test/sim
# and test/unit, no file but the registry and src/sql_api.h names every
# type in its code (comments and prose, a string with a space in it, aside;
# and src/upgrade/, the frozen scripts of past releases).  Exits 1 naming
# each one.
use strict;
use warnings;
use File::Basename qw(dirname);

my $top = shift // dirname(dirname(__FILE__));

sub slurp {
	my ($path) = @_;
	open(my $fh, '<', "$top/$path") or return undef;
	local $/;
	return <$fh>;
}

my $registry = slurp('src/codec/registry.h') // die "no src/codec/registry.h under $top\n";
my @types;
while ($registry =~ /^\s*X\(([A-Z0-9_]+),\s*([a-z0-9_]+),/mg) {
	push @types, [$1, $2];
}
@types or die "no type rows in src/codec/registry.h\n";

my %text = map { $_ => slurp($_) // '' }
  qw(src/sql_api.h doc/formats.md doc/types.md README.md);

my @missing;
for my $type (@types) {
	my ($id, $t) = @$type;
	my $camel = join '', map { ucfirst } split /_/, $t;
	my $java = 'clients/java/src/main/java/pgkuid';
	for my $f ("src/codec/${t}_codec.c", "src/codec/${t}_codec.h", "src/$t.c", "src/$t.h", "src/$t.sql",
		"src/inspect/${t}_inspect.c", "test/unit/${t}_test.c", "test/unit/${t}_inspect_test.c",
		"test/fuzz/${t}_fuzz.c", "clients/go/$t.go", "clients/js/src/$t.js",
		"$java/$camel.java", "$java/pgjdbc/Pg$camel.java", "clients/rust/src/$t.rs",
		(map { ("sql/${t}_$_.sql", "expected/${t}_$_.out") } qw(io ops gen)))
	{
		push @missing, "$t: no $f" unless -f "$top/$f";
	}
	push @missing, "$t: no class in clients/python/pgkuid (type_name = \"$t\")"
	  unless grep { /^\s*type_name = "\Q$t\E"$/m } map { slurp($_) // '' } pythons();
	push @missing, "$t: no block in src/sql_api.h (/* $t.c: ... */)"
	  unless $text{'src/sql_api.h'} =~ m{^/\* \Q$t\E\.c: }m;
	push @missing, "$t: no section \"## $t\" in doc/formats.md"
	  unless $text{'doc/formats.md'} =~ /^## \Q$t\E\b/m;
	push @missing, "$t: no section \"## $t\" in doc/types.md"
	  unless $text{'doc/types.md'} =~ /^## \Q$t\E\b/m;
	push @missing, "$t: no row in README.md's table of types (| `$t` |)"
	  unless $text{'README.md'} =~ /^\| `\Q$t\E` \|/m;
}

# A codec the registry does not list is built by nothing.
my %known = map { $_->[1] => 1 } @types;
opendir(my $dh, "$top/src/codec") or die "src/codec: $!\n";
for (sort readdir $dh) {
	next unless /^(.+)_codec\.c$/;
	push @missing, "$1: src/codec/$_ is no type of src/codec/registry.h" unless $known{$1};
}
closedir $dh;

# The files of a tree under $top: git's list where there is one, else all.
sub files_under {
	my @dirs = @_;
	my @files = grep { -f "$top/$_" } split /\n/,
	  (-d "$top/.git" ? `git -C '$top' ls-files -co --exclude-standard -- @dirs 2>/dev/null` : '');
	return @files if @files;
	my @all;
	for my $d (@dirs) {
		push @all, map { substr($_, length($top) + 1) } grep { -f } split /\n/, `find '$top/$d' -type f`;
	}
	return @all;
}

sub pythons { grep { /\.py$/ } files_under('clients/python/pgkuid') }

# Every type named in code: the list a new type would have to extend.
my @names = map { $_->[1] } @types;
for my $f (sort(files_under('src', 'test/sim', 'test/unit'))) {
	next if $f =~ m{^src/upgrade/} || $f eq 'src/codec/registry.h' || $f eq 'src/sql_api.h';
	next unless $f =~ /\.(?:[ch]|sql|in|sh|pl)$/;
	my $code = slurp($f) // next;
	if ($f =~ /\.(?:[ch]|in)$/) {
		$code =~ s{/\*.*?\*/|//[^\n]*}{ }gs;
		$code =~ s{"(?:[^"\\\n]|\\.)* (?:[^"\\\n]|\\.)*"}{""}g;
	} elsif ($f =~ /\.sql$/) {
		$code =~ s{--[^\n]*}{ }g;
		$code =~ s{'(?:[^'\n]|'')* (?:[^'\n]|'')*'}{''}g;
	} else {
		$code =~ s{^\s*#[^\n]*}{}mg;
	}
	my @named = grep { $code =~ /(?<![A-Za-z0-9])\Q$_\E(?![A-Za-z0-9])/i } @names;
	push @missing, "$f names every type (@named): make it from the registry's UID_TYPES"
	  if @named == @names;
}

if (@missing) {
	print STDERR "types: $_\n" for @missing;
	exit 1;
}
printf "%d types, each with its files, rows and documentation\n", scalar @types;
