/*
 * conninfo.c
 *		What the coordinator's connection string (uid.coordinator) holds
 *		that makes it unusable: a value libpq cannot parse, with libpq's
 *		reason redacted, or a secret.
 *
 * The settings' check hook of uid.coordinator (guc.c) calls
 * uid_conninfo_problem(), and hands the verdict to the assign hook, which
 * logs it; nothing here reads a setting, so that guc.c can call down into
 * it.  A secret in the value is a problem because core shows the value in
 * more places than SHOW (see guc.c's comment on uid.coordinator), and a
 * problem never quotes a piece of the value that may be part of one.
 */
#include "postgres.h"

#include "lib/stringinfo.h"

#include "libpq-fe.h"

#include "conninfo.h"

/* Is word one of libpq's connection keywords? */
static bool
uid_conninfo_keyword(const char *word, size_t len)
{
	PQconninfoOption *defs = PQconndefaults();
	bool		found = false;

	if (defs == NULL)
		return false;
	for (PQconninfoOption *o = defs; o->keyword != NULL; o++)
		if (strlen(o->keyword) == len && strncmp(o->keyword, word, len) == 0)
			found = true;
	PQconninfoFree(defs);
	return found;
}

/*
 * libpq's reason for refusing a connection string, into out, with every
 * quoted part that is not a keyword or a delimiter ("=", "]") replaced by
 * "...": libpq quotes the pieces it stumbled on ('missing "=" after "..."',
 * 'invalid URI query parameter: "..."', the whole URI in some), and such a
 * piece may be part of a password.
 */
static void
uid_redact_conninfo_error(const char *msg, char *out, size_t outlen)
{
	StringInfoData buf;
	const char *p = msg;

	initStringInfo(&buf);
	while (*p != '\0')
	{
		const char *close;

		if (*p != '"' || (close = strchr(p + 1, '"')) == NULL)
		{
			appendStringInfoChar(&buf, *p++);
			continue;
		}
		if ((close - p - 1 == 1 && strchr("=[]:@/?&", p[1]) != NULL) ||
			uid_conninfo_keyword(p + 1, close - p - 1))
			appendBinaryStringInfo(&buf, p, close - p + 1);
		else
			appendStringInfoString(&buf, "\"...\"");
		p = close + 1;
	}
	while (buf.len > 0 && (buf.data[buf.len - 1] == '\n' || buf.data[buf.len - 1] == ' '))
		buf.data[--buf.len] = '\0';
	strlcpy(out, buf.data, outlen);
	pfree(buf.data);
}

/*
 * The keywords of a connection string that hold a secret.  libpq takes
 * the keywords of its own version: oauth_client_secret (libpq 18) does not
 * parse with an older one, which refuses the value anyway.  Whether the
 * secret is a password is a flag, so that each problem is written whole.
 */
static const struct
{
	const char *keyword;
	bool		password;
}			uid_secret_keywords[] = {
	{"password", true},
	{"sslpassword", true},
	{"oauth_client_secret", false},
};

bool
uid_conninfo_problem(const char *value, char *problem, size_t len)
{
	PQconninfoOption *opts;
	char	   *err = NULL;
	bool		secret = false;

	problem[0] = '\0';
	opts = PQconninfoParse(value, &err);
	if (opts == NULL)
	{
		char		why[UID_CONNINFO_PROBLEM_LEN];

		uid_redact_conninfo_error(err ? err : "out of memory", why, sizeof(why));
		snprintf(problem, len, "it is not a libpq connection string: %s", why);
		if (err)
			PQfreemem(err);
		return false;
	}
	for (PQconninfoOption *o = opts; o->keyword != NULL && !secret; o++)
	{
		if (o->val == NULL || o->val[0] == '\0')
			continue;
		for (size_t i = 0; i < lengthof(uid_secret_keywords) && !secret; i++)
			if (strcmp(o->keyword, uid_secret_keywords[i].keyword) == 0)
			{
				if (uid_secret_keywords[i].password)
					snprintf(problem, len, "it holds a password (keyword \"%s\")", o->keyword);
				else
					snprintf(problem, len, "it holds a client secret (keyword \"%s\")", o->keyword);
				secret = true;
			}
	}
	PQconninfoFree(opts);
	return secret;
}
