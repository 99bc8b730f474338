/*
 * settings_test.c
 *		Every uid.* setting's C variable starts at its row's boot value.
 *
 * Each default is written twice in src/guc.c: as the variable's
 * initializer and as the boot value of its row in uid_settings.
 * PostgreSQL's check_GUC_init compares the two for core's settings, in
 * servers built with assertions only, which a packaged server is not; so
 * make unitcheck runs uid's comparison (uid_settings_boot_mismatch()) here,
 * with no server.  And the two variables the string settings' assign hooks
 * derive: uid.medallion's (empty: -1, drawn at the start) and
 * uid.snowflake_si_epoch's, read by uid-inspect's parser, which reads a
 * base clock as the setting does.
 *
 * Linked with src/guc.o (built for the server) and its server symbols left
 * unresolved: it reads the table and the variables and calls nothing of
 * guc.o's that calls into the server.
 */
#include "postgres.h"

#include <stdio.h>
#include <stdlib.h>

#include "guc.h"
#include "inspect/inspect.h"

/* port.h makes printf pg_printf (libpgport), which this test does not link. */
#undef printf

int
main(void)
{
	const char *mismatch = uid_settings_boot_mismatch();
	const char *medallion = uid_settings[UID_SET_MEDALLION].boot_str;
	const char *epoch = uid_settings[UID_SET_EPOCH].boot_str;
	int64_t		epoch_ms;
	char		why[200];
	int			failed = 0;

	if (mismatch != NULL)
	{
		printf("settings: the C variable of \"%s\" does not start at its boot value\n", mismatch);
		failed++;
	}
	/* what check_medallion() makes of it: empty is -1, else hexadecimal */
	if (uid_medallion_value != (medallion[0] == '\0' ? -1 : strtoll(medallion, NULL, 16)))
	{
		printf("settings: uid_medallion_value starts at %lld, not at what \"%s\" gives\n",
			   (long long) uid_medallion_value, medallion);
		failed++;
	}
	if (!uid_inspect_parse_epoch(epoch, &epoch_ms, why, sizeof(why)))
	{
		printf("settings: the boot value \"%s\" of uid.snowflake_si_epoch: %s\n", epoch, why);
		failed++;
	}
	else if (uid_snowflake_si_epoch_ms != epoch_ms)
	{
		printf("settings: uid_snowflake_si_epoch_ms starts at %lld, not at %lld (\"%s\")\n",
			   (long long) uid_snowflake_si_epoch_ms, (long long) epoch_ms, epoch);
		failed++;
	}
	printf("settings: %d settings, %d failed\n", UID_NSETTINGS, failed);
	return failed != 0;
}
