# A change to a copy of src/core, located by the function it is in: for
# test/unit/mutate.sh's mutants and test/sim/plant.sh's plants (sourced by
# both; run from the top of the source tree).
#
# A change is FUNCTION FROM TO.  FROM is exact text (\n and \t stand for a
# newline and a tab) that must occur exactly once in FUNCTION's definition,
# and is replaced by TO (the same escapes).  The definition runs from the
# line that begins with "FUNCTION(" (the name at the start of its line, its
# type on the line before: "static inline uint64\nuid_tick_end_us(" in a
# header as in a .c file) and whose parameters end in ")" and a line "{", to
# the next line that is "}".  A declaration ("FUNCTION(...);") is not a
# definition.  The function defined no time or twice in the file, or FROM
# found in it no time or twice, and the change is not made: it says why.
#
#   changes_begin NAME FUNCTION FROM TO   NAME's first change (NAME empty:
#                                         one not run, whose `also`s are ignored)
#   also FUNCTION FROM TO                 another change of the same NAME
#   apply_changes NAME COPY SHOWN         makes NAME's changes to the file
#                                         COPY (src/core's SHOWN); fails,
#                                         saying why on stderr, when one
#                                         cannot be made or they change nothing
#   copy_core DIR                         src/core's files into DIR/core
#   build_sim DIR OUT                     the simulator, as the Makefile
#                                         builds test/sim/sim, over DIR/core
#   objects_once BUILDER...               the unchanged core's objects, once
#   cc_link OUT FLAG... -- SOURCE...      compiles and links, each object
#                                         taken from OBJ_CACHE when made
#                                         there before from the same text
#
# OBJ_CACHE (a directory; unset: every source compiled each time): a
# change touches one file of the core, so most of a copy's objects are
# those of the copy before.  An object is kept under a hash of the flags
# and of the content of the source and of every file it includes (the
# compiler's own -MM list, by name and content, not path: each copy is in a
# directory of its own), so a change to a header compiles again what
# includes it, except a source whose preprocessed text names none of the
# changed functions but at their definition: nothing in it can call them,
# so it takes the unchanged core's object (the header hashed as src/core
# has it).  The -MM list itself is made once, for the first copy, and
# read for each later one with its directory in the paths (cc_rules): a
# change within a function adds no #include.  Two jobs that make one
# object at once each rename their own whole file into place.

declare -A changes_of
changing=
changed_file= changed_funcs=()	# the change apply_changes made: cc_link reads them
CH_US=$'\x1f'
CH_RS=$'\x1e'

changes_begin() {
	changing=$1
	[ -z "$1" ] || changes_of[$1]="$2$CH_US$3$CH_US$4$CH_RS"
}

also() {
	[ -z "$changing" ] || changes_of[$changing]+="$1$CH_US$2$CH_US$3$CH_RS"
}

