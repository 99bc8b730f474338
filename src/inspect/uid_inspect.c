/*
 * uid_inspect.c
 *		uid-inspect: decodes uid's IDs without a server, for people reading
 *		logs and for scripts (--json).  The work is done by the core
 *		(inspect.h: detect.c, format.c, options.c); this file reads the
 *		arguments and the lines, and writes the results.  Its usage lists
 *		the types from types.c's table, with each type's words from its
 *		own src/inspect/<name>_inspect.c, and names none itself.
 *
 * Exit status: 0 when every input is an ID of at least one type tried, 1
 * when one or more are not (each named on stderr with the reasons), 2 for
 * a usage error or a failed read or write.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inspect.h"
#include "type_ops.h"

#ifndef UID_VERSION
#define UID_VERSION "unknown"
#endif

static const char *progname = "uid-inspect";

/*
 * A paragraph of the usage, put together before it is broken into lines:
 * the lists of types in it come from the registry, so their length, and
 * where its lines break, are not known when this is written.
 */
typedef struct paragraph
{
	char		text[1024];
	size_t		len;
} paragraph;

/* The width the usage's other lines keep to. */
#define USAGE_WIDTH 76

static void
para_add(paragraph *p, const char *s)
{
	size_t		room = sizeof p->text - 1 - p->len;
	size_t		n = strlen(s);

	n = n < room ? n : room;
	memcpy(p->text + p->len, s, n);
	p->len += n;
	p->text[p->len] = '\0';
}

/* The names of the types in the mask, as uid_inspect_type_list() joins them. */
static void
para_types(paragraph *p, unsigned types, const char *sep, const char *last)
{
	char		names[256];

	uid_inspect_type_list(types, sep, last, names, sizeof names);
	para_add(p, names);
}

/*
 * Writes the paragraph broken at spaces into lines of at most USAGE_WIDTH
 * columns (a longer word stands alone); the spaces inside a line, such as
 * two after a full stop, are kept.
 */
static void
put_paragraph(FILE *f, const paragraph *p)
{
	const char *s = p->text;
	size_t		col = 0;

	while (*s)
	{
		size_t		gap = strspn(s, " ");
		size_t		word = strcspn(s + gap, " ");

		if (col > 0 && col + gap + word > USAGE_WIDTH)
		{
			fputc('\n', f);
			col = 0;
		}
		if (col == 0)
		{
			s += gap;
			gap = 0;
		}
		fwrite(s, 1, gap + word, f);
		col += gap + word;
		s += gap + word;
	}
	fputc('\n', f);
}

