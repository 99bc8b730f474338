#!/bin/sh
# The built uid-inspect program (make unitcheck): arguments and standard
# input, exit status, standard error, and --json parsed by Perl's JSON::PP
# (a parser independent of the code under test).  The core's own tests are
# in inspect_test.c.
#
# Usage: sh test/unit/inspect_cli.sh path/to/uid-inspect
# The last line printed is "N passed, M failed"; the exit status is nonzero
# if any check failed.

bin=${1:?usage: inspect_cli.sh path/to/uid-inspect}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
# the types of src/codec/registry.h, in its order, as the Makefile reads them
types=$(sed -n 's/^[[:space:]]*X.[A-Z0-9_]*, \([a-z0-9_]*\),.*/\1/p' "$(dirname "$0")/../../src/codec/registry.h")
[ -n "$types" ] || { echo "inspect_cli: no types in src/codec/registry.h" >&2; exit 1; }
# "a, b and c"
# shellcheck disable=SC2086
type_words=$(echo $types | sed 's/ /, /g; s/\(.*\), /\1 and /')
tmp=$(mktemp -d "${TMPDIR:-/tmp}/inspect_cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0
failed=0

ok() { passed=$((passed + 1)); }
fail() {
	failed=$((failed + 1))
	echo "FAIL: $1" >&2
	[ -s "$tmp/out" ] && sed 's/^/    stdout: /' "$tmp/out" | head -n 20 >&2
	[ -s "$tmp/err" ] && sed 's/^/    stderr: /' "$tmp/err" | head -n 20 >&2
	return 0
}

# run [ARG...]: runs the program with standard input from $tmp/in (empty if
# there is none), output in $tmp/out and $tmp/err, exit status in $rc
run() {
	[ -f "$tmp/in" ] || : >"$tmp/in"
	"$bin" "$@" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}
status_is() { if [ "$rc" -eq "$1" ]; then ok; else fail "$2: exit status $rc, expected $1"; fi; }
out_has() { if grep -qF -e "$1" "$tmp/out"; then ok; else fail "$2: stdout lacks '$1'"; fi; }
err_has() { if grep -qF -e "$1" "$tmp/err"; then ok; else fail "$2: stderr lacks '$1'"; fi; }
out_empty() { if [ ! -s "$tmp/out" ]; then ok; else fail "$1: stdout is not empty"; fi; }
err_empty() { if [ ! -s "$tmp/err" ]; then ok; else fail "$1: stderr is not empty"; fi; }

# json_lines N CHECK: stdout is N lines, each a JSON object that JSON::PP
# parses strictly; CHECK is Perl run on the array of them (@j), true to pass
json_lines() {
	if perl -MJSON::PP -e '
		my ($n, $check) = @ARGV[0, 1];
		open my $f, "<", $ARGV[2] or die "$!\n";
		my @j;
		while (my $line = <$f>) {
			$line =~ /\n\z/ or die "line without a newline\n";
			my $v = JSON::PP->new->utf8->decode($line);
			ref $v eq "HASH" or die "not an object: $line";
			push @j, $v;
		}
		@j == $n or die scalar(@j) . " objects, expected $n\n";
		eval $check or die "check failed: $check\n$@";
	' "$1" "$2" "$tmp/out" 2>"$tmp/perl"; then
		ok
	else
		fail "$3: $(cat "$tmp/perl")"
	fi
}

# ---- arguments ----

run --help
status_is 0 "--help"
out_has "Usage: uid-inspect [OPTION]... [ID]..." "--help"
out_has "--index-bits K" "--help"
run --version
status_is 0 "--version"
out_has "uid-inspect (uid) " "--version"

run brpk4q72xwf2m63l
status_is 0 "sno vector"
out_has "  sno (text)" "sno vector"
out_has "    timestamp   2031-05-08T23:03:34.976Z" "sno vector"
out_has "    partition   39434" "sno vector"
err_empty "sno vector"

run 'brpk4q72xwf2m63y'
status_is 1 "bad sno"
out_empty "bad sno"
err_has 'uid-inspect: "brpk4q72xwf2m63y" is not an ID of any type tried:' "bad sno"
err_has "  sno: expected 16 characters of 2-9 and a-x (either case), or 10 bytes as hex; character 16 ('y') is not allowed" "bad sno"

# a bad ID among good ones: the good ones are printed, the status is 1
run cb54ecf284000000 nope AH1fUJZhJ7
status_is 1 "mixed"
out_has "  revts8 (text)" "mixed"
out_has "  uid60 (text)" "mixed"
err_has '"nope" is not an ID' "mixed"
run ''
status_is 1 "empty argument"
err_has 'uid-inspect: "" is empty' "empty argument"

# options anywhere before "--"; after it, everything is an ID
run 5170397184000256 --type snowflake_si --epoch 2004-01-01Z --json
status_is 0 "options after the ID"
json_lines 1 '@{$j[0]{matches}} == 1 && $j[0]{matches}[0]{timestamp} eq "2024-01-01T00:00:00.000Z" && $j[0]{matches}[0]{machine} == 1' "options after the ID"
run --index-bits=13 --epoch='2004-01-01 00:00:00+00' --type=snowflake_si --json 5170397184000256
status_is 0 "--name=value"
json_lines 1 '$j[0]{matches}[0]{index} == 256 && $j[0]{matches}[0]{index_bits} == 13 && $j[0]{matches}[0]{epoch} eq "2004-01-01T00:00:00.000Z"' "--name=value"
run -- -AAAAAAAAA --json
status_is 1 "after --"
out_has "  uid60 (text)" "after --"
err_has '"--json" is not an ID' "after --"

# usage errors: status 2, a message and the hint, nothing decoded
for args in "-AAAAAAAAA" "--jsn x" "--type" "--type foo x" "--type sno, x" "--epoch now x" \
	"--epoch 2003-01-01 x" "--index-bits 0 x" "--index-bits 14 x" "--epoch"; do
	# shellcheck disable=SC2086
	run $args
	status_is 2 "usage error: $args"
	err_has 'Try "uid-inspect --help" for more information.' "usage error: $args"
	out_empty "usage error: $args"
done
run --type foo x
err_has "--type: unknown type \"foo\" (the types are $type_words)" "--type foo"
run --epoch 2003-01-01 x
err_has "--epoch: the base clock must be from 2003-03-18T07:20:19.225Z" "--epoch too early"

# ---- standard input ----

# one ID a line; blank lines and white space around IDs are skipped
printf 'brpk4q72xwf2m63l\n\n   \n  AH1fUJZhJ7 \r\n\\x4e6f2160a0ff9a0a1033' >"$tmp/in"
run --json
status_is 0 "stdin"
json_lines 3 '$j[0]{input} eq "brpk4q72xwf2m63l" && $j[1]{input} eq "AH1fUJZhJ7" && $j[1]{matches}[0]{worker} == 300 && $j[2]{matches}[0]{form} eq "bytes" && $j[2]{matches}[0]{text} eq "brpk4q72xwf2m63l" && $j[0]{matches}[0]{bytes} eq "\\x4e6f2160a0ff9a0a1033"' "stdin"
err_empty "stdin"

# a bad line: its object has an error; the others are decoded
printf 'cb54ecf284000000\nnot an id\n0000000000000000\n' >"$tmp/in"
run --json
status_is 1 "stdin with a bad line"
json_lines 3 '@{$j[1]{matches}} == 0 && $j[1]{error} =~ /^"not an id" is not an ID of any type tried: sno: / && join(" ", map { "$_->{type}/$_->{form}" } @{$j[2]{matches}}) =~ m{^snowflake_si/text revts8/text .*snowflake_si/bytes .*uid60/bytes} && $j[0]{matches}[0]{bigint} == -3795148059625652224' "stdin with a bad line"
err_has '"not an id" is not an ID' "stdin with a bad line"

# text mode: a blank line between inputs
printf 'brpk4q72xwf2m63l\nAH1fUJZhJ7\n' >"$tmp/in"
run
status_is 0 "stdin text"
if [ "$(sed -n 10p "$tmp/out")" = "" ] && [ "$(sed -n 11p "$tmp/out")" = "AH1fUJZhJ7" ]; then ok; else fail "stdin text: no blank line between inputs"; fi

: >"$tmp/in"
run
status_is 0 "empty stdin"
out_empty "empty stdin"

# JSON escaping of whatever a line holds: quotes, backslashes, control
# characters, bytes that are not UTF-8, a NUL, a long line
{
	printf 'a"b\\c\001\177\n'
	printf '\303\251\360\237\230\200\377\n'
	printf 'AH1f\000JZhJ7\n'
	head -c 100000 /dev/zero | tr '\0' 7
	printf '\n'
} >"$tmp/in"
run --json
status_is 1 "escaping"
json_lines 4 '$j[0]{input} eq "a\"b\\c\x{1}\x{7f}" && $j[1]{input} eq "\x{e9}\x{1f600}\x{fffd}" && $j[2]{input} eq "AH1f\x{0}JZhJ7" && length($j[3]{input}) == 100000 && $j[3]{error} =~ /snowflake_si: .* it is out of range/' "escaping"

# ---- the reference vectors through the program, as JSON ----
printf '%s\n' 5D5EAC793E61F-1BFC71B112D-0000000B 5d5eac79-3e61-f1bf-c71b-112d0000000b \
	'\xffffffffffffffffffffffff00000004' ffffffffffff03ff __________ 9007199254740991 >"$tmp/in"
run --json --epoch '2003-03-18 07:20:19.225+00'
status_is 0 "vectors"
json_lines 6 '
	my ($m0, $m1, $m2, $r, $u, $s) = map { $_->{matches}[0] } @j;
	$m0->{timestamp} eq "2022-01-19T08:00:30.975519Z" && $m0->{unix_us} == 1642579230975519 &&
	$m0->{medallion} == 1923190821165 && $m0->{offset} == 11 &&
	$m1->{form} eq "uuid" && $m1->{text} eq $m0->{text} &&
	$m2->{timestamp} eq "2112-09-17T23:53:47.370495Z" && $m2->{medallion} == 17592186044415 &&
	$r->{timestamp} eq "2109-05-15T07:35:11.103Z" && $r->{sequence} == 63 && $r->{generator} == 63 && $r->{cluster} == 15 &&
	$u->{timestamp} eq "2154-04-07T06:28:15Z" && $u->{worker} == 511 && $u->{sequence} == 1023 && $u->{random} == 511 &&
	$s->{timestamp} eq "2038-01-19T03:14:07.000Z" && $s->{machine} == 31 && $s->{index} == 255' "vectors"

# ---- a failed write ----
if [ -w /dev/full ]; then
	"$bin" brpk4q72xwf2m63l >/dev/full 2>"$tmp/err"
	rc=$?
	status_is 2 "write to /dev/full"
	err_has "could not write" "write to /dev/full"
fi

echo "inspect_cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
