/*
 * core_fake.c
 *		The functions test/sim/sim_platform.h asks of its program, for the
 *		unit tests of the core's rules (see core_fake.h).
 */
#include "core_fake.h"

#define FAKE_MAX_PIDS 16

int64		fake_mono;
int64		fake_unix;
bool		fake_signal_pending;
unsigned long fake_steps;
void		(*fake_hook) (void);
jmp_buf		fake_escape;

static uint32 alive[FAKE_MAX_PIDS];
static int	nalive;
static bool in_hook;

void
fake_reset(void)
{
	fake_mono = 1000000;
	fake_unix = INT64CONST(1700000000000000);
	fake_signal_pending = false;
	fake_steps = 0;
	fake_hook = NULL;
	nalive = 0;
	in_hook = false;
}

void
fake_alive_set(uint32 pid, bool is)
{
	for (int i = 0; i < nalive; i++)
		if (alive[i] == pid)
		{
			if (!is)
				alive[i] = alive[--nalive];
			return;
		}
	if (is && nalive < FAKE_MAX_PIDS)
		alive[nalive++] = pid;
}

void
sim_step(void)
{
	if (++fake_steps > FAKE_STEP_LIMIT)
	{
		fake_steps = 0;
		in_hook = false;
		longjmp(fake_escape, 1);
	}
	if (fake_hook != NULL && !in_hook)
	{
		in_hook = true;
		fake_hook();
		in_hook = false;
	}
}

int64
sim_unix_us(void)
{
	sim_step();
	return fake_unix;
}

int64
sim_mono_us(void)
{
	sim_step();
	return fake_mono;
}

bool
sim_sleep_us(int64 us)
{
	sim_step();
	fake_mono += us;
	fake_unix += us;
	return true;
}

bool
sim_alive(uint32 pid)
{
	for (int i = 0; i < nalive; i++)
		if (alive[i] == pid)
			return true;
	return false;
}

bool
sim_reload_signalled(void)
{
	return fake_signal_pending;
}
