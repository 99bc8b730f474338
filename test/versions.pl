#!/usr/bin/perl
# test/versions.pl: one version everywhere a user reads the release's.
# The version is uid.control's default_version.  Checked against it:
#   META.json          its version and the version it provides uid at;
#   debian/changelog   its first entry's version, VERSION-N;
#   README.md, doc/*.md, bench/*.md, clients/*/README.md
#                      every name of a release file: the PGXN zip and its top
#                      directory (uid-VERSION.zip, uid-VERSION/) and the Debian
#                      package (postgresql-MAJOR-uid_VERSION-N_ARCH.deb).
# Other versions in prose (upgrade notes, what a version changed) are not
# release files and are left alone.  Prints each mismatch with its place and
# exits 1 if there is any.  Run from the top of the source tree (make
# metacheck).
use strict;
use warnings;
use JSON::PP ();

sub slurp
{
	my ($path) = @_;
	open(my $fh, '<', $path) or die "$path: $!\n";
	local $/;
	return <$fh>;
}

my @bad;
my ($version) = slurp('uid.control') =~ /^default_version = '([^']+)'/m
  or die "uid.control: no default_version\n";

my $meta = JSON::PP->new->decode(slurp('META.json'));
push @bad, "META.json: version $meta->{version}" if $meta->{version} ne $version;
my $prov = $meta->{provides}{uid}{version} // '(none)';
push @bad, "META.json: provides uid $prov" if $prov ne $version;

my ($deb) = slurp('debian/changelog') =~ /^\S+ \(([^)]+)\)/
  or die "debian/changelog: no first entry\n";
push @bad, "debian/changelog: first entry $deb" if $deb !~ /^\Q$version\E-\d+$/;

my @docs = ('README.md', glob('doc/*.md'), glob('bench/*.md'), glob('clients/*/README.md'));
for my $doc (@docs)
{
	my $n = 0;
	for my $line (split /\n/, slurp($doc))
	{
		$n++;
		while ($line =~ /\buid-(\d+\.\d+\.\d+)(?:\.zip|\/)|\bpostgresql-\d+-uid_(\d+\.\d+\.\d+)-/g)
		{
			my $v = $1 // $2;
			push @bad, "$doc:$n: names release file version $v" if $v ne $version;
		}
	}
}

if (@bad)
{
	print "versions: not $version:\n", map { "  $_\n" } @bad;
	exit 1;
}
printf "versions: %s in uid.control, META.json, debian/changelog and the release files %d pages name\n",
  $version, scalar @docs;
