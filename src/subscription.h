/*
 * subscription.h
 *		Whether this database takes rows from another server by logical
 *		replication (subscription.c): a default identity is refused there
 *		(core/source.h says the order).
 */
#ifndef UID_SUBSCRIPTION_H
#define UID_SUBSCRIPTION_H

#include "compat.h"

/*
 * Has this database a subscription (enabled or not)?  Reads the catalog
 * only when an invalidation of pg_subscription may have changed it.  In a
 * transaction; false outside one (nothing generates there).
 */
extern bool uid_db_subscribed(void);

/*
 * The name of this database's first subscription (by name), for messages;
 * NULL if it has none.  Reads the catalog.  In a transaction.
 */
extern char *uid_db_subscription_name(void);

#endif							/* UID_SUBSCRIPTION_H */
