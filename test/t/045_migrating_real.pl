# doc/migrating.md, run as written (issue 51), on two schemas nobody here
# wrote: pgbench's (pgbench -i, with its foreign keys) and Django 3.2's auth
# and admin tables (Debian's python3-django: startproject, a custom user
# model, manage.py migrate).  The guide's blocks marked "<!-- guide: NAME
# -->" are read from the page itself, on a server whose parallel plans are
# forced cheap, the pass shown parallel by auto_explain.
#
# What the guide's earlier steps lost there (the issue's findings): Django's
# DEFERRABLE INITIALLY DEFERRED foreign keys made its UPDATEs fail
# ("pending trigger events"); unique constraints and indexes stayed on the
# renamed legacy columns (a duplicate group membership was accepted);
# foreign keys came back without DEFERRABLE; the legacy key had no index;
# pgbench's tables have no creation time; Django's login failed (500) once
# its user table moved.  Here, for each schema:
#
# - every row once, every reference (foreign keys, and the admin log's
#   object_id, which is none) pointing at the row it pointed at before;
# - every constraint and index the same as before, by name and definition
#   (uniqueness, DEFERRABLE, actions), now over the sno columns; a duplicate
#   refused; a lookup by the legacy key through its index;
# - the keys in creation order: (time, old key), or the old key where
#   there is no time; rows inserted afterwards sort after them;
# - Django: with the guide's model, migrations faked, the ORM reads and
#   makes users, the admin's login and pages answer, an old session
#   cookie leads to the login page, not to an error.
#
# Nothing is timed (the guide's figures come from bench runs by hand).

use strict;
use warnings;

use FindBin;
use lib $FindBin::RealBin;

use IPC::Run;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use UidGuide;
use UidTest;

my $node = uid_node(
	'migrating_real',
	conf => [
		guide('sno settings'),             'parallel_setup_cost = 0',
		'parallel_tuple_cost = 0',         'min_parallel_table_scan_size = 0',
		'max_parallel_workers_per_gather = 2'
	]);
sub q1 { return $node->safe_psql($_[0], $_[1]); }

# The guide's function and then BLOCK, in one session of database DB: the
# pass that makes the keys must have been a parallel plan.
sub run_guide
{
	my ($db, $block, $what) = @_;
	guide_parallel($node, $db, guide($block), $what);
}

# Every constraint (but NOT NULL) and index of the tables, by name and
# definition, but the legacy keys' indexes the guide adds.
sub inventory
{
	my ($db, $tables) = @_;
	return q1($db, qq{
		SELECT string_agg(x, E'\\n' ORDER BY x) FROM (
		  SELECT format('%s %s deferrable=%s deferred=%s %s', conrelid::regclass, conname,
		                condeferrable, condeferred, pg_get_constraintdef(oid)) AS x
		  FROM pg_constraint WHERE conrelid = ANY ('{$tables}'::regclass[]) AND contype IN ('p', 'u', 'f', 'x', 'c')
		  UNION ALL
		  SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i
		  WHERE i.indrelid = ANY ('{$tables}'::regclass[])
		    AND NOT EXISTS (SELECT FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.contype IN ('p', 'u', 'x'))
		    AND i.indexrelid::regclass::text NOT LIKE '%legacy%') s});
}

# The primary keys of the tables MOVED and the columns that reference them,
# with their types.
sub key_columns
{
	my ($db, $moved) = @_;
	return q1($db, qq{
		SELECT string_agg(DISTINCT format('%s.%s %s', a.attrelid::regclass, a.attname, format_type(a.atttypid, NULL)), ', ')
		FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
		WHERE (c.contype = 'p' AND c.conrelid = ANY ('{$moved}'::regclass[]))
		   OR (c.contype = 'f' AND c.confrelid = ANY ('{$moved}'::regclass[]))});
}

# The same inventory of the TABLES before and after, and the columns of
# the keys MOVED, integers before, sno now.
sub check_constraints
{
	my ($db, $tables, $moved, $before, $keys_before, $what) = @_;
	is(inventory($db, $tables), $before, "$what: every constraint and index as before, by name and definition");
	(my $keys_after = $keys_before) =~ s/ (integer|bigint)(,|\z)/ sno$2/g;
	unlike($keys_before, qr/ sno\b/, "$what: the keys were integers");
	is(key_columns($db, $moved), $keys_after, "$what: those keys and every column referencing them are sno");
}

# Rows of TABLE whose order by KEY differs from their order by ORDER.
sub out_of_order
{
	my ($db, $table, $key, $order) = @_;
	return q1($db, qq{
		SELECT count(*) FILTER (WHERE by_old <> by_new) FROM (
		  SELECT row_number() OVER (ORDER BY $order) AS by_old, row_number() OVER (ORDER BY $key) AS by_new
		  FROM $table) s});
}

