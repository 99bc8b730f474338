#!/usr/bin/perl
# test/meta-validate.pl: checks a PGXN distribution's META.json against the
# PGXN Meta Spec v1.0.0 (https://pgxn.org/spec/), and the distribution
# against its META.json.  Core Perl only (JSON::PP, IO::Uncompress::Unzip).
#
#   perl test/meta-validate.pl META.json     the file, with the files it names
#                                            looked up beside it
#   perl test/meta-validate.pl uid-0.5.0.zip a release zip: META.json in its one
#                                            top directory, files looked up in
#                                            the zip
#
# The spec's rules: the required keys (name, version, abstract, maintainer,
# license, provides, meta-spec) and the optional ones (description,
# generated_by, tags, no_index, prereqs, release_status, resources), no other
# key except custom ones (x_ or X_) at any level that allows them; names and
# prerequisite names are terms (two characters or more, no slash, backslash,
# space or control character); versions are semantic versions (SemVer
# 2.0.0's grammar: three numbers without leading zeros, optional pre-release
# and build parts); prerequisite versions are 0 or ranges of comparisons
# joined by commas; tags are 2 to 255 characters without slash, backslash or
# control characters; licenses are the spec's names, a list of them, or a map
# of names to URLs; paths are relative, in Unix form, without . or ..
# components; meta-spec's version is 1.0.0.
#
# And what PGXN needs of the distribution: every provides file and docfile
# exists in it; an extension with a control file in the distribution has the
# version of its default_version, and so does the distribution when it
# provides an extension of its own name; a zip has exactly one top directory,
# name-version, whose META.json this is, and is itself called
# name-version.zip.  And x_tested_postgresql_majors are the majors
# test/check.sh tests (test/lib.sh's default UID_MATRIX), when the
# distribution has test/lib.sh.
#
# Prints each problem with its place in the document (/provides/uid/file)
# and exits 1 if there is any; prints "<file>: valid PGXN META.json" otherwise.
use strict;
use warnings;
use B ();
use JSON::PP ();
use File::Basename qw(basename dirname);

my @errors;
sub err { my ($path, $msg) = @_; push @errors, ($path eq '' ? '/' : $path) . ": $msg"; }

# The JSON type of a value as the decoder made it.  A string has only a
# string value; a number has a numeric one (looked at before anything uses
# the value as a string, which would give it a string value too).
sub jtype {
	my ($v) = @_;
	return 'null' unless defined $v;
	my $r = ref $v;
	return 'object' if $r eq 'HASH';
	return 'array' if $r eq 'ARRAY';
	return 'boolean' if JSON::PP::is_bool($v);
	return 'other' if $r;
	my $f = B::svref_2object(\$v)->FLAGS;
	return 'number' if $f & (B::SVf_IOK | B::SVf_NOK) && !($f & B::SVf_POK);
	return 'string';
}

sub want {
	my ($path, $v, $type) = @_;
	my $t = jtype($v);
	return 1 if $t eq $type;
	err($path, 'must be ' . article($type) . ', not ' . article($t));
	return 0;
}

sub article { $_[0] =~ /^[aeiou]/ ? "an $_[0]" : "a $_[0]" }

sub custom { $_[0] =~ /^[xX]_./ }

# Checks that an object has only the keys it may have and those it must.
sub keys_ok {
	my ($path, $h, $allowed, $required, $custom) = @_;
	my %ok = map { $_ => 1 } @$allowed;
	for my $k (sort keys %$h) {
		next if $ok{$k} || ($custom && custom($k));
		err("$path/$k", 'unknown key' . ($custom ? ' (custom keys begin with x_ or X_)' : ''));
	}
	for my $k (@$required) {
		err("$path/$k", 'required key missing') unless exists $h->{$k};
	}
}