static void
usage(FILE *f)
{
	paragraph	p = {"", 0};
	unsigned	done = 0;

	fprintf(f, "Usage: %s [OPTION]... [ID]...\n", progname);
	para_add(&p, "Decodes IDs of the uid extension (");
	para_types(&p, UID_INSPECT_ALL_TYPES, ", ", ", ");
	para_add(&p, ") without a server: every type an ID can be, with its canonical text, "
			 "its fields (named as the SQL accessors) and its time in UTC.  With no ID "
			 "arguments, reads one ID per line from standard input (blank lines are "
			 "skipped).  White space around an ID is ignored.");
	put_paragraph(f, &p);

	fprintf(f, "\nAn ID is read as each type's text form:\n");
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
		fprintf(f, "  %-13s %-35s %s\n", uid_inspect_types[t].name,
				uid_inspect_types[t].brief, uid_inspect_types[t].example);

	/*
	 * The types by the length of their binary form, each length once, in
	 * the registry's order, and which lengths take uuid text (type_ops.h):
	 * "10 bytes are a sno, 16 a muid (uuid text too), 8 a snowflake_si,
	 * revts8 or uid60".
	 */
	p.len = 0;
	para_add(&p, "and as hex of a binary form (send/recv, the bytea casts): \\x... as "
			 "psql prints bytea, 0x..., or plain hex digits; ");
	for (int t = 0; t < UID_INSPECT_NTYPES; t++)
	{
		unsigned	same = 0;
		int			uuid = 0;
		char		num[16];

		if (done & (1u << t))
			continue;
		for (int u = t; u < UID_INSPECT_NTYPES; u++)
		{
			if (uid_inspect_types[u].nbytes != uid_inspect_types[t].nbytes)
				continue;
			same |= 1u << u;
			uuid |= uid_inspect_types[u].ops->takes_uuid;
		}
		snprintf(num, sizeof num, "%s%d", done ? ", " : "", uid_inspect_types[t].nbytes);
		para_add(&p, num);
		para_add(&p, done ? " a " : " bytes are a ");
		para_types(&p, same, ", ", " or ");
		if (uuid)
			para_add(&p, " (uuid text too)");
		done |= same;
	}
	para_add(&p, ".");
	put_paragraph(f, &p);

	fprintf(f,
			"\n"
			"Options:\n"
			"  --json             one JSON object per ID and line: {\"input\", \"matches\":\n"
			"                     [{\"type\", \"form\", \"text\", \"bytes\", \"timestamp\",\n"
			"                     \"unix_us\", fields...}], and \"error\" if none}\n"
			"  --type T[,T...]    try only these types (repeatable)\n"
			"  --epoch TIME       snowflake_si base clock (uid.snowflake_si_epoch): an\n"
			"                     ISO 8601 time (no zone is UTC) or Unix milliseconds;\n"
			"                     default 2024-01-01T00:00:00Z\n"
			"  --index-bits K     snowflake_si index width (uid.snowflake_si_index_bits),\n"
			"                     1..13; default 8\n"
			"  --help             show this help and exit\n"
			"  --version          show the version and exit\n"
			"  --                 the arguments after it are IDs (a uid60 can begin with -)\n"
			"\n"
			"Exit status: 0 if every ID was decoded as at least one type, 1 if any\n"
			"was not (the reasons go to standard error), 2 for a usage error.\n");
}

static void
usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "%s: ", progname);
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry \"%s --help\" for more information.\n", progname);
	exit(2);
}

/* The output buffer, grown to fit the longest result so far. */
static char *outbuf;
static size_t outsize;

static void
write_out(FILE *f, const char *s, size_t n)
{
	if (n > 0 && fwrite(s, 1, n, f) != n)
	{
		fprintf(stderr, "%s: could not write: %s\n", progname, strerror(errno));
		exit(2);
	}
}

/*
 * Formats with fn into outbuf, growing it until the whole text fits;
 * returns its length.
 */
static size_t
fill(size_t (*fn) (const uid_inspect_result *, const uid_inspect_options *,
				   const char *, char *, size_t),
	 const uid_inspect_result *r, const uid_inspect_options *o, const char *sep)
{
	for (;;)
	{
		size_t		n = fn(r, o, sep, outbuf, outsize);

		if (n < outsize)
			return n;
		free(outbuf);
		outsize = n + 1;
		outbuf = malloc(outsize);
		if (outbuf == NULL)
		{
			fprintf(stderr, "%s: out of memory\n", progname);
			exit(2);
		}
	}
}

/* uid_inspect_format() in fill()'s shape (it has no separator) */
static size_t
format_fn(const uid_inspect_result *r, const uid_inspect_options *o,
		  const char *sep, char *buf, size_t size)
{
	(void) sep;
	return uid_inspect_format(r, o, buf, size);
}

/* Decodes one input and writes its result; returns 0, or 1 if nothing matched. */
static int
inspect_one(const char *in, size_t len, const uid_inspect_options *o, int *count)
{
	uid_inspect_result r;
	size_t		n;

	uid_inspect_detect(in, len, o, &r);
	n = fill(format_fn, &r, o, NULL);
	if (r.nmatches > 0 && !o->json && (*count)++ > 0)
		write_out(stdout, "\n", 1);
	write_out(stdout, outbuf, n);
	if (r.nmatches > 0)
		return 0;
	fflush(stdout);
	n = fill(uid_inspect_explain, &r, o, "\n  ");
	fprintf(stderr, "%s: ", progname);
	write_out(stderr, outbuf, n);
	write_out(stderr, "\n", 1);
	return 1;
}

