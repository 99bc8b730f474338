#!/usr/bin/perl
# test/layers.pl CORE.o OBJECT.o... -- SOURCE...: the modules of src/ form
# layers, with no import circle and no include circle.
#
# Imports: a module is an object file; module A imports B when A uses a
# symbol B defines (nm).  Prints each module's layer (0: imports no other
# module; n: imports one of layer n-1 at most) and what it imports.
#
# Includes: a module is a source file of src/ (SOURCE), a .c and its .h one
# module, as for the imports (src/guc.c and src/guc.h: guc); A includes B
# when a file of A has #include "..." of a file of B, found as the compiler
# finds it (beside the file, then in src/; one outside src/ is no module).
# Every #include counts, under #if or not.  The imports do not see a header
# that includes back what includes it: inline functions and macros make no
# symbol.
#
# Exits 1, naming each circle and what closes it (the symbols, or the
# #include lines), if the imports or the includes form one.
#
# CORE.o is the generator core (src/core/alloc.c) compiled alone: the
# server compiles the core into generate.o (see generate.c), so a symbol
# both define counts as the core's, and a module that calls the core
# imports the core, not generate.
use strict;
use warnings;

my @sources;
for my $i (0 .. $#ARGV) {
	next unless $ARGV[$i] eq '--';
	@sources = splice(@ARGV, $i + 1);
	pop @ARGV;
	last;
}
@ARGV >= 2 && @sources or die "usage: $0 CORE.o OBJECT.o... -- SOURCE...\n";
my ($core, @objects) = @ARGV;

# A path's name under src/ (src/core/alloc.c: core/alloc.c).
sub under_src {
	my ($path) = @_;
	(my $r = $path) =~ s{^.*/src/|^src/}{};
	return $r;
}

sub module_of {
	my ($path) = @_;
	(my $m = under_src($path)) =~ s{\.[och]$}{};
	return $m;
}

my (%defines, %uses);
for my $obj ($core, @objects) {
	my $m = $obj eq $core ? 'core/alloc' : module_of($obj);
	open(my $nm, '-|', 'nm', $obj) or die "nm $obj: $!\n";
	while (<$nm>) {
		if (/^\S+\s+[TDBRCG]\s+(\S+)$/) {
			# the core's symbols stay the core's
			$defines{$1} = $m unless ($defines{$1} // '') eq 'core/alloc';
		}
		elsif (/^\s+U\s+(\S+)$/) {
			$uses{$m}{$1} = 1;
		}
	}
	close($nm) or die "nm $obj failed\n";
	$uses{$m} //= {};
}

# imports: module => { module => [symbols] }
my %imports;
for my $m (keys %uses) {
	$imports{$m} //= {};
	for my $s (keys %{ $uses{$m} }) {
		my $d = $defines{$s};
		push @{ $imports{$m}{$d} }, $s if defined $d && $d ne $m;
	}
}

# includes: module => { module => ["file:line includes ..."] }
my %file = map { under_src($_) => $_ } @sources;
my %includes;
for my $f (sort keys %file) {
	my $m = module_of($f);
	(my $dir = $f) =~ s{[^/]*$}{};
	$includes{$m} //= {};
	open(my $in, '<', $file{$f}) or die "$file{$f}: $!\n";
	while (<$in>) {
		next unless /^\s*#\s*include\s+"([^"]+)"/;
		my ($target) = grep { exists $file{$_} } ("$dir$1", $1);
		next unless defined $target;
		my $t = module_of($target);
		push @{ $includes{$m}{$t} }, "src/$f:$. includes \"$1\"" if $t ne $m;
	}
	close($in);
}

# Tarjan's strongly connected components of a graph
# { module => { module => ... } }, those of more than one module
my ($graph, $index, @stack, %on, %idx, %low, @circles);
sub visit {
	my ($v) = @_;
	$idx{$v} = $low{$v} = $index++;
	push @stack, $v;
	$on{$v} = 1;
	for my $w (sort keys %{ $graph->{$v} }) {
		if (!exists $idx{$w}) {
			visit($w);
			$low{$v} = $low{$w} if $low{$w} < $low{$v};
		}
		elsif ($on{$w}) {
			$low{$v} = $idx{$w} if $idx{$w} < $low{$v};
		}
	}
	if ($low{$v} == $idx{$v}) {
		my @c;
		my $w;
		do {
			$w = pop @stack;
			delete $on{$w};
			push @c, $w;
		} while ($w ne $v);
		push @circles, [ sort @c ] if @c > 1;
	}
}

# Prints each circle of a graph and what closes it (show: an edge's text);
# returns how many there are.
sub print_circles {
	my ($what, $g, $show) = @_;
	$graph = $g;
	($index, @stack, %on, %idx, %low, @circles) = (0);
	visit($_) for grep { !exists $idx{$_} } sort keys %$graph;
	for my $c (@circles) {
		my %in = map { $_ => 1 } @$c;
		print "$what circle: @$c\n";
		for my $a (@$c) {
			for my $b (sort grep { $in{$_} } keys %{ $graph->{$a} }) {
				print "  $a -> $b: ", $show->($graph->{$a}{$b}), "\n";
			}
		}
	}
	return scalar @circles;
}

my %layer;
sub layer_of {
	my ($m) = @_;
	return $layer{$m} if exists $layer{$m};
	my $l = 0;
	for my $d (keys %{ $imports{$m} }) {
		my $dl = layer_of($d) + 1;
		$l = $dl if $dl > $l;
	}
	return $layer{$m} = $l;
}

my $status = 0;
if (print_circles('import', \%imports, sub { join(' ', sort @{ $_[0] }) })) {
	print "a module may use only symbols of modules below it: break each import circle\n";
	$status = 1;
}
else {
	layer_of($_) for keys %imports;
	for my $m (sort { $layer{$a} <=> $layer{$b} || $a cmp $b } keys %imports) {
		printf "%d %-22s %s\n", $layer{$m}, $m, join(' ', sort keys %{ $imports{$m} });
	}
	print "no import circle among ", scalar(keys %imports), " modules\n";
}
if (print_circles('include', \%includes, sub { join('; ', @{ $_[0] }) })) {
	print "a module may include only files of modules below it: break each include circle\n";
	$status = 1;
}
else {
	print "no include circle among ", scalar(keys %includes), " modules (", scalar(keys %file), " files)\n";
}
exit $status;
