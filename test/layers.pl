#!/usr/bin/perl
# test/layers.pl CORE.o OBJECT.o...: the modules of src/ form layers, with no
# import circle.  A module is an object file; module A imports B when A uses
# a symbol B defines (nm).  Prints each module's layer (0: imports no other
# module; n: imports one of layer n-1 at most) and what it imports, and exits
# 1, naming each circle and the symbols that close it, if the imports form a
# circle.
#
# CORE.o is the generator core (src/core/alloc.c) compiled alone: the
# server compiles the core into generate.o (see generate.c), so a symbol
# both define counts as the core's, and a module that calls the core
# imports the core, not generate.
use strict;
use warnings;

@ARGV >= 2 or die "usage: $0 CORE.o OBJECT.o...\n";
my ($core, @objects) = @ARGV;

sub module_of {
	my ($path) = @_;
	(my $m = $path) =~ s{^.*/src/|^src/}{};
	$m =~ s{\.o$}{};
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

# Tarjan's strongly connected components
my ($index, @stack, %on, %idx, %low, @circles) = (0);
sub visit {
	my ($v) = @_;
	$idx{$v} = $low{$v} = $index++;
	push @stack, $v;
	$on{$v} = 1;
	for my $w (sort keys %{ $imports{$v} }) {
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
visit($_) for grep { !exists $idx{$_} } sort keys %imports;

if (@circles) {
	for my $c (@circles) {
		my %in = map { $_ => 1 } @$c;
		print "import circle: @$c\n";
		for my $a (@$c) {
			for my $b (sort grep { $in{$_} } keys %{ $imports{$a} }) {
				print "  $a -> $b: ", join(' ', sort @{ $imports{$a}{$b} }), "\n";
			}
		}
	}
	exit 1;
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
layer_of($_) for keys %imports;
for my $m (sort { $layer{$a} <=> $layer{$b} || $a cmp $b } keys %imports) {
	printf "%d %-22s %s\n", $layer{$m}, $m, join(' ', sort keys %{ $imports{$m} });
}
print "no import circle among ", scalar(keys %imports), " modules\n";
exit 0;
