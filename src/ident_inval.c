/*
 * ident_inval.c
 *		The count of identity invalidations (ident_inval.h says what counts).
 */
#include "postgres.h"

#include "ident_inval.h"

UID_HIDDEN uint64 uid_ident_invals = 0;
