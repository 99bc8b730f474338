# uid: K-sortable ID types for PostgreSQL (PGXS)

EXTENSION = uid
# The version lives in uid.control alone.
EXTVERSION = $(shell sed -n "s/^default_version = '\(.*\)'/\1/p" $(EXTENSION).control)

# The types, read from their one list (src/codec/registry.h), in its order:
# the order their SQL is joined into the install script.  Each has its
# src/TYPE.[ch], src/TYPE.sql, src/codec/TYPE_codec.[ch],
# src/inspect/TYPE_inspect.c, its fuzz target and its regression tests
# sql/TYPE_io, _ops and _gen; a type without one of them does not build or
# fails the tests.
TYPES := $(shell sed -n 's/^[[:space:]]*X.[A-Z0-9_]*, \([a-z0-9_]*\),.*/\1/p' src/codec/registry.h)
ifeq ($(TYPES),)
$(error no types read from src/codec/registry.h)
endif
# partition.sql's list of the key types: 'sno', 'muid', ... in SQL, and
# "sno, muid, ... and uid60" in its hint.
comma := ,
empty :=
space := $(empty) $(empty)
TYPES_SQL = $(subst $(space),$(comma)$(space),$(patsubst %,'%',$(TYPES)))
TYPES_WORDS = $(subst $(space),$(comma)$(space),$(filter-out $(lastword $(TYPES)),$(TYPES))) and $(lastword $(TYPES))
PARTITION_SQL = sed -e "s/@TYPES_SQL@/$(TYPES_SQL)/" -e "s/@TYPES_WORDS@/$(TYPES_WORDS)/"

MODULE_big = uid
OBJS = src/uid.o src/state.o src/generate.o src/core/platform_pg.o src/core/backfill.o src/core/record.o src/published.o src/source.o src/ident_inval.o src/subscription.o src/citus.o src/cluster.o src/internal.o src/lease.o src/identity.o src/ident_lease.o src/ident_store.o src/coordinator.o src/remote.o src/reload.o src/guc.o src/guc_coordinator.o src/conninfo.o src/pool.o src/report.o src/type_support.o \
	src/sno_policy.o src/sno_overflow.o src/sno_backfill.o src/sno_snapshot.o \
	$(patsubst %,src/%.o,$(TYPES)) \
	$(patsubst %,src/codec/%_codec.o,$(TYPES))

# The last release: the update from it is built (below) until this one is.
UPGRADE_FROM = 0.6.0
DATA_built = $(EXTENSION)--$(EXTVERSION).sql $(EXTENSION)--$(UPGRADE_FROM)--$(EXTVERSION).sql
# Released install scripts and the upgrade scripts from them, frozen: an
# upgraded installation must equal a fresh one (regression test "upgrade").
DATA = $(wildcard src/upgrade/$(EXTENSION)--*.sql)
# uid-inspect, which decodes IDs without a server (plain C over the codecs):
# built with the extension (with the server's CFLAGS and LDFLAGS, so that a
# package gets its hardening and debug information), installed into the
# server's bindir.  Built at the top: PGXS installs a built script by its file
# name but uninstalls $(bindir)/<the path given>, so the path must have no
# directory part.
SCRIPTS_built = uid-inspect
EXTRA_CLEAN = $(DATA_built) tmp_check test/unit/codec_test test/fuzz/*_fuzz test/fuzz/*.log test/sim/sim test/sim/alloc_alone.o \
	uid-inspect test/unit/inspect_test test/unit/settings_test test/unit/core_test

PG_CONFIG ?= pg_config
# The server's major version: some tests need a newer one.
SERVER_MAJOR := $(shell $(PG_CONFIG) --version | sed 's/^PostgreSQL \([0-9]*\).*/\1/')

REGRESS = setup config identity sno_vectors $(foreach t,$(TYPES),$(t)_io $(t)_ops $(t)_gen) sno_func sno_shard read_only fence aggregates pool partition partition_owner migrate upgrade soft_errors copy_on_error pg19
# Files that need a newer server: pg_input_is_valid() (16+), COPY ... ON_ERROR
# (17+), the casts between bytea and uuid and ON_ERROR set_null (19+).
TOO_NEW := $(if $(shell test $(SERVER_MAJOR) -ge 16 && echo y),,soft_errors) \
	$(if $(shell test $(SERVER_MAJOR) -ge 17 && echo y),,copy_on_error) \
	$(if $(shell test $(SERVER_MAJOR) -ge 19 && echo y),,pg19)