# perl -e "$apply_pl" COPY SHOWN FUNCTION FROM TO [FUNCTION FROM TO ...]
apply_pl='
my ($path, $shown) = splice(@ARGV, 0, 2);
open(my $in, "<", $path) or die "$path: $!\n";
my $src = do { local $/; <$in> };
close $in;
while (@ARGV) {
	my ($func, $from, $to) = splice(@ARGV, 0, 3);
	my $said = $from;
	for ($from, $to) { s/\\n/\n/g; s/\\t/\t/g; }
	my $head = qr/^\Q$func\E\([^;{]*?\)\n\{\n/m;
	my $defs = () = $src =~ /$head/g;
	die "$func is defined $defs times in $shown\n" if $defs != 1;
	$src =~ /$head.*?^\}\n/ms or die "the end of $func is not found in $shown\n";
	my ($s, $e) = ($-[0], $+[0]);
	my $body = substr($src, $s, $e - $s);
	my $n = () = $body =~ /\Q$from\E/g;
	die "its text is not in $func any more: $said\n" if $n == 0;
	die "its text is in $func $n times: $said\n" if $n > 1;
	substr($body, index($body, $from), length $from) = $to;
	substr($src, $s, $e - $s) = $body;
}
open(my $out, ">", $path) or die "$path: $!\n";
print $out $src;
close $out;
'

apply_changes() {
	local rest=${changes_of[$1]} subs=() one
	while [ -n "$rest" ]; do
		one=${rest%%"$CH_RS"*}
		rest=${rest#*"$CH_RS"}
		subs+=("${one%%"$CH_US"*}")
		one=${one#*"$CH_US"}
		subs+=("${one%%"$CH_US"*}" "${one#*"$CH_US"}")
	done
	perl -e "$apply_pl" "$2" "src/core/$3" "${subs[@]}" || return 1
	if cmp -s "src/core/$3" "$2"; then
		echo "the change changes nothing" >&2
		return 1
	fi
	changed_file=$3 changed_funcs=()
	for ((one = 0; one < ${#subs[@]}; one += 3)); do changed_funcs+=("${subs[one]}"); done
}

copy_core() {
	mkdir -p "$1/core"
	cp src/core/*.c src/core/*.h "$1/core/"
}

build_sim() {
	cc_link "$2" -std=gnu11 -O2 -DUID_SIM -Itest/sim -I"$1" -Isrc -- \
		test/sim/*.c "$1/core/alloc.c" "$1/core/backfill.c" "$1/core/record.c"
}

# objects_once BUILDER...: OBJ_CACHE in the run's directory ($work), filled
# from an unchanged copy of the core by each BUILDER (build_sim, build_unit)
# before the jobs that share it start; exits 2 if the core does not build.
objects_once() {
	local b
	export OBJ_CACHE=$work/.objects
	copy_core "$work/.unchanged"
	for b in "$@"; do
		"$b" "$work/.unchanged" "$work/.unchanged/$b" ||
			{ echo "$b: the unchanged core does not build" >&2; exit 2; }
	done
}

# perl -e "$keys_pl" FLAGS HEADER SAME < RULES: the cache key of each
# source, in order, from the compiler's -MM rules for all of them (one
# "x.o: src dep ..." rule each, continued with backslashes): a hash of FLAGS
# and of the name (not path), length and content of every file the rule
# lists.  In the rules whose numbers (from 0) SAME lists, the copy's core
# HEADER is hashed as src/core has it (see cc_link).
keys_pl='
use Digest::SHA;
my ($flags, $header, $same) = @ARGV;
my %same = map { $_ => 1 } split " ", $same;
my $rules = do { local $/; <STDIN> };
my $n = 0;
$rules =~ s/\\\n/ /g;
for my $rule (split /\n/, $rules) {
	next if $rule !~ s/^[^:]*://;
	my $sha = Digest::SHA->new(1);
	$sha->add($flags);
	for my $f (split " ", $rule) {
		my $path = $same{$n} && $f =~ m{(^|/)core/\Q$header\E$} ? "src/core/$header" : $f;
		open(my $in, "<", $path) or die "$path: $!\n";
		my $text = do { local $/; <$in> };
		(my $name = $f) =~ s{.*/}{};
		$sha->add("$name " . length($text) . "\n", $text);
	}
	print $sha->hexdigest, "\n";
	$n++;
}
'

# perl -e "$unused_pl" FUNCTION... < TEXT: exits 0 when each FUNCTION
# occurs in the preprocessed TEXT once at most (its definition): nothing
# there calls it, nor takes its address.
unused_pl='
my $text = do { local $/; <STDIN> };
for my $f (@ARGV) {
	my $n = () = $text =~ /\b\Q$f\E\b/g;
	exit 1 if $n > 1;
}
'

# cc_rules FLAG... -- SOURCE...: the compiler's -MM rules, one per source,
# in order (no pipe: a source the preprocessor refuses fails here, never
# hashes as nothing).  A copy's rules are those of the first copy built
# with the same flags and sources, its directory in their paths: a change
# is within a function and adds no #include.  Kept in OBJ_CACHE under a
# hash of the command with the copy's directory (the first source's under
# core/) left out.
cc_rules() {
	local args=() dir= key re rep
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	for key in "$@"; do
		[[ $key != */core/* ]] || { dir=${key%/core/*}; break; }
	done
	if [ -z "$dir" ]; then
		$CC "${args[@]}" -MM "$@"
		return
	fi
	# the directory as sed's pattern, and as its replacement
	re=$(printf '%s' "$dir" | sed 's/[][\.*^$|]/\\&/g')
	rep=$(printf '%s' "$dir" | sed 's/[\&|]/\\&/g')
	key=$(printf '%s\n' "$CC" "${args[@]}" "$@" | sed "s|$re/|@COPY@/|g; s|^-I$re\$|-I@COPY@|" |
		sha1sum | cut -d' ' -f1)
	key=$OBJ_CACHE/$key.rules
	if [ ! -f "$key" ]; then
		$CC "${args[@]}" -MM "$@" >"$key.$$" || { rm -f "$key.$$"; return 1; }
		sed -i "s|$re/|@COPY@/|g" "$key.$$"
		mv -f "$key.$$" "$key"
	fi
	sed "s|@COPY@/|$rep/|g" "$key"
}

# rules_listing RULES FILE: the numbers (from 0) of the rules of RULES that
# list a path ending in FILE, on one line.
rules_listing() {
	perl -e '
		my ($rules, $file) = @ARGV;
		$rules =~ s/\\\n/ /g;
		my @rules = grep { /:/ } split /\n/, $rules;
		print join(" ", grep { grep { m{(^|/)\Q$file\E$} } split " ", ($rules[$_] =~ s/^[^:]*://r) } 0 .. $#rules), "\n";
	' "$@"
}

cc_link() {
	local out=$1 flags=() objs=() deps keys i text same= listing
	shift
	while [ "$1" != -- ]; do flags+=("$1"); shift; done
	shift
	if [ -z "${OBJ_CACHE:-}" ]; then
		$CC "${flags[@]}" -o "$out" "$@"
		return
	fi
	mkdir -p "$OBJ_CACHE"
	deps=$(cc_rules "${flags[@]}" -- "$@") || return 1
	# a change to a header's static inline function: a source whose
	# preprocessed text never calls it compiles to what the unchanged
	# header gives (its object is the unchanged core's); one whose rule
	# does not list the header is hashed without it either way
	if [[ $changed_file == *.h ]]; then
		listing=" $(rules_listing "$deps" "core/$changed_file") "
		for ((i = 0; i < $#; i++)); do
			[[ $listing == *" $i "* ]] || continue
			text=$($CC "${flags[@]}" -E "${@:i+1:1}") || return 1
			perl -e "$unused_pl" "${changed_funcs[@]}" <<<"$text" && same="$same $i"
		done
	fi
	keys=($(perl -e "$keys_pl" "$(printf '%s\n' "$CC" "${flags[@]}" | grep -v '^-I')" \
		"$changed_file" "$same" <<<"$deps")) || return 1
	[ "${#keys[@]}" = $# ] || { echo "cc_link: ${#keys[@]} rules for $# sources" >&2; return 1; }
	for ((i = 0; i < $#; i++)); do
		objs+=("$OBJ_CACHE/${keys[i]}.o")
		[ ! -f "${objs[i]}" ] || continue
		$CC "${flags[@]}" -c -o "${objs[i]}.$$" "${@:i+1:1}" || return 1
		mv -f "${objs[i]}.$$" "${objs[i]}"
	done
	$CC -o "$out" "${objs[@]}"
}
