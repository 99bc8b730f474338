/*
 * sno_overflow.c
 *		sno's overflow channel: sno_on_wait(), the hook of sno's clock
 *		(sno.c) that NOTIFYs uid.sno_overflow_channel when a 4 ms unit's
 *		sequences are used up.  Called by the generator (generate.c) through
 *		the clock.
 */
#include "postgres.h"

#include "access/parallel.h"
#include "commands/async.h"
#include "fmgr.h"
#include "pgtime.h"
#include "utils/builtins.h"

#include "guc.h"
#include "sno_overflow.h"

/*
 * Overflow notifications (the seed's SequenceOverflowNotification): when
 * uid.sno_overflow_channel names a channel, the first call that waits for
 * the clock to pass a tick whose sequence range is used up NOTIFYs it, at
 * most once per tick per server (type[3] decides which call).  A wait for
 * the next tick after a call's fair share of one (the tick not used up) is
 * no overflow: others still take IDs in it.  The payload is JSON: the
 * tick's time, count (the calls that waited for a next tick, of either kind,
 * since the notification before, this one included; 1 for an overflow's
 * first), and ticks (for how many ticks in a row one was sent).
 *
 * NOTIFY is transactional: the notification is delivered to the listeners
 * of the database the call ran in when its transaction commits, and lost if
 * that (or the subtransaction) rolls back; a parallel worker cannot NOTIFY,
 * so its waits are only counted in the next notification; a transaction
 * that notified cannot be PREPAREd (core's rule).  None is queued while the
 * server's notification queue is half full: a queue that filled up would
 * make the waiting calls' transactions fail to commit.
 */
void
sno_on_wait(const UidClockSpec *spec, UidSlot *slot, uint64 tick, bool used_up)
{
	const char *channel = uid_sno_overflow_channel;
	pg_atomic_uint64 *word = &slot->tt.type[SNO_OVERFLOW];
	uint64		old;
	uint64		run;
	uint64		waits;
	uint64		before;
	uint64		count;
	uint64		ms;
	pg_time_t	secs;
	struct pg_tm *tm;
	char		payload[160];

	if (likely(channel == NULL || *channel == '\0') || !used_up || IsParallelWorker())
		return;

	old = pg_atomic_read_u64(word);
	do
	{
		uint64		last = old >> SNO_OVF_RUN_BITS;

		if (old != 0 && last >= tick)
			return;				/* notified for this tick already */
		run = old != 0 && last + 1 == tick ?
			Min((old & SNO_OVF_RUN_MAX) + 1, SNO_OVF_RUN_MAX) : 1;
	} while (!pg_atomic_compare_exchange_u64(word, &old, tick << SNO_OVF_RUN_BITS | run));

	waits = pg_atomic_read_u64(&slot->overflow_waits);
	before = pg_atomic_read_u64(&slot->spare[0]);
	uid_raise_u64(&slot->spare[0], waits);
	count = run > 1 && waits > before ? waits - before : 1;

	{
		LOCAL_FCINFO(fcinfo, 0);

		InitFunctionCallInfoData(*fcinfo, NULL, 0, InvalidOid, NULL, NULL);
		if (DatumGetFloat8(pg_notification_queue_usage(fcinfo)) >= 0.5)
			return;
	}

	ms = (uint64) SNO_EPOCH_UNIX_MS + tick * SNO_UNIT_MS;
	secs = (pg_time_t) (ms / 1000);
	tm = pg_gmtime(&secs);
	snprintf(payload, sizeof(payload),
			 "{\"time\": \"%04d-%02d-%02dT%02d:%02d:%02d.%03dZ\", \"count\": " UINT64_FORMAT ", \"ticks\": " UINT64_FORMAT "}",
			 tm->tm_year + 1900, tm->tm_mon + 1, tm->tm_mday,
			 tm->tm_hour, tm->tm_min, tm->tm_sec, (int) (ms % 1000),
			 count, run);
	Async_Notify(channel, payload);
}
