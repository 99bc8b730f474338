/*
 * conninfo.h
 *		What makes a coordinator's connection string unusable (conninfo.c).
 */
#ifndef UID_CONNINFO_H
#define UID_CONNINFO_H

/* A problem's length with its terminator, the longest it is written. */
#define UID_CONNINFO_PROBLEM_LEN 256

/*
 * Writes into problem (len bytes) why a non-empty connection string value
 * cannot be used, as a phrase ("it holds a password (keyword
 * \"password\")"), or an empty string if it can.  Returns whether the
 * problem is a secret in the value.  The phrase quotes no part of the
 * value but libpq's keywords.
 */
extern bool uid_conninfo_problem(const char *value, char *problem, size_t len);

#endif							/* UID_CONNINFO_H */
