/*
 * primitives.c
 *		Cost of the operations every generated ID pays for, measured in
 *		isolation: reading the wall clock (precise and coarse) and a
 *		compare-and-swap on a word of a MAP_SHARED file mapping, as the
 *		generator core does.  bench.sh runs it so that the report shows the
 *		floor under sno_new()'s marginal cost.
 *
 *		usage: primitives SCRATCH_FILE
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define N 20000000L

static double
seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static double
clock_cost(clockid_t id)
{
	struct timespec ts;
	double		t0 = seconds();

	for (long i = 0; i < N; i++)
		clock_gettime(id, &ts);
	return (seconds() - t0) * 1e9 / N;
}

int
main(int argc, char **argv)
{
	int			fd;
	uint64_t   *word;
	double		t0;
	double		cas_ns;

	if (argc != 2)
	{
		fprintf(stderr, "usage: %s SCRATCH_FILE\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || posix_fallocate(fd, 0, 4096) != 0)
	{
		perror(argv[1]);
		return 1;
	}
	word = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (word == MAP_FAILED)
	{
		perror("mmap");
		return 1;
	}
	t0 = seconds();
	for (long i = 0; i < N; i++)
	{
		uint64_t	old = __atomic_load_n(&word[8], __ATOMIC_RELAXED);

		__atomic_compare_exchange_n(&word[8], &old, old + 1, 0,
									__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	}
	cas_ns = (seconds() - t0) * 1e9 / N;
	printf("| clock_gettime(CLOCK_REALTIME) | %.1f |\n", clock_cost(CLOCK_REALTIME));
	printf("| clock_gettime(CLOCK_REALTIME_COARSE) | %.1f |\n", clock_cost(CLOCK_REALTIME_COARSE));
	printf("| compare-and-swap on a MAP_SHARED file page | %.1f |\n", cas_ns);
	munmap(word, 4096);
	close(fd);
	unlink(argv[1]);
	return 0;
}