#
# pgbench's schema: branches, tellers, accounts (no creation time), and
# history, which references all three and has no key of its own.
#
my $pgb_tables = '{pgbench_branches,pgbench_tellers,pgbench_accounts,pgbench_history}';
q1('postgres', 'CREATE DATABASE pgb');
q1('pgb', 'CREATE EXTENSION uid');
$node->command_ok([ 'pgbench', '-i', '-q', '-s', '2', '-I', 'dtgvpf', '-h', $node->host, '-p', $node->port, 'pgb' ],
	'pgbench -i -s 2 with foreign keys');
$node->command_ok(
	[ 'pgbench', '-n', '-t', '300', '-c', '2', '-h', $node->host, '-p', $node->port, 'pgb' ],
	'pgbench fills its history');
q1('pgb', q{
	CREATE TABLE before_accounts AS SELECT aid, bid, abalance FROM pgbench_accounts;
	CREATE TABLE before_tellers AS SELECT tid, bid FROM pgbench_tellers;
	CREATE TABLE before_history AS SELECT tid, bid, aid, delta, mtime FROM pgbench_history;
});
my $pgb_inventory = inventory('pgb', $pgb_tables);
my $pgb_keys      = key_columns('pgb', '{pgbench_branches,pgbench_tellers,pgbench_accounts}');
like($pgb_inventory, qr/pgbench_history_aid_fkey .*FOREIGN KEY \(aid\) REFERENCES pgbench_accounts\(aid\)/,
	'pgbench: history references accounts');

run_guide('pgb', 'pgbench', 'pgbench');
is( q1('pgb', q{
	SELECT (SELECT count(*) FROM pgbench_branches), (SELECT count(*) FROM pgbench_tellers t
	        JOIN before_tellers b ON b.tid = t.legacy_tid JOIN pgbench_branches r ON r.bid = t.bid
	        WHERE r.legacy_bid = b.bid),
	       (SELECT count(*) FROM pgbench_accounts a JOIN before_accounts b ON b.aid = a.legacy_aid
	        JOIN pgbench_branches r ON r.bid = a.bid WHERE r.legacy_bid = b.bid AND a.abalance = b.abalance),
	       (SELECT count(DISTINCT aid) FROM pgbench_accounts)}),
	'2|20|200000|200000', 'pgbench: every branch, teller and account once, each referencing its branch');
is( q1('pgb', q{
	SELECT count(*) FROM (
	  SELECT t.legacy_tid, b.legacy_bid, a.legacy_aid, h.delta, h.mtime FROM pgbench_history h
	  JOIN pgbench_tellers t ON t.tid = h.tid JOIN pgbench_branches b ON b.bid = h.bid
	  JOIN pgbench_accounts a ON a.aid = h.aid
	  EXCEPT ALL SELECT tid, bid, aid, delta, mtime FROM before_history) d}),
	'0', 'pgbench: every history row references the teller, branch and account it did');
is( q1('pgb', q{SELECT (SELECT count(*) FROM pgbench_history), (SELECT count(*) FROM before_history)}),
	'600|600', 'pgbench: the history has its 600 rows');
check_constraints('pgb', $pgb_tables, '{pgbench_branches,pgbench_tellers,pgbench_accounts}', $pgb_inventory, $pgb_keys, 'pgbench');
is( join(',', map { out_of_order('pgb', "pgbench_$_->[0]", $_->[1], "legacy_$_->[1]") }
	  ([ 'branches', 'bid' ], [ 'tellers', 'tid' ], [ 'accounts', 'aid' ])),
	'0,0,0', 'pgbench: with no creation time, the keys sort as the old ones');
like(q1('pgb', 'EXPLAIN (COSTS OFF) SELECT abalance FROM pgbench_accounts WHERE legacy_aid = 4242'),
	qr/Index Scan using pgbench_accounts_legacy_aid_idx/, 'pgbench: a lookup by the old key uses its index');
q1('pgb', q{INSERT INTO pgbench_accounts (bid, abalance, filler) SELECT bid, 0, '' FROM pgbench_branches});
is( q1('pgb', q{
	SELECT count(*) FROM pgbench_accounts n WHERE n.legacy_aid IS NULL
	  AND n.aid <= (SELECT max(aid) FROM pgbench_accounts WHERE legacy_aid IS NOT NULL)}),
	'0', 'pgbench: accounts inserted afterwards sort after the moved ones');
my ($rc, $out, $err) = $node->psql('pgb',
	q{INSERT INTO pgbench_history (tid, bid, aid, delta) SELECT tid, bid, sno_new(0), 1 FROM pgbench_tellers LIMIT 1});