ifeq ($(origin REGRESS),command line)
ifneq ($(filter $(TOO_NEW),$(REGRESS)),)
$(error $(filter $(TOO_NEW),$(REGRESS)): needs a newer PostgreSQL than $(SERVER_MAJOR) (soft_errors 16, copy_on_error 17, pg19 19))
endif
endif
# Every file needs setup's extension and helpers first: "make installcheck
# REGRESS=sno_io" runs setup, then sno_io.
override REGRESS := setup $(filter-out setup $(TOO_NEW),$(REGRESS))
# "make tempcheck" runs them, or the files REGRESS names, against a
# temporary server made and removed by test/tempcheck.sh (no server need be
# running): "make tempcheck REGRESS=sno_io", after "make install".
# The TAP tests run with "make tapcheck", not with installcheck (which is
# pg_regress alone): PROVE_TESTS=test/t/032_sno_reload.pl picks files.
PROVE_TESTS = test/t/*.pl

PG_CPPFLAGS = -I$(srcdir)/src -I$(libpq_srcdir) -DUID_VERSION='"$(EXTVERSION)"'
# libpq, to reach a coordinator (as dblink and postgres_fdw do)
SHLIB_LINK_INTERNAL = $(libpq)
PG_CFLAGS = -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

# PGXS tracks no header dependencies: rebuild every object when a header changes.
$(OBJS): $(wildcard $(srcdir)/src/*.h $(srcdir)/src/codec/*.h $(srcdir)/src/core/*.h)
# generate.c compiles the generator core into itself (see there).
src/generate.o: $(srcdir)/src/core/alloc.c

# type_sql TYPE...: each type's SQL, with its copy of the shared comparisons
# at "-- @comparisons@".
type_sql = for t in $(1); do \
		awk -v t=$$t 'FNR == NR { if (!/^--/) tmpl = tmpl $$0 "\n"; next } \
			/^-- @comparisons@$$/ { x = tmpl; gsub(/@T@/, t, x); printf "%s", x; next } { print }' \
			src/comparisons.sql.in src/$$t.sql; \
	done

$(EXTENSION)--$(EXTVERSION).sql: src/internal.sql src/uid.sql src/reload.sql src/fence.sql src/pool.sql src/pool_guard.sql src/pool_functions.sql src/comparisons.sql.in $(patsubst %,src/%.sql,$(TYPES)) src/partition.sql src/citus.sql
	( cat src/internal.sql src/uid.sql src/reload.sql src/fence.sql src/pool.sql src/pool_guard.sql src/pool_functions.sql; \
	  $(call type_sql,$(TYPES)); \
	  $(PARTITION_SQL) src/partition.sql; cat src/citus.sql ) > $@

# Types the last release did not have (none in its frozen install script):
# the update creates them as a fresh install does.
NEW_TYPES = $(foreach t,$(TYPES),$(if $(shell grep -qs '^CREATE TYPE $(t);' src/upgrade/$(EXTENSION)--$(UPGRADE_FROM).sql || echo new),$(t)))

# The update from the last release, made from the same sources until this
# version is released (then frozen into src/upgrade/): the domain of
# internal calls (new in 0.7.0), update.sql's drops, uid_reload() (reload.sql,
# new in 0.7.0), uid_fence_restore() (fence.sql, new in 0.7.0), the pools' guard
# (pool_guard.sql, new in 0.7.0), then the pool's functions replaced, the
# new types (if any) created, partition.sql's functions replaced (0.6.0 had
# uid_create_partitions() only) and citus.sql's added.
$(EXTENSION)--$(UPGRADE_FROM)--$(EXTVERSION).sql: src/internal.sql src/update.sql src/reload.sql src/fence.sql src/pool_guard.sql src/pool_functions.sql src/comparisons.sql.in $(patsubst %,src/%.sql,$(NEW_TYPES)) src/partition.sql src/citus.sql
	( printf '%s\n' '-- uid $(UPGRADE_FROM) -> $(EXTVERSION)' '' \
		'\echo Use "ALTER EXTENSION uid UPDATE TO '"'"'$(EXTVERSION)'"'"'" to load this file. \quit' ''; \
	  cat src/internal.sql src/update.sql src/reload.sql src/fence.sql src/pool_guard.sql; \
	  sed 's/^CREATE FUNCTION/CREATE OR REPLACE FUNCTION/' src/pool_functions.sql; \
	  $(call type_sql,$(NEW_TYPES)); \
	  $(PARTITION_SQL) -e 's/^CREATE FUNCTION/CREATE OR REPLACE FUNCTION/' src/partition.sql; \
	  cat src/citus.sql ) > $@

# Codec unit tests: plain C, no server.
CODEC_SRCS = $(patsubst %,src/codec/%_codec.c,$(TYPES))
# Each type's tests are test/unit/TYPE_test.c, compiled on their own.
CODEC_TESTS = test/unit/bits_test.c $(patsubst %,test/unit/%_test.c,$(TYPES))
test/unit/codec_test: $(CODEC_SRCS) $(CODEC_TESTS) src/codec/*.h test/unit/codec_test.c test/unit/*.h
	$(CC) -std=c11 -O2 -Wall -Wextra -I$(srcdir)/src -o $@ test/unit/codec_test.c $(CODEC_TESTS) $(CODEC_SRCS)

# uid-inspect and the unit test of its core (src/inspect/inspect.h: the
# types' table, detection and fields, formatting, the options, and what the
# core lends the types' files), and each type's src/inspect/TYPE_inspect.c,
# what the core knows of that type (before the codecs, so that a type
# without one is named first).
INSPECT_SRCS = $(patsubst %,src/inspect/%.c,types detect format options type_ops) \
	$(patsubst %,src/inspect/%_inspect.c,$(TYPES)) $(CODEC_SRCS)
uid-inspect: src/inspect/uid_inspect.c $(INSPECT_SRCS) src/inspect/*.h src/codec/*.h
	$(CC) -std=c11 $(CFLAGS) -I$(srcdir)/src -DUID_VERSION='"$(EXTVERSION)"' -o $@ src/inspect/uid_inspect.c $(INSPECT_SRCS) $(LDFLAGS)

# Each type's rows are in its test/unit/TYPE_inspect_test.c.
INSPECT_TEST_ROWS = $(patsubst %,test/unit/%_inspect_test.c,$(TYPES))
test/unit/inspect_test: test/unit/inspect_test.c $(INSPECT_TEST_ROWS) test/unit/*.h $(INSPECT_SRCS) src/inspect/*.h src/codec/*.h
	$(CC) -std=c11 -O2 -Wall -Wextra -I$(srcdir)/src -o $@ test/unit/inspect_test.c $(INSPECT_TEST_ROWS) $(INSPECT_SRCS)

# The settings' C variables start at their boot values (test/unit/settings_test.c):
# it reads guc.o's table and variables, linked with guc.o's server symbols
# left unresolved (it calls nothing that needs them), into a program that is
# not position-independent (the loader refuses such a PIE).
test/unit/settings_test: test/unit/settings_test.c src/guc.o $(INSPECT_SRCS) src/inspect/*.h src/codec/*.h
	$(CC) $(CPPFLAGS) -O2 -Wall -Wextra -Wno-unused-parameter -no-pie -o $@ \
		test/unit/settings_test.c src/guc.o $(INSPECT_SRCS) -Wl,--unresolved-symbols=ignore-all

# The unit tables of the generator core's rules (test/unit/core_test.c):
# the settings record (src/core/record.c), where an identity comes from
# (src/core/source.h), what a state file knows (src/core/backfill.c) and
# the lease pool's rules (src/core/pool.h),
# plain C over a fake platform (test/unit/core_fake.c, for
# test/sim/sim_platform.h).  test/unit/mutate.sh builds them the same
# way against each of its mutants of src/core (make mutatecheck).
CORE_TEST_SRCS = test/unit/core_test.c test/unit/record_test.c test/unit/record_publish_test.c \
	test/unit/source_test.c test/unit/backfill_test.c test/unit/pool_test.c test/unit/core_fake.c
test/unit/core_test: $(CORE_TEST_SRCS) test/unit/*.h src/core/record.c src/core/backfill.c src/core/*.h src/codec/*.h test/sim/sim_platform.h
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Wno-unused-parameter -DUID_SIM -I$(srcdir)/test/sim -I$(srcdir)/src -o $@ \
		$(CORE_TEST_SRCS) src/core/record.c src/core/backfill.c

# The client packages' shared vectors (clients/vectors/vectors.json): what the
# C codecs make of clients/vectors/inputs, through uid-inspect.  vectorcheck
# fails if the file is not what the codecs make now.
vectors: uid-inspect test/vectors.pl clients/vectors/inputs
	perl test/vectors.pl ./uid-inspect clients/vectors/inputs > clients/vectors/vectors.json

vectorcheck: uid-inspect
	perl test/vectors.pl ./uid-inspect clients/vectors/inputs > clients/vectors/vectors.json.new
	@if cmp -s clients/vectors/vectors.json clients/vectors/vectors.json.new; then \
		rm -f clients/vectors/vectors.json.new; echo "vectors: clients/vectors/vectors.json is what the codecs make"; \
	else \
		diff -u clients/vectors/vectors.json clients/vectors/vectors.json.new | head -40; \
		echo "vectors: clients/vectors/vectors.json differs from what the codecs make (make vectors)"; exit 1; \
	fi

.PHONY: vectors vectorcheck

unitcheck: test/unit/codec_test test/unit/core_test test/unit/inspect_test test/unit/settings_test uid-inspect metacheck layercheck vectorcheck
	test/unit/codec_test
	test/unit/core_test
	test/unit/inspect_test
	test/unit/settings_test
	sh test/unit/inspect_cli.sh uid-inspect

# Fuzz targets for each decoder (clang, libFuzzer + AddressSanitizer).
FUZZ_TIME ?= 20
fuzzcheck: $(patsubst %,test/fuzz/%_fuzz,$(TYPES)) test/fuzz/inspect_fuzz
	for t in $^; do \
		$$t -max_total_time=$(FUZZ_TIME) -print_final_stats=0 -artifact_prefix=test/fuzz/ >$$t.log 2>&1; rc=$$?; \
		tail -n 2 $$t.log; [ $$rc -eq 0 ] || exit 1; \
	done

test/fuzz/%_fuzz: test/fuzz/%_fuzz.c src/codec/%_codec.c src/codec/*.h test/unit/*.h test/fuzz/*.h
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I$(srcdir)/src -o $@ $< src/codec/$*_codec.c

# uid-inspect's core reads every type: its target links every codec.
test/fuzz/inspect_fuzz: test/fuzz/inspect_fuzz.c $(INSPECT_SRCS) src/inspect/*.h src/codec/*.h test/unit/*.h test/fuzz/*.h
	clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -I$(srcdir)/src -o $@ $< $(INSPECT_SRCS)

# The generator core's deterministic simulator (test/sim/*.c over
# src/core/*.c): plain C, no server.  SIM_SEEDS picks the seeds; then
# the planted bugs, each of which it must find (test/sim/plant.sh).
SIM_SEEDS ?= 1-2000
SIM_SRCS = src/core/alloc.c src/core/backfill.c src/core/record.c
test/sim/sim: test/sim/*.c test/sim/*.h $(SIM_SRCS) src/core/*.h src/codec/*.h
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Wno-unused-parameter -DUID_SIM -I$(srcdir)/test/sim -I$(srcdir)/src -o $@ test/sim/*.c $(SIM_SRCS)

# A plant that cannot be planted (its function or text gone: plant.sh's exit
# 2) needs updating to the code; it is said apart from a plant the simulator
# missed (exit 1).  make's "Error N" line names plant.sh's code (make itself
# exits 2 either way; test/check.sh's sim stage reads the line below).
simcheck: test/sim/sim
	test/sim/sim --seeds $(SIM_SEEDS) --quiet
	@rc=0; SIM_SEEDS=$(SIM_SEEDS) bash test/sim/plant.sh "$(CC)" || rc=$$?; \
	if [ $$rc = 2 ]; then echo "simcheck: no plant missed, but plants CANNOT PLANT: update them to the code (test/sim/plant.sh exit 2)" >&2; fi; \
	exit $$rc

# Mutants of the core's rules, each to be killed by core_test, else by the
# simulator's seeds (test/unit/mutate.sh, which lists them).
mutatecheck:
	MUTATE_SIM_SEEDS=$(SIM_SEEDS) bash test/unit/mutate.sh "$(CC)"

.PHONY: unitcheck fuzzcheck simcheck mutatecheck

# The modules of src/ form layers, with no import circle and no include
# circle (test/layers.pl): it reads the objects' symbols, the core's from the
# core compiled alone, and the #include lines of src/'s sources.  And
# src/sql_api.h declares every C function SQL calls (test/sql_api.pl).
test/sim/alloc_alone.o: src/core/alloc.c src/core/*.h test/sim/*.h src/codec/*.h
	$(CC) -std=gnu11 -c -DUID_SIM -I$(srcdir)/test/sim -I$(srcdir)/src -o $@ $<

LAYER_SRCS = $(wildcard $(srcdir)/src/*.[ch] $(srcdir)/src/*/*.[ch])
layercheck: test/sim/alloc_alone.o $(OBJS)
	perl test/layers.pl test/sim/alloc_alone.o $(OBJS) -- $(LAYER_SRCS)
	perl test/sql_api.pl src/sql_api.h $(OBJS)
	perl test/types.pl $(srcdir)

