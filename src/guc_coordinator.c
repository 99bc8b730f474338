/*
 * guc_coordinator.c
 *		What a leased identity asks of the settings: the key of the
 *		settings a lease is bound to, the refusal of a coordinator whose
 *		value was refused, and the check that every session loads uid.
 *
 * ident_lease.c calls uid_coordinator_check() and uid_preload_check()
 * before an ID under a lease, and uid_lease_settings_key() to know when
 * the lease's settings moved; published.c puts the key in the settings
 * record; identity.c and report.c ask uid_preloaded() for uid_identity()
 * and uid_config().  It reads the settings (guc.c) and is above them: the
 * settings' own hooks never call it, so no assignment waits on libpq's
 * parsing of the coordinator's address, and guc.c needs nothing of it.
 */
#include "postgres.h"

#include "common/hashfn.h"
#include "miscadmin.h"
#include "utils/guc_tables.h"
#include "utils/varlena.h"

#include "libpq-fe.h"

#include "codec/bits.h"
#include "guc.h"
#include "guc_coordinator.h"

/* The suffix core adds to a library's name (core's build defines it for dfmgr.c only). */
#ifndef DLSUFFIX
#define DLSUFFIX ".so"
#endif

/*
 * What a lease depends on among the settings: where the coordinator is (not
 * how we log in to it), the pool and its size.  Never 0.
 */
uint64
uid_lease_settings_key(void)
{
	PQconninfoOption *opts;
	uint64		k = UINT64CONST(0x75696420706f6f6c);	/* "uid pool" */

	k = uid_mix64(k ^ hash_bytes_extended((const unsigned char *) uid_pool, (int) strlen(uid_pool), k));
	k = uid_mix64(k ^ (uint64) uid_pool_size);
	opts = PQconninfoParse(uid_coordinator, NULL);
	if (opts != NULL)
	{
		for (PQconninfoOption *o = opts; o->keyword != NULL; o++)
			if (o->val != NULL &&
				(strcmp(o->keyword, "host") == 0 || strcmp(o->keyword, "hostaddr") == 0 ||
				 strcmp(o->keyword, "port") == 0 || strcmp(o->keyword, "dbname") == 0))
			{
				k = uid_mix64(k ^ hash_bytes_extended((const unsigned char *) o->keyword,
													  (int) strlen(o->keyword), k));
				k = uid_mix64(k ^ hash_bytes_extended((const unsigned char *) o->val,
													  (int) strlen(o->val), k));
			}
		PQconninfoFree(opts);
	}
	return k | 1;
}

/*
 * Errors if uid.coordinator's value was refused: naming the setting alone
 * for the client (the value may hold a password), the reason for the log.
 */
void
uid_coordinator_check(void)
{
	const char *problem;

	if (likely(!(uid_settings_refused & (1u << UID_SET_COORDINATOR))))
		return;
	problem = uid_coordinator_problem();
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("the server's value of \"uid.coordinator\" is invalid"),
			 errdetail("IDs are not made under it, nor with the identity settings in its place."),
			 problem != NULL ?
			 errdetail_log("It is refused because %s.", problem) : 0,
			 errhint("Correct it and reload the configuration; the server log says why.")));
}

/*
 * Does a list of libraries as session_preload_libraries and
 * shared_preload_libraries hold it name uid?  Read as core reads them
 * (load_libraries: comma-separated, double-quoted names, paths made
 * canonical), a name as core finds its file: "$libdir/" stands for the
 * package library directory, a name without a directory is looked up
 * there, and the suffix ".so" may be left out.
 */
static bool
uid_list_names_uid(const char *value)
{
	char	   *raw;
	List	   *names;
	ListCell   *lc;
	bool		found = false;

	if (value == NULL || *value == '\0')
		return false;
	raw = pstrdup(value);
	if (!SplitDirectoriesString(raw, ',', &names))
	{
		/* core loads nothing from a list it cannot read */
		list_free_deep(names);
		pfree(raw);
		return false;
	}
	foreach(lc, names)
	{
		const char *name = lfirst(lc);
		char		path[MAXPGPATH];

		if (strncmp(name, "$libdir", 7) == 0 && (name[7] == '/' || name[7] == '\0'))
			snprintf(path, sizeof(path), "%s%s", pkglib_path, name + 7);
		else if (first_dir_separator(name) == NULL)
			snprintf(path, sizeof(path), "%s/%s", pkglib_path, name);
		else
			strlcpy(path, name, sizeof(path));
		canonicalize_path(path);
		if (strcmp(path, psprintf("%s/uid", pkglib_path)) == 0 ||
			strcmp(path, psprintf("%s/uid%s", pkglib_path, DLSUFFIX)) == 0)
			found = true;
	}
	list_free_deep(names);
	pfree(raw);
	return found;
}

/*
 * Does every session of this server load uid before its first query?
 * Until a session loads the library, uid.coordinator there is core's
 * placeholder, which SHOW, current_setting() and pg_settings show to any
 * role: GUC_SUPERUSER_ONLY comes with the library.  uid in
 * shared_preload_libraries (loaded by the postmaster) or in the server's
 * session_preload_libraries (its reset value: a SET in this session does
 * not count) makes every session load it.
 */
bool
uid_preloaded(void)
{
	/* read past GUC_SUPERUSER_ONLY: any role's generation asks */
	struct config_generic *g = uid_find_setting("session_preload_libraries");

	return uid_list_names_uid(shared_preload_libraries_string) ||
		(g != NULL && g->vartype == PGC_STRING &&
		 uid_list_names_uid(uid_setting_reset_string(g)));
}

/* Errors, saying what to do, unless every session loads uid. */
void
uid_preload_check(void)
{
	if (uid_preloaded())
		return;
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("this server names a coordinator but does not load uid in every session"),
			 errdetail("uid is in neither \"session_preload_libraries\" nor \"shared_preload_libraries\"; a session that has not loaded it shows \"uid.coordinator\" to every role."),
			 errhint("Add uid to \"session_preload_libraries\": ALTER SYSTEM SET session_preload_libraries = 'uid'; SELECT pg_reload_conf();")));
}