like($err, qr/violates foreign key constraint "pgbench_history_aid_fkey"/,
	'pgbench: history refuses an account that is not there');

#
# Django 3.2: a project with a custom user model (accounts.User), its
# users, groups, memberships, admin log and a session, then the guide.
#
SKIP:
{
	my $python = '/usr/bin/python3';
	skip 'Debian python3-django is not installed', 1
	  unless system($python, '-c', 'import django, psycopg2') == 0;

	q1('postgres', 'CREATE DATABASE django');
	q1('django', 'CREATE EXTENSION uid');
	my $dir = PostgreSQL::Test::Utils::tempdir();
	local $ENV{PYTHONPATH} = "$FindBin::RealBin/../../clients/python";
	local $ENV{DJANGO_SETTINGS_MODULE} = 'shop.settings';
	sub django
	{
		my ($what, @cmd) = @_;
		my ($stdout, $stderr);
		my $ok = IPC::Run::run(\@cmd, '>', \$stdout, '2>', \$stderr);
		ok($ok, "django: $what") or diag $stderr;
		return $stdout;
	}
	mkdir "$dir/shop" or die "could not make $dir/shop: $!";
	django('startproject', $python, '-m', 'django', 'startproject', 'shop', "$dir/shop");
	$dir .= '/shop';
	chdir $dir or die "could not enter $dir: $!";
	django('startapp', $python, 'manage.py', 'startapp', 'accounts');
	append_to_file("$dir/shop/settings.py", sprintf(q{
INSTALLED_APPS += ['accounts']
AUTH_USER_MODEL = 'accounts.User'
DATABASES = {'default': {'ENGINE': 'django.db.backends.postgresql', 'NAME': 'django',
                         'USER': '%s', 'HOST': '%s', 'PORT': '%s'}}
ALLOWED_HOSTS = ['testserver']
PASSWORD_HASHERS = ['django.contrib.auth.hashers.MD5PasswordHasher']
}, scalar getpwuid($<), $node->host, $node->port));
	open my $fh, '>', "$dir/accounts/models.py" or die $!;
	print $fh "from django.contrib.auth.models import AbstractUser\n\n\nclass User(AbstractUser):\n    pass\n";
	close $fh;
	append_to_file("$dir/accounts/admin.py", q{
from django.contrib.auth.admin import UserAdmin
from .models import User

admin.site.register(User, UserAdmin)
});
	django('makemigrations', $python, 'manage.py', 'makemigrations', 'accounts');
	django('migrate', $python, 'manage.py', 'migrate');

	# 3,000 users joined over 4.5 s (several in most 4 ms units, their
	# times out of their keys' order), an admin, 50 groups, 1 to 3
	# memberships each, an admin log entry for every tenth user, and the
	# admin logged in (its session cookie printed).
	append_to_file("$dir/before.py", q{
import datetime, os, django
django.setup()
from django.contrib.admin.models import LogEntry, CHANGE
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import Group
from django.contrib.contenttypes.models import ContentType
from django.test import Client
from accounts.models import User

n = 3000
base = datetime.datetime(2021, 3, 1, tzinfo=datetime.timezone.utc)
pw = make_password('secret')
User.objects.bulk_create(
    User(username='user%d' % i, password=pw, date_joined=base + datetime.timedelta(microseconds=1500 * ((i * 7919) % n)))
    for i in range(n))
User.objects.create_user('admin', password='secret', is_staff=True, is_superuser=True,
                         date_joined=base - datetime.timedelta(days=1))
groups = Group.objects.bulk_create(Group(name='group%d' % g) for g in range(50))
users = list(User.objects.order_by('id'))
Member = User.groups.through
Member.objects.bulk_create(Member(user_id=u.id, group_id=groups[(k * 7 + j * 13) % 50].id)
                           for k, u in enumerate(users) for j in range(1 + k % 3))
admin = User.objects.get(username='admin')
ct = ContentType.objects.get_for_model(User)
LogEntry.objects.bulk_create(LogEntry(user_id=admin.id, content_type=ct, object_id=str(u.id), object_repr=u.username,
                                      action_flag=CHANGE, change_message='[]') for u in users[::10])
c = Client()
assert c.login(username='admin', password='secret')
print(c.cookies['sessionid'].value)
});
	my $session = django('users, groups, log, session', $python, 'before.py');
	chomp $session;
	my $dj_tables = '{accounts_user,accounts_user_groups,accounts_user_user_permissions,django_admin_log}';
	q1('django', q{
		CREATE TABLE before_users AS SELECT id, username, date_joined FROM accounts_user;
		CREATE TABLE before_members AS
		  SELECT u.username, m.group_id FROM accounts_user_groups m JOIN accounts_user u ON u.id = m.user_id;
		CREATE TABLE before_log AS
		  SELECT l.id, u.username, l.object_id FROM django_admin_log l JOIN accounts_user u ON u.id = l.user_id;
	});
	my $dj_inventory = inventory('django', $dj_tables);
	my $dj_keys      = key_columns('django', '{accounts_user}');
	like($dj_inventory, qr/accounts_user_groups_user_id_\w+_fk_accounts_user_id deferrable=t deferred=t/,
		"django: its foreign keys are DEFERRABLE INITIALLY DEFERRED");

	run_guide('django', 'django', 'django');
	is( q1('django', q{
		SELECT (SELECT count(*) FROM accounts_user u JOIN before_users b ON b.id = u.legacy_id AND b.username = u.username),
		       (SELECT count(DISTINCT id) FROM accounts_user),
		       (SELECT count(*) FROM (SELECT u.username, m.group_id FROM accounts_user_groups m
		                              JOIN accounts_user u ON u.id = m.user_id
		                              EXCEPT ALL SELECT username, group_id FROM before_members) d),
		       (SELECT count(*) FROM accounts_user_groups) = (SELECT count(*) FROM before_members),
		       (SELECT count(*) FROM django_admin_log l JOIN before_log b ON b.id = l.id
		        JOIN accounts_user a ON a.id = l.user_id AND a.username = b.username
		        JOIN accounts_user o ON o.id::text = l.object_id JOIN before_users ob ON ob.id::text = b.object_id
		        WHERE ob.username = o.username)}),
		'3001|3001|0|t|301',
		'django: every user once, every membership, every admin log entry naming its user and object');
	check_constraints('django', $dj_tables, '{accounts_user}', $dj_inventory, $dj_keys, 'django');
	is(out_of_order('django', 'accounts_user', 'id', 'date_joined, legacy_id'),
		'0', 'django: the users\' keys sort as (date_joined, old key)');
	($rc, $out, $err) = $node->psql('django',
		q{INSERT INTO accounts_user_groups (user_id, group_id) SELECT user_id, group_id FROM accounts_user_groups LIMIT 1});
	like($err, qr/violates unique constraint "accounts_user_groups_user_id_group_id_\w+_uniq"/,
		'django: a duplicate membership is refused');
	like(q1('django', 'EXPLAIN (COSTS OFF) SELECT username FROM accounts_user WHERE legacy_id = 42'),
		qr/Index Scan using accounts_user_legacy_id_idx/, 'django: a lookup by the old key uses its index');

	# The application side: the guide's model, a migration recorded but not
	# run, then the ORM, the admin and the old session.
	open $fh, '>', "$dir/accounts/models.py" or die $!;
	print $fh guide('django model');
	close $fh;
	django('makemigrations after the move', $python, 'manage.py', 'makemigrations', 'accounts');
	django('migrate --fake', $python, 'manage.py', 'migrate', 'accounts', '--fake');
	django('the migrations match the models', $python, 'manage.py', 'makemigrations', '--check', '--dry-run');
	append_to_file("$dir/after.py", q{
import sys, django
django.setup()
from django.test import Client
from accounts.models import User

c = Client(raise_request_exception=False)
c.cookies['sessionid'] = sys.argv[1]
r = c.get('/admin/')
print('old session', r.status_code, r.get('Location'))
c = Client(raise_request_exception=False)
r = c.post('/admin/login/?next=/admin/', {'username': 'admin', 'password': 'secret', 'next': '/admin/'})
print('login', r.status_code, r.get('Location'))
print('index', c.get('/admin/').status_code)
print('users', c.get('/admin/accounts/user/').status_code)
u = User.objects.get(username='user17')
print('change', c.get('/admin/accounts/user/%s/change/' % u.pk).status_code, type(u.pk).__name__)
print('legacy', User.objects.get(legacy_id=u.legacy_id).username)
print('groups', u.groups.count())
new = User.objects.create_user('newcomer', password='x')
print('new', type(new.pk).__name__, all(new.pk > x.pk for x in User.objects.exclude(pk=new.pk)))
print('user login', Client().login(username='user17', password='secret'))
});
	my $groups17 = q1('django', q{SELECT count(*) FROM before_members WHERE username = 'user17'});
	is( django('the ORM and the admin after the move', $python, 'after.py', $session),
		"old session 302 /admin/login/?next=/admin/\nlogin 302 /admin/\nindex 200\nusers 200\n"
		  . "change 200 Sno\nlegacy user17\ngroups $groups17\nnew Sno True\nuser login True\n",
		'django: an old session goes to the login page; login, admin pages, ORM lookups and new users work');
	chdir '/';
}

$node->stop;
done_testing();