int
main(int argc, char **argv)
{
	uid_inspect_options o;
	unsigned	types = 0;
	char	  **ids;
	int			nids = 0;
	int			status = 0;
	int			count = 0;
	char		why[256];

	/* IDs and options in any order, as GNU tools take them, up to "--" */
	ids = malloc(sizeof(char *) * (size_t) argc);
	if (ids == NULL)
	{
		fprintf(stderr, "%s: out of memory\n", progname);
		return 2;
	}
	uid_inspect_default_options(&o);
	for (int i = 1; i < argc; i++)
	{
		const char *a = argv[i];
		const char *val = NULL;
		size_t		nlen;

		if (strcmp(a, "--") == 0)
		{
			while (++i < argc)
				ids[nids++] = argv[i];
			break;
		}
		if (a[0] != '-' || a[1] == '\0')
		{
			ids[nids++] = argv[i];
			continue;
		}
		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
		{
			usage(stdout);
			return 0;
		}
		if (strcmp(a, "--version") == 0)
		{
			printf("uid-inspect (uid) %s\n", UID_VERSION);
			return 0;
		}
		if (strcmp(a, "--json") == 0)
		{
			o.json = 1;
			continue;
		}

		/* the options with a value: --name VALUE or --name=VALUE */
		nlen = strcspn(a, "=");
		if (a[nlen] == '=')
			val = a + nlen + 1;
		if (!((nlen == 6 && strncmp(a, "--type", 6) == 0) ||
			  (nlen == 7 && strncmp(a, "--epoch", 7) == 0) ||
			  (nlen == 12 && strncmp(a, "--index-bits", 12) == 0)))
			usage_error("unknown option \"%s\" (an ID that begins with - goes after --)", a);
		if (val == NULL)
		{
			if (i + 1 >= argc)
				usage_error("option %s needs a value", a);
			val = argv[++i];
		}
		if (nlen == 6 && !uid_inspect_parse_types(val, &types, why, sizeof why))
			usage_error("--type: %s", why);
		if (nlen == 7 && !uid_inspect_parse_epoch(val, &o.epoch_ms, why, sizeof why))
			usage_error("--epoch: %s", why);
		if (nlen == 12 && !uid_inspect_parse_index_bits(val, &o.index_bits, why, sizeof why))
			usage_error("--index-bits: %s", why);
	}
	if (types != 0)
		o.types = types;

	if (nids > 0)
	{
		for (int i = 0; i < nids; i++)
			status |= inspect_one(ids[i], strlen(ids[i]), &o, &count);
	}
	else
	{
		char	   *line = NULL;
		size_t		cap = 0;
		ssize_t		n;

		while ((n = getline(&line, &cap, stdin)) >= 0)
		{
			size_t		k;

			/* blank lines are not inputs */
			for (k = 0; k < (size_t) n && line[k] != '\0' && strchr(" \t\n\r\v\f", line[k]); k++)
				;
			if (k == (size_t) n)
				continue;
			status |= inspect_one(line, (size_t) n, &o, &count);
			/* a pipeline (tail -f | uid-inspect) sees each result at once */
			if (fflush(stdout) != 0)
			{
				fprintf(stderr, "%s: could not write: %s\n", progname, strerror(errno));
				return 2;
			}
		}
		if (ferror(stdin))
		{
			fprintf(stderr, "%s: could not read standard input: %s\n", progname, strerror(errno));
			return 2;
		}
		free(line);
	}
	free(ids);
	if (fflush(stdout) != 0 || ferror(stdout))
	{
		fprintf(stderr, "%s: could not write: %s\n", progname, strerror(errno));
		return 2;
	}
	return status;
}