my $SEMVER = qr/(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*)
	(?:-(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(?:\.(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*)?
	(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?/x;

sub nonempty_string {
	my ($path, $v) = @_;
	want($path, $v, 'string') or return 0;
	return 1 if length $v;
	err($path, 'must not be empty');
	return 0;
}

sub version {
	my ($path, $v) = @_;
	want($path, $v, 'string') or return 0;
	return 1 if $v =~ /^$SEMVER\z/;
	err($path, "\"$v\" is not a semantic version (like 1.2.3)");
	return 0;
}

sub term {
	my ($path, $v, $what) = @_;
	want($path, $v, 'string') or return 0;
	return 1 if length($v) >= 2 && $v !~ m{[/\\\s[:cntrl:]]};
	err($path, "\"$v\" is not a valid $what: at least two characters, no slash, backslash, space or control character");
	return 0;
}

sub url {
	my ($path, $v) = @_;
	want($path, $v, 'string') or return 0;
	return 1 if $v =~ m{^[A-Za-z][A-Za-z0-9+.-]*://[^/?#\s]+[^\s]*\z};
	err($path, "\"$v\" is not a URL (scheme://host...)");
	return 0;
}

my %LICENSES = map { $_ => 1 } qw(agpl_3 apache_1_1 apache_2_0 artistic_1 artistic_2 bsd freebsd
	gfdl_1_2 gfdl_1_3 gpl_1 gpl_2 gpl_3 lgpl_2_1 lgpl_3_0 mit mozilla_1_0 mozilla_1_1 openssl perl_5
	postgresql qpl_1_0 ssleay sun zlib open_source restricted unrestricted unknown);

# Paths the spec's fields name, collected to look them up in the distribution.
my @named_files;

sub path {
	my ($path, $v) = @_;
	want($path, $v, 'string') or return 0;
	my $p = $v =~ s{^\./}{}r;
	if (length($v) < 2 || $p eq '') { err($path, "\"$v\" is too short for a path"); return 0 }
	if ($v =~ m{^/}) { err($path, "\"$v\" is absolute; paths are relative to the distribution's top"); return 0 }
	if ($v =~ /\\/) { err($path, "\"$v\" has a backslash; paths are in Unix form"); return 0 }
	if (grep { $_ eq '.' || $_ eq '..' } split m{/}, $p) {
		err($path, "\"$v\" has a . or .. component");
		return 0;
	}
	return 1;
}

sub unique_list {
	my ($path, $a, $each) = @_;
	want($path, $a, 'array') or return;
	err($path, 'must not be empty') unless @$a;
	my %seen;
	for my $i (0 .. $#$a) {
		my $ok = $each->("$path/$i", $a->[$i]);
		if ($ok && $seen{$a->[$i]}++) { err("$path/$i", "\"$a->[$i]\" is listed twice") }
	}
}

sub check_license {
	my ($path, $v) = @_;
	my $t = jtype($v);
	my $one = sub {
		my ($p, $l) = @_;
		want($p, $l, 'string') or return 0;
		return 1 if $LICENSES{$l};
		err($p, "\"$l\" is not a license the spec names (" . join(', ', sort keys %LICENSES) . '); use a map of name to URL for others');
		return 0;
	};
	if ($t eq 'string') { $one->($path, $v) }
	elsif ($t eq 'array') { unique_list($path, $v, $one) }
	elsif ($t eq 'object') {
		err($path, 'must not be empty') unless %$v;
		url("$path/$_", $v->{$_}) for sort keys %$v;
	}
	else { err($path, 'must be a license name, a list of them or a map of name to URL, not ' . article($t)) }
}

sub check_maintainer {
	my ($path, $v) = @_;
	my $t = jtype($v);
	if ($t eq 'string') { nonempty_string($path, $v) }
	elsif ($t eq 'array') { unique_list($path, $v, \&nonempty_string) }
	else { err($path, 'must be a string or a list of strings, not ' . article($t)) }
}

sub check_provides {
	my ($path, $v) = @_;
	want($path, $v, 'object') or return;
	err($path, 'must name at least one extension') unless %$v;
	for my $name (sort keys %$v) {
		my $p = "$path/$name";
		term($p, $name, 'extension name');
		my $e = $v->{$name};
		want($p, $e, 'object') or next;
		keys_ok($p, $e, [qw(file version abstract docfile)], [qw(file version)], 1);
		push @named_files, ["$p/file", $e->{file}] if exists $e->{file} && path("$p/file", $e->{file});
		version("$p/version", $e->{version}) if exists $e->{version};
		nonempty_string("$p/abstract", $e->{abstract}) if exists $e->{abstract};
		push @named_files, ["$p/docfile", $e->{docfile}]
			if exists $e->{docfile} && path("$p/docfile", $e->{docfile});
	}
}

sub check_meta_spec {
	my ($path, $v) = @_;
	want($path, $v, 'object') or return;
	keys_ok($path, $v, [qw(version url)], ['version'], 1);
	if (exists $v->{version} && want("$path/version", $v->{version}, 'string')) {
		err("$path/version", "\"$v->{version}\" is not 1.0.0, the spec this checks") if $v->{version} ne '1.0.0';
	}
	if (exists $v->{url} && want("$path/url", $v->{url}, 'string')) {
		err("$path/url", "\"$v->{url}\" is not the spec's URL (https://pgxn.org/meta/spec.txt)")
			unless $v->{url} =~ m{^https?://pgxn\.org/meta/spec\.txt\z};
	}
}

sub check_tags {
	my ($path, $v) = @_;
	unique_list($path, $v, sub {
		my ($p, $tag) = @_;
		want($p, $tag, 'string') or return 0;
		if (length($tag) < 2 || length($tag) > 255) {
			err($p, '"' . (length($tag) > 40 ? substr($tag, 0, 40) . '...' : $tag) . '" must have 2 to 255 characters, not ' . length($tag));
			return 0;
		}
		if ($tag =~ m{[/\\[:cntrl:]]}) {
			err($p, "\"$tag\" has a slash, backslash or control character");
			return 0;
		}
		return 1;
	});
}

sub check_no_index {
	my ($path, $v) = @_;
	want($path, $v, 'object') or return;
	keys_ok($path, $v, [qw(file directory)], [], 1);
	err($path, 'needs file or directory') unless exists $v->{file} || exists $v->{directory};
	for my $k (grep { exists $v->{$_} } qw(file directory)) {
		if (jtype($v->{$k}) eq 'string') { path("$path/$k", $v->{$k}) }
		else { unique_list("$path/$k", $v->{$k}, \&path) }
	}
}

sub version_range {
	my ($path, $v) = @_;
	my $t = jtype($v);
	if ($t eq 'number') {
		return 1 if $v == 0 && "$v" eq '0';
		err($path, "the number $v is not a version range; versions are strings (0 alone may be a number)");
		return 0;
	}
	want($path, $v, 'string') or return 0;
	return 1 if $v eq '0';
	my $ok = 1;
	for my $part (split /,/, $v, -1) {
		next if $part =~ /^\s*(?:(?:[=!]=|[<>]=?)\s*)?$SEMVER\s*\z/;
		err($path, "\"$v\": \"$part\" is not a version or a comparison (<, <=, >, >=, ==, != and a version)");
		$ok = 0;
	}
	return $ok;
}

sub check_prereqs {
	my ($path, $v) = @_;
	want($path, $v, 'object') or return;
	my @phases = qw(configure build test runtime develop);
	keys_ok($path, $v, \@phases, [], 1);
	err($path, 'needs at least one phase (' . join(', ', @phases) . ')') unless grep { exists $v->{$_} } @phases;
	for my $phase (grep { exists $v->{$_} } @phases) {
		my $pp = "$path/$phase";
		my $rels = $v->{$phase};
		want($pp, $rels, 'object') or next;
		my @relations = qw(requires recommends suggests conflicts);
		keys_ok($pp, $rels, \@relations, [], 1);
		err($pp, 'needs at least one of ' . join(', ', @relations)) unless grep { exists $rels->{$_} } @relations;
		for my $rel (grep { exists $rels->{$_} } @relations) {
			my $rp = "$pp/$rel";
			my $deps = $rels->{$rel};
			want($rp, $deps, 'object') or next;
			err($rp, 'must name at least one prerequisite') unless %$deps;
			for my $dep (sort keys %$deps) {
				term("$rp/$dep", $dep, 'prerequisite name');
				version_range("$rp/$dep", $deps->{$dep});
			}
		}
	}
}

sub check_resources {
	my ($path, $v) = @_;
	want($path, $v, 'object') or return;
	keys_ok($path, $v, [qw(homepage bugtracker repository)], [], 1);
	err($path, 'needs homepage, bugtracker or repository')
		unless grep { exists $v->{$_} } qw(homepage bugtracker repository);
	url("$path/homepage", $v->{homepage}) if exists $v->{homepage};
	if (exists $v->{bugtracker} && want("$path/bugtracker", $v->{bugtracker}, 'object')) {
		my ($p, $b) = ("$path/bugtracker", $v->{bugtracker});
		keys_ok($p, $b, [qw(web mailto)], [], 1);
		err($p, 'needs web or mailto') unless exists $b->{web} || exists $b->{mailto};
		url("$p/web", $b->{web}) if exists $b->{web};
		if (exists $b->{mailto} && want("$p/mailto", $b->{mailto}, 'string')) {
			err("$p/mailto", "\"$b->{mailto}\" is not an email address") unless $b->{mailto} =~ /^[^@\s]+@[^@\s]+\z/;
		}
	}
	if (exists $v->{repository} && want("$path/repository", $v->{repository}, 'object')) {
		my ($p, $r) = ("$path/repository", $v->{repository});
		keys_ok($p, $r, [qw(url web type)], [], 1);
		err($p, 'needs web, or url and type') unless exists $r->{web} || (exists $r->{url} && exists $r->{type});
		url("$p/url", $r->{url}) if exists $r->{url};
		url("$p/web", $r->{web}) if exists $r->{web};
		if (exists $r->{type} && want("$p/type", $r->{type}, 'string')) {
			err("$p/type", "\"$r->{type}\" must be lower case letters (git, svn, ...)") unless $r->{type} =~ /^[a-z]+\z/;
		}
	}
}

sub validate {
	my ($m) = @_;
	want('', $m, 'object') or return;
	my @required = qw(name version abstract maintainer license provides meta-spec);
	my @optional = qw(description generated_by tags no_index prereqs release_status resources);
	keys_ok('', $m, [@required, @optional], \@required, 1);
	term('/name', $m->{name}, 'distribution name') if exists $m->{name};
	version('/version', $m->{version}) if exists $m->{version};
	nonempty_string("/$_", $m->{$_}) for grep { exists $m->{$_} } qw(abstract description generated_by);
	check_maintainer('/maintainer', $m->{maintainer}) if exists $m->{maintainer};
	check_license('/license', $m->{license}) if exists $m->{license};
	check_provides('/provides', $m->{provides}) if exists $m->{provides};
	check_meta_spec('/meta-spec', $m->{'meta-spec'}) if exists $m->{'meta-spec'};
	check_tags('/tags', $m->{tags}) if exists $m->{tags};
	check_no_index('/no_index', $m->{no_index}) if exists $m->{no_index};
	check_prereqs('/prereqs', $m->{prereqs}) if exists $m->{prereqs};
	check_resources('/resources', $m->{resources}) if exists $m->{resources};
	if (exists $m->{release_status} && want('/release_status', $m->{release_status}, 'string')) {
		err('/release_status', "\"$m->{release_status}\" is not stable, testing or unstable")
			unless $m->{release_status} =~ /^(?:stable|testing|unstable)\z/;
	}
}

# ---- the distribution: a directory or a zip

@ARGV == 1 or die "usage: $0 META.json | NAME-VERSION.zip\n";
my $arg = $ARGV[0];
my ($json, $has, $read);    # META.json's text; does the distribution have a file; its text
my $top;                    # a zip's top directory

if ($arg =~ /\.zip\z/) {
	require IO::Uncompress::Unzip;
	my $z = IO::Uncompress::Unzip->new($arg)
		or die "$arg: " . do { no warnings 'once'; $IO::Uncompress::Unzip::UnzipError } . "\n";
	my (%content, %tops);
	for (my $st = 1; $st > 0; $st = $z->nextStream) {
		my $name = $z->getHeaderInfo->{Name};
		my ($buf, $data) = ('', '');
		while ($z->read($buf) > 0) { $data .= $buf }
		$content{$name} = $data;
		$tops{(split m{/}, $name)[0]} = 1;
	}
	my @tops = sort keys %tops;
	if (@tops != 1) {
		print "$arg: a PGXN zip has one top directory; this has " . scalar(@tops) . ": @tops\n";
		exit 1;
	}
	$top = $tops[0];
	exists $content{"$top/META.json"} or do { print "$arg: no $top/META.json\n"; exit 1 };
	$json = $content{"$top/META.json"};
	$has = sub { exists $content{"$top/$_[0]"} };
	$read = sub { $content{"$top/$_[0]"} };
} else {
	my $dir = dirname($arg);
	open my $fh, '<:raw', $arg or die "$arg: $!\n";
	local $/;
	$json = <$fh>;
	$has = sub { -f "$dir/$_[0]" };
	$read = sub { open my $f, '<:raw', "$dir/$_[0]" or return undef; local $/; scalar <$f> };
}
my $meta = eval { JSON::PP->new->utf8->decode($json) };
if (!defined $meta) {
	my $e = $@ =~ s/ at \S+ line \d+\.\n//r;
	print "$arg: META.json is not valid JSON: $e\n";
	exit 1;
}
validate($meta);

for my $f (@named_files) {
	my ($p, $file) = @$f;
	my $rel = $file =~ s{^\./}{}r;
	err($p, "\"$file\" is not in the distribution") unless $has->($rel);
}

sub control_version {
	my ($text) = @_;
	return $1 if defined $text && $text =~ /^\s*default_version\s*=\s*'([^']*)'/m;
	return undef;
}
if (jtype($meta) eq 'object' && jtype($meta->{provides}) eq 'object') {
	for my $ext (sort keys %{ $meta->{provides} }) {
		my $e = $meta->{provides}{$ext};
		next unless ref $e eq 'HASH' && $has->("$ext.control");
		my $cv = control_version($read->("$ext.control"));
		if (!defined $cv) { err("/provides/$ext", "$ext.control has no default_version"); next }
		err("/provides/$ext/version", "\"$e->{version}\" is not $ext.control's default_version $cv")
			if defined $e->{version} && $e->{version} ne $cv;
		err('/version', "\"$meta->{version}\" is not $ext.control's default_version $cv (the distribution is named after it)")
			if defined $meta->{name} && $ext eq $meta->{name} && defined $meta->{version} && $meta->{version} ne $cv;
	}
}

# The majors it says are tested are those test/check.sh tests (test/lib.sh's
# default UID_MATRIX), in that order, and none is also built but not tested.
sub matrix {
	my ($text) = @_;
	return [split ' ', $1] if defined $text && $text =~ /^UID_MATRIX=\$\{UID_MATRIX:-([0-9 ]+)\}/m;
	return undef;
}
if (jtype($meta) eq 'object' && exists $meta->{x_tested_postgresql_majors} && $has->('test/lib.sh')) {
	my ($p, $t) = ('/x_tested_postgresql_majors', $meta->{x_tested_postgresql_majors});
	my $m = matrix($read->('test/lib.sh'));
	if (!defined $m) { err($p, 'test/lib.sh sets no default UID_MATRIX') }
	elsif (want($p, $t, 'array') && join(' ', map { $_ // '' } @$t) ne "@$m") {
		err($p, '"' . join(' ', map { $_ // '' } @$t) . "\" is not the majors test/check.sh tests (test/lib.sh's UID_MATRIX): \"@$m\"");
	}
	my $b = $meta->{x_built_not_tested_postgresql_majors};
	if (jtype($b) eq 'array' && jtype($t) eq 'array') {
		my %tested = map { ($_ // '') => 1 } @$t;
		err('/x_built_not_tested_postgresql_majors', "\"$_\" is also tested") for grep { $tested{$_ // ''} } @$b;
	}
}

if (defined $top && jtype($meta) eq 'object' && defined $meta->{name} && defined $meta->{version}) {
	my $want = "$meta->{name}-$meta->{version}";
	err('', "the zip's top directory is $top, not $want") if $top ne $want;
	err('', "the zip is called " . basename($arg) . ", not $want.zip") if basename($arg) ne "$want.zip";
}

if (@errors) {
	print "$arg: invalid PGXN META.json (Meta Spec 1.0.0):\n";
	print "  $_\n" for @errors;
	exit 1;
}
print "$arg: valid PGXN META.json (Meta Spec 1.0.0)\n";
exit 0;