.PHONY: layercheck

tempcheck:
	PG_CONFIG=$(PG_CONFIG) bash $(srcdir)/test/tempcheck.sh $(filter-out setup,$(REGRESS))

.PHONY: tempcheck

# The TAP tests, against the installed server (test/check.sh --only tap runs
# them as the postgres user, with libfaketime).
tapcheck:
	$(prove_installcheck)

.PHONY: tapcheck

# META.json against the PGXN Meta Spec 1.0.0, its versions against
# uid.control's (where the version lives), the files it names against the tree,
# its tested majors against test/lib.sh's UID_MATRIX (what check.sh tests).
# And the version of every release file a page names (test/versions.pl).
metacheck:
	@perl test/meta-validate.pl META.json
	@perl test/versions.pl

.PHONY: metacheck

# The PGXN release, uid-VERSION.zip: git archive of HEAD (committed files only;
# .gitattributes marks what stays out), checked by test/meta-validate.pl.
# Refused while tracked files have uncommitted changes: the zip would not hold
# them.  DIST_ANYWAY=1 makes it from HEAD all the same.
dist:
	@test "$$(git rev-parse --show-toplevel 2>/dev/null)" = "$(CURDIR)" && git rev-parse -q --verify HEAD >/dev/null || \
		{ echo "make dist: needs to run at the top of a git checkout of uid with a commit" >&2; exit 1; }
	@if [ "$(DIST_ANYWAY)" != 1 ] && ! git diff --quiet HEAD --; then \
		echo "make dist: tracked files have uncommitted changes, and the zip is made from HEAD without them:" >&2; \
		git status --short --untracked-files=no >&2; \
		echo "commit them, or run make dist DIST_ANYWAY=1 to make the zip from HEAD anyway" >&2; exit 1; fi
	@v=$$(git show HEAD:$(EXTENSION).control | sed -n "s/^default_version = '\(.*\)'/\1/p"); \
	test -n "$$v" || { echo "make dist: no default_version in HEAD's $(EXTENSION).control" >&2; exit 1; }; \
	rm -f $(EXTENSION)-$$v.zip && \
	git archive --format zip --prefix $(EXTENSION)-$$v/ -o "$(CURDIR)/$(EXTENSION)-$$v.zip" HEAD && \
	perl test/meta-validate.pl $(EXTENSION)-$$v.zip
.PHONY: dist

