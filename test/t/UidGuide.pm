# The guides as their tests read them: a page's blocks marked "<!-- guide:
# NAME -->" (guide_block: any page, TAP 046 reads doc/multi-master.md; guide:
# doc/migrating.md's, TAP 042 and 045), and a run of doc/migrating.md's
# function with the plan of the pass that makes the keys.

package UidGuide;

use strict;
use warnings;

use Exporter 'import';
use FindBin;
use PostgreSQL::Test::Utils;
use Test::More;

our @EXPORT = qw(guide guide_block guide_run guide_parallel);

my %pages;

# The text of the block NAME of the page PAGE (a path from the top of the
# repository, "doc/multi-master.md"): the fenced block after its marker.
sub guide_block
{
	my ($page, $name) = @_;
	my $doc = $pages{$page} //= slurp_file("$FindBin::RealBin/../../$page");
	$doc =~ /^<!-- guide: \Q$name\E -->\n```[a-z]*\n(.*?)^```$/ms
	  or die "$page has no block marked \"guide: $name\"\n";
	return $1;
}

# The text of doc/migrating.md's block NAME.
sub guide
{
	my ($name) = @_;
	return guide_block('doc/migrating.md', $name);
}

# Runs the guide's function and then the SQL given, in one session of the
# node's database DB, with auto_explain logging every statement's plan;
# returns the plan of the pass that made the keys (CREATE TEMP TABLE
# uid_new_keys), or undef if there was none.
sub guide_run
{
	my ($node, $db, $sql) = @_;
	my $from = -s $node->logfile;
	my @explain = auto_explain_here($node)
	  ? ("LOAD 'auto_explain';", 'SET auto_explain.log_min_duration = 0;',
		'SET auto_explain.log_nested_statements = on;')
	  : ();
	$node->safe_psql($db, join("\n", @explain, guide('uid_move_keys'), $sql));
	my ($plan) = slurp_file($node->logfile, $from) =~
	  /Query Text: CREATE TEMP TABLE uid_new_keys.*?\n(.*?)(?=\n\S+ \S+ \S+ \[|\z)/s;
	return $plan;
}

# Is contrib's auto_explain installed (Debian's packages have it; the
# source builds of 17 and 18, test/pg-build.sh, install no contrib)?
sub auto_explain_here
{
	my ($node) = @_;
	return -e $node->config_data('--pkglibdir') . '/auto_explain.so';
}

# guide_run(), then a test that the pass was a parallel plan (WHAT names
# it), skipped where auto_explain is not installed.
sub guide_parallel
{
	my ($node, $db, $sql, $what) = @_;
	my $plan = guide_run($node, $db, $sql);
  SKIP:
	{
		skip "$what: the plan is not seen without contrib's auto_explain", 1
		  unless auto_explain_here($node);
		like($plan // '', qr/Gather/, "$what: the guide's pass ran as a parallel plan");
	}
	return;
}

1;
