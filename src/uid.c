/*
 * uid.c
 *		Module entry point of the uid extension.
 */
#include "postgres.h"

#include "access/xact.h"
#include "fmgr.h"

#include "generate.h"
#include "compat.h"
#include "guc.h"
#include "muid.h"
#include "reload.h"

UID_MODULE_MAGIC;

void		_PG_init(void);

static void
uid_xact_callback(XactEvent event, void *arg)
{
	switch (event)
	{
		case XACT_EVENT_COMMIT:
		case XACT_EVENT_PARALLEL_COMMIT:
		case XACT_EVENT_ABORT:
		case XACT_EVENT_PARALLEL_ABORT:
		case XACT_EVENT_PREPARE:
			muid_xact_end();
			uid_flush_counts();
			break;
		default:
			break;
	}
}

void
_PG_init(void)
{
	uid_guc_init();
	uid_reload_init();
	RegisterXactCallback(uid_xact_callback, NULL);
}
