# doc/migrating.md as its tests read it (TAP 042 and 045): the guide's
# blocks marked "<!-- guide: NAME -->", and a run of its function with the
# plan of the pass that makes the keys.

package UidGuide;

use strict;
use warnings;

use Exporter 'import';
use FindBin;
use PostgreSQL::Test::Utils;

our @EXPORT = qw(guide guide_run);

my $doc = slurp_file("$FindBin::RealBin/../../doc/migrating.md");

# The text of the guide's block NAME: the fenced block after its marker.
sub guide
{
	my ($name) = @_;
	$doc =~ /^<!-- guide: \Q$name\E -->\n```[a-z]*\n(.*?)^```$/ms
	  or die "doc/migrating.md has no block marked \"guide: $name\"\n";
	return $1;
}

# Runs the guide's function and then the SQL given, in one session of the
# node's database DB, with auto_explain logging every statement's plan;
# returns the plan of the pass that made the keys (CREATE TEMP TABLE
# uid_new_keys), or undef if there was none.
sub guide_run
{
	my ($node, $db, $sql) = @_;
	my $from = -s $node->logfile;
	$node->safe_psql($db, join("\n",
		"LOAD 'auto_explain';", 'SET auto_explain.log_min_duration = 0;',
		'SET auto_explain.log_nested_statements = on;', guide('uid_move_keys'), $sql));
	my ($plan) = slurp_file($node->logfile, $from) =~
	  /Query Text: CREATE TEMP TABLE uid_new_keys.*?\n(.*?)(?=\n\S+ \S+ \S+ \[|\z)/s;
	return $plan;
}

1;
