/*
 * state.c
 *		The state file: the generator core's shared words, in a file of the
 *		data directory that every backend maps MAP_SHARED.
 *
 * Why a file and not shared memory: a file mapped MAP_SHARED by every
 * backend works right after CREATE EXTENSION, with no
 * shared_preload_libraries and no restart; all backends see one state; and
 * the high-water marks outlive the server, so a clock that is behind after
 * a restart or crash cannot re-issue old IDs.
 */
#include "postgres.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file_perm.h"
#include "miscadmin.h"
#include "storage/fd.h"
#include "utils/timestamp.h"

#include "state.h"
#include "core/backfill.h"

#define UID_STATE_FILE		"uid_generator.state"
#define UID_STATE_MAGIC		0x75696447	/* "uidG" */
#define UID_STATE_VERSION	3
#define UID_STATE_SIZE		4096

StaticAssertDecl(sizeof(UidStateFile) <= UID_STATE_SIZE,
				 "uid state must fit in its file");
StaticAssertDecl(offsetof(UidStateFile, lease) == 16 &&
				 offsetof(UidStateFile, slots) == 64,
				 "the lease words follow the secret; the slots start on a cache line");
StaticAssertDecl(offsetof(UidStateFile, rec) == 1584 &&
				 offsetof(UidStateFile, rec.writer) == 1592 &&
				 offsetof(UidStateFile, rec.requested) == 1600 &&
				 offsetof(UidStateFile, rec.body) == 1616 && sizeof(UidRecordBody) == 136,
				 "the settings record's place in the file (TAP 036 writes its words)");

UidStateFile *uid_state = NULL;
UidCursor	uid_cursors[UID_NSLOTS];

/*
 * Makes the state file under a private name, fully initialized and with its
 * blocks allocated, then publishes it with link(), which fails if another
 * backend published first: nobody ever maps a half-made file.  Its mode is
 * the data directory's (0600, or 0640 with group access), as for core's
 * files; a transient file is closed by the error cleanup if anything fails.
 */
static void
uid_state_create(const char *path)
{
	char		tmp[MAXPGPATH];
	UidStateFile *init;
	int			fd;
	int			rc;

	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, MyProcPid);
	(void) unlink(tmp);			/* left over by a dead backend with our pid */
	fd = OpenTransientFilePerm(tmp, O_RDWR | O_CREAT | O_EXCL | PG_BINARY,
							   pg_file_create_mode);
	if (fd < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not create file \"%s\": %m", tmp)));

	/* allocate the blocks now: a later store can then never hit a full disk */
	rc = posix_fallocate(fd, 0, UID_STATE_SIZE);
	if (rc == 0)
	{
		init = palloc0(UID_STATE_SIZE);
		init->magic = UID_STATE_MAGIC;
		init->version = UID_STATE_VERSION;
		/*
		 * A new file records every sequence sno_new() issues from its first
		 * use; what live IDs the server made before it (a file removed and
		 * made anew) is unknown up to the fence then (sno.c, sno_used_read).
		 */
		pg_atomic_init_u64(&init->sno_cfg.live_used, 0);
		pg_atomic_init_u64(&init->sno_cfg.live_used_since, UID_USED_SINCE_FENCE);
		for (int i = 0; i < UID_FROM_WORDS; i++)
			pg_atomic_init_u64(&init->live_from[i], UID_FROM_NONE);
		if (!pg_strong_random(&init->secret, sizeof(init->secret)))
		{
			CloseTransientFile(fd);
			unlink(tmp);
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not generate random bytes for the uid state file")));
		}
		errno = 0;
		if (pwrite(fd, init, UID_STATE_SIZE, 0) != UID_STATE_SIZE)
			rc = errno ? errno : ENOSPC;
		else if (pg_fsync(fd) != 0)
			rc = errno;
		pfree(init);
	}
	CloseTransientFile(fd);
	if (rc != 0)
	{
		unlink(tmp);
		errno = rc;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not initialize file \"%s\": %m", tmp)));
	}

	if (link(tmp, path) != 0 && errno != EEXIST)
	{
		int			save_errno = errno;

		unlink(tmp);
		errno = save_errno;
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not link file \"%s\" to \"%s\": %m", tmp, path)));
	}
	unlink(tmp);
	fsync_fname(DataDir, true);
}

