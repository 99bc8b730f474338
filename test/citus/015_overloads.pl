# Overloads in the extension's schema (issue 38): a role with CREATE there,
# on the coordinator and on a worker, creates functions named as the ones
# uid_citus_settings() and uid_citus_check() call, here and on every node:
# with defaults (which made those calls "not unique"), of a polymorphic
# type, VARIADIC, and uid_citus_agree(text, integer) (which an unknown
# literal matched before uid_citus_agree(timestamptz, integer), so that the
# superuser running uid_citus_check() ran the role's function).  The calls
# between uid's functions pass the domain uid_internal_call first
# (src/internal.sql) and reach uid's own:
#   1. uid_citus_settings() lists what it listed before the overloads;
#   2. uid_citus_check() passes and notes the layout on every node, and
#      none of the role's functions ran.

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin, "$FindBin::RealBin/../t";

use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidTest qw(attempt);
use CitusTest;

my ($coord, $w1, $w2) = citus_cluster();
my @nodes = ($coord, $w1, $w2);

# The layout in force and the one noted, as uid_citus_node() shows them:
# through a function of the test's own whose body names uid_citus_node()
# by its OID (BEGIN ATOMIC), made before the overloads that make a call of
# uid_citus_node() by name ambiguous.
for my $node (@nodes)
{
	$node->safe_psql(
		'postgres', q{
		SET citus.enable_ddl_propagation = off;
		CREATE SCHEMA regress_uid_test;
		CREATE FUNCTION regress_uid_test.layout() RETURNS text LANGUAGE sql
		BEGIN ATOMIC
			SELECT concat_ws('|', snowflake_si_index_bits, coalesce(agreed_index_bits::text, 'none'),
							 agreed_epoch IS NOT DISTINCT FROM snowflake_si_epoch)
			FROM public.uid_citus_node();
		END;
	});
}

sub layout
{
	my ($node) = @_;
	return $node->safe_psql('postgres', 'SELECT regress_uid_test.layout()');
}

my $settings = q{SELECT node || '|' || coalesce(node_group::text, '') || '|' || name || '|' ||
						coalesce(value, '') || '|' || coalesce(coordinator_value, '') || '|' || agrees
				 FROM uid_citus_settings() ORDER BY 1};
my $before = $coord->safe_psql('postgres', $settings);
like($before, qr/^(?:[^\n]*\|true\n){23}[^\n]*\|true$/, 'before the overloads: 24 rows, all agreeing');
is(layout($_), '8|none|f', $_->name . ': no layout noted yet') for @nodes;

# The role, on each node by itself (no DDL propagated), and what it creates
# on the coordinator and on worker 1.  Each function of its own notes that
# it ran in a table of its own.
for my $node (@nodes)
{
	$node->safe_psql(
		'postgres', q{
		SET citus.enable_ddl_propagation = off;
		CREATE ROLE regress_uid_overloader;
		GRANT CREATE ON SCHEMA public TO regress_uid_overloader;
	});
}
my $overloads = q{
	SET citus.enable_ddl_propagation = off;
	SET ROLE regress_uid_overloader;
	CREATE TABLE public.overload_ran (f text);
	GRANT ALL ON public.overload_ran TO PUBLIC;
	CREATE FUNCTION public.uid_citus_node(z integer DEFAULT 0, OUT node_group integer) LANGUAGE sql
	AS $$INSERT INTO public.overload_ran VALUES ('uid_citus_node(integer)') RETURNING 1$$;
	CREATE FUNCTION public.uid_citus_node(call anyelement, z integer DEFAULT 0, OUT node_group integer) LANGUAGE sql
	AS $$INSERT INTO public.overload_ran VALUES ('uid_citus_node(anyelement, integer)') RETURNING 1$$;
	CREATE FUNCTION public.uid_citus_node(VARIADIC call anyarray, OUT node_group integer) LANGUAGE sql
	AS $$INSERT INTO public.overload_ran VALUES ('uid_citus_node(anyarray)') RETURNING 1$$;
	CREATE FUNCTION public.uid_identity(z integer DEFAULT 0, OUT type text) RETURNS SETOF text LANGUAGE sql
	AS $$INSERT INTO public.overload_ran VALUES ('uid_identity(integer)') RETURNING 'sno'$$;
	CREATE FUNCTION public.uid_identity(call anyelement, z integer DEFAULT 0, OUT type text) RETURNS SETOF text
	LANGUAGE sql AS $$INSERT INTO public.overload_ran VALUES ('uid_identity(anyelement, integer)') RETURNING 'sno'$$;
	CREATE FUNCTION public.uid_citus_settings(call anyelement, z integer DEFAULT 0, OUT name text) RETURNS SETOF text
	LANGUAGE sql AS $$INSERT INTO public.overload_ran VALUES ('uid_citus_settings(anyelement, integer)') RETURNING 'x'$$;
	CREATE FUNCTION public.uid_citus_settings(VARIADIC call anyarray, OUT name text) RETURNS SETOF text
	LANGUAGE sql AS $$INSERT INTO public.overload_ran VALUES ('uid_citus_settings(anyarray)') RETURNING 'x'$$;
	CREATE FUNCTION public.uid_citus_agree(epoch text, index_bits integer) RETURNS void LANGUAGE sql
	AS $$INSERT INTO public.overload_ran VALUES ('uid_citus_agree(text, integer)')$$;
	CREATE FUNCTION public.uid_citus_agree(epoch timestamptz, index_bits integer, z integer DEFAULT 0)
	RETURNS void LANGUAGE sql
	AS $$INSERT INTO public.overload_ran VALUES ('uid_citus_agree(timestamptz, integer, integer)')$$;
	CREATE FUNCTION public.uid_citus_agree(call anyelement, epoch timestamptz, index_bits integer,
										   z integer DEFAULT 0) RETURNS void LANGUAGE sql
	AS $$INSERT INTO public.overload_ran VALUES ('uid_citus_agree(anyelement, timestamptz, integer, integer)')$$;
};
$coord->safe_psql('postgres', $overloads);
$w1->safe_psql('postgres', $overloads);
# They are in the way: the role's own call of uid_citus_node() is not unique.
for my $node ($coord, $w1)
{
	my $r = attempt($node, 'SET ROLE regress_uid_overloader; SELECT * FROM uid_citus_node()');
	is("$r->{sqlstate}|$r->{msg}", '42725|function uid_citus_node() is not unique',
		$node->name . ': the overloads make uid_citus_node() ambiguous for its callers');
}

# 1.
my $r = attempt($coord, $settings);
is($r->{rc} == 0 ? $r->{out} : "$r->{sqlstate}|$r->{msg}",
	$before, 'uid_citus_settings(): what it listed before the overloads');

# 2.
$r = attempt($coord, 'SELECT uid_citus_check()');
like($r->{rc} == 0 ? $r->{out} : "$r->{sqlstate}|$r->{msg}",
	qr/^3 nodes agree: snowflake_si epoch .*, index width 8\b/, 'uid_citus_check() passes');
is(layout($_), '8|8|t', $_->name . ': uid_citus_check() noted the layout') for @nodes;
for my $node ($coord, $w1)
{
	is($node->safe_psql('postgres', q{SELECT string_agg(f, ', ' ORDER BY f) FROM public.overload_ran}),
		'', $node->name . ': none of the role\'s functions ran');
}

done_testing();