/* The path of the state file. */
static const char *
uid_state_path(void)
{
	static char path[MAXPGPATH];

	if (path[0] == '\0')
		snprintf(path, sizeof(path), "%s/%s", DataDir, UID_STATE_FILE);
	return path;
}

/* The device and inode of the file this backend mapped. */
static dev_t mapped_dev;
static ino_t mapped_ino;

void
uid_state_attach(void)
{
	const char *path = uid_state_path();
	struct stat st;
	void	   *p;
	int			fd;
	UidStateFile *file;

	while ((fd = OpenTransientFile(path, O_RDWR | PG_BINARY)) < 0)
	{
		if (errno != ENOENT)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", path)));
		uid_state_create(path);
	}

	if (fstat(fd, &st) != 0 || st.st_size < UID_STATE_SIZE)
	{
		CloseTransientFile(fd);
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("uid state file \"%s\" is truncated", path),
				 errhint("Stop the server, remove the file and start it again; "
						 "the first IDs after that are fenced past the lease in WAL.")));
	}

	p = mmap(NULL, UID_STATE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	CloseTransientFile(fd);
	if (p == MAP_FAILED)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not map file \"%s\": %m", path)));

	file = (UidStateFile *) p;
	if (file->magic != UID_STATE_MAGIC ||
		file->version < 1 || file->version > UID_STATE_VERSION)
	{
		munmap(p, UID_STATE_SIZE);
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("uid state file \"%s\" has an unknown format", path)));
	}

	/*
	 * Take an older file over in place.  Version 1: its header words after
	 * the secret are zero, a valid header with no lease yet, and its slots
	 * are unfenced, so that they are fenced before their next ID.  Version
	 * 2 (uid 0.3.0 to 0.5.0, or this library's file after a library of
	 * those ran on it, which a file of version 3 refuses): whatever record
	 * of the live sno sequences it holds may miss what an older library
	 * issued, so it starts again, its history unknown up to the marks
	 * (sno.c, sno_used_read).  Two backends taking it over at once both
	 * clear it; the second may clear a sequence the first recorded, which
	 * the marks then cover.
	 */
	if (file->version < UID_STATE_VERSION)
	{
		if (file->version == 2)
			pg_atomic_write_u64(&file->sno_cfg.live_used, 0);
		pg_memory_barrier();
		file->version = UID_STATE_VERSION;
	}
	mapped_dev = st.st_dev;
	mapped_ino = st.st_ino;
	for (int i = 0; i < UID_NSLOTS; i++)
		uid_cursors[i].seq_origin = uid_seq_origin(file->secret, i);
	uid_state = file;
}

uint64
uid_state_file_id(void)
{
	return (uint64) mapped_dev * UINT64CONST(0x9E3779B97F4A7C15) ^ (uint64) mapped_ino;
}

void
uid_state_check_same(void)
{
	struct stat st;

	if (stat(uid_state_path(), &st) != 0 ||
		st.st_dev != mapped_dev || st.st_ino != mapped_ino)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("the uid state file \"%s\" was removed or replaced while the server was running",
						uid_state_path()),
				 errdetail("This session keeps the state it mapped before; generating from it beside the new file could repeat IDs."),
				 errhint("Restart the server: the first IDs after that are fenced past the lease in WAL.")));
}

void
uid_state_sync(void)
{
	if (msync(uid_state, UID_STATE_SIZE, MS_SYNC) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not sync file \"%s\": %m", uid_state_path())));
}

uint64
uid_boot_value(uint64 purpose)
{
	if (uid_state == NULL)
		uid_state_attach();
	return uid_mix64(uid_state->secret ^
					 uid_mix64((uint64) PgStartTime ^ uid_mix64(purpose + 1)));
}
