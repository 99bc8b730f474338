/*
 * state.c
 *		The generator core's shared words: live in a shared memory object
 *		of the postmaster's life that every backend maps (where PostgreSQL
 *		keeps its own dynamic shared memory: a POSIX object, or a file of
 *		pg_dynshmem), kept on disk in the data directory's state file.
 *
 * Why not the main shared memory: an object that the first backend makes
 * works right after CREATE EXTENSION, with no shared_preload_libraries and
 * no restart, and all backends see one state.  Why not map the data
 * directory's file, as uid did up to 0.6.0: any tool can write that file
 * in place, and a backend that touched a mapped page past a truncated end
 * died of SIGBUS (a crash-restart of the server), while an older copy
 * written over it made the running server repeat IDs.  Now the file is
 * read once per postmaster life and otherwise only written: a write to it
 * while the server runs changes nothing the server uses, and what the
 * next start reads is a state the file held, which the fence past the
 * lease in WAL makes safe however old it is (lease.c).
 */
#include "postgres.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file_perm.h"
#include "miscadmin.h"
#include "storage/dsm_impl.h"
#include "storage/fd.h"
#include "storage/ipc.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "state.h"
#include "core/backfill.h"
#include "reload.h"

#define UID_STATE_FILE		"uid_generator.state"
#define UID_STATE_MAGIC		0x75696447	/* "uidG" */
#define UID_STATE_VERSION	4
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
 * Puts image (the state's 4096 bytes) at path by way of a private temporary
 * file, its blocks allocated (a later write in place can then never need a
 * block), written and fsynced, then published: with link(), which fails if
 * another backend published first (that file stays), or renamed over what
 * is there (replace); the directory is fsynced.  Nobody ever reads a
 * half-made file.  Its mode is the data directory's (0600, or 0640 with
 * group access), as for core's files; a transient file is closed by the
 * error cleanup if anything fails.
 */
static uint64
uid_file_identity(const struct stat *st)
{
	return (uint64) st->st_dev * UINT64CONST(0x9E3779B97F4A7C15) ^ (uint64) st->st_ino;
}

static void
uid_state_put(const char *path, UidStateFile *image, bool replace)
{
	char		tmp[MAXPGPATH];
	struct stat st;
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
	rc = posix_fallocate(fd, 0, UID_STATE_SIZE);
	if (rc == 0 && image->file_id != 0)
	{
		/* the key part it carries is valid for this new file only */
		if (fstat(fd, &st) == 0)
			image->file_inode = uid_file_identity(&st);
		else
			rc = errno;
	}
	if (rc == 0)
	{
		errno = 0;
		if (pg_pwrite(fd, image, UID_STATE_SIZE, 0) != UID_STATE_SIZE)
			rc = errno ? errno : ENOSPC;
		else if (pg_fsync(fd) != 0)
			rc = errno;
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

	if (replace ? rename(tmp, path) != 0 : (link(tmp, path) != 0 && errno != EEXIST))
	{
		int			save_errno = errno;

		unlink(tmp);
		errno = save_errno;
		if (replace)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not rename file \"%s\" to \"%s\": %m", tmp, path)));
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not link file \"%s\" to \"%s\": %m", tmp, path)));
	}
	if (!replace)
		unlink(tmp);
	fsync_fname(DataDir, true);
}

/* Makes the state file of a server that has none. */
static void
uid_state_create(const char *path)
{
	UidStateFile *init = palloc0(UID_STATE_SIZE);

	init->magic = UID_STATE_MAGIC;
	init->version = UID_STATE_VERSION;

	/*
	 * A new file records every sequence sno_new() issues from its first use;
	 * what live IDs the server made before it (a file removed and made anew)
	 * is unknown up to the fence then (sno.c, sno_used_read).
	 */
	pg_atomic_init_u64(&init->sno_cfg.live_used, 0);
	pg_atomic_init_u64(&init->sno_cfg.live_used_since, UID_USED_SINCE_FENCE);
	for (int i = 0; i < UID_FROM_WORDS; i++)
		pg_atomic_init_u64(&init->live_from[i], UID_FROM_NONE);
	pg_atomic_init_u64(&init->backfill_kept, UID_KEPT_NONE);
	if (!pg_strong_random(&init->secret, sizeof(init->secret)))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate random bytes for the uid state file")));
	uid_state_put(path, init, false);
	pfree(init);
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

/*
 * The live state: a shared memory object of this postmaster's life that
 * every backend maps.  Its first UID_STATE_SIZE bytes are the state
 * (UidStateFile); after them, UidStateLive.  The data directory's file is
 * read once per postmaster life, by the backend that builds the object, and
 * after that only written (uid_state_write): no tool that writes the file
 * can change, truncate or tear the words backends generate from.
 */

/*
 * Whose object it is: written by the first backend that opens it, before
 * anything else, and checked by every backend that maps it
 * (uid_live_claim).  Its name is a hash of these (uid_live_entry).
 */
typedef struct UidLiveOwner
{
	uint64		system_id;		/* GetSystemIdentifier() */
	uint64		dir_dev;		/* the data directory's device */
	uint64		dir_ino;		/* and inode */
	int64		pm_pid;			/* the postmaster's pid */
	int64		pm_start;		/* its PgStartTime */
} UidLiveOwner;

typedef struct UidStateLive
{
	pg_atomic_uint64 ready;		/* UID_LIVE_READY once built */
	uint64		live_id;		/* random, drawn when built; never 0 */
	uint64		file_id;		/* the file's device and inode then, mixed */
	pg_atomic_uint64 signalled; /* the latest reload signal a process noted
								 * (monotonic us; reload.c) */
	UidLiveOwner owner;			/* zeros until the first backend writes it */
} UidStateLive;

#define UID_LIVE_READY		UINT64CONST(0x7569644c69766521)	/* "uidLive!" */
#define UID_LIVE_SIZE		(2 * UID_STATE_SIZE)
#define UID_LIVE_SHM_DIR	"/dev/shm"
#define UID_LIVE_HASH_MASK	UINT64CONST(0xffffffffffff)	/* 12 hex digits */

StaticAssertDecl(sizeof(UidStateLive) <= UID_LIVE_SIZE - UID_STATE_SIZE,
				 "the live header fits after the state");
StaticAssertDecl(offsetof(UidStateLive, owner) == 32 && sizeof(UidLiveOwner) == 40,
				 "the owner's place in the object (test/t/UidTest/State.pm's live_owner and TAP 048 read it)");

static UidStateLive *uid_live = NULL;
static int	uid_live_fd = -1;	/* open while mapped; its lock: one builder */
static dev_t live_dev;
static ino_t live_ino;

/*
 * Where the live state lives follows PostgreSQL's own dynamic shared
 * memory.  With dynamic_shared_memory_type = posix, a POSIX shared memory
 * object.  Otherwise (mmap, sysv) a file mapped MAP_SHARED in the data
 * directory's pg_dynshmem, the directory of PostgreSQL's own mmap segments
 * (for sysv too: a System V segment has no name by which the next start
 * could find an earlier life's).  PostgreSQL's start removes only the files
 * there whose names begin with "mmap." (dsm.c, dsm_cleanup_for_mmap), so it
 * leaves uid's alone, and pg_basebackup and pg_rewind copy none of the
 * directory's files (excludeDirContents in basebackup.c and in pg_rewind's
 * filemap.c): no copy of a data directory carries a live state.
 *
 * The setting is read at server start only, so every backend of one server
 * life maps the same object.  Where it fails, that is an error, never a
 * reason to try the other place: a backend that did would generate from a
 * second state beside the others', and repeat their IDs.
 */
static bool
uid_live_posix(void)
{
	return dynamic_shared_memory_type == DSM_IMPL_POSIX;
}

/* The directory that lists a place's objects (uid_live_remove_stale). */
static const char *
uid_live_dir(bool posix)
{
	static char dir[MAXPGPATH];

	if (posix)
		return UID_LIVE_SHM_DIR;
	if (dir[0] == '\0')
		snprintf(dir, sizeof(dir), "%s/%s", DataDir, PG_DYNSHMEM_DIR);
	return dir;
}

/* The name, in a place, of the object whose directory entry is entry. */
static void
uid_live_path(bool posix, const char *entry, char *buf, size_t size)
{
	if (posix)
		snprintf(buf, size, "/%s", entry);
	else
		snprintf(buf, size, "%s/%s", uid_live_dir(false), entry);
}

static int
uid_live_open(bool posix, const char *name, int flags)
{
	if (posix)
		return shm_open(name, flags, S_IRUSR | S_IWUSR);
	return open(name, flags | PG_BINARY, pg_file_create_mode);
}

/* This server life's owner: the same in every process of it. */
static const UidLiveOwner *
uid_live_owner(void)
{
	static UidLiveOwner owner;
	static bool done = false;

	if (!done)
	{
		struct stat st;

		if (stat(DataDir, &st) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not stat directory \"%s\": %m", DataDir)));
		owner.system_id = GetSystemIdentifier();
		owner.dir_dev = (uint64) st.st_dev;
		owner.dir_ino = (uint64) st.st_ino;
		owner.pm_pid = PostmasterPid != 0 ? (int64) PostmasterPid : (int64) MyProcPid;
		owner.pm_start = (int64) PgStartTime;
		done = true;
	}
	return &owner;
}

/*
 * "uid.<data directory>.<life>", each 12 hex digits of a hash: of the
 * system identifier and the data directory's device and inode, and of the
 * postmaster's pid and start.  The same for every process of one postmaster
 * life (a crash-restart keeps it, and so keeps the marks), another for each
 * start, and for each data directory that exists at once, copies of one
 * system included.  The prefix up to the second dot (*prefix_len
 * characters) names the data directory's objects (uid_live_remove_stale).
 * With the leading slash of a POSIX name, 30 characters: macOS allows 31
 * (PSHMNAMLEN).  Hashes may collide; the owner in the object tells.
 */
static const char *
uid_live_entry(int *prefix_len)
{
	static char entry[32];
	static int	plen;

	if (entry[0] == '\0')
	{
		const UidLiveOwner *o = uid_live_owner();
		uint64		dir = uid_mix64(o->system_id ^
									uid_mix64(o->dir_dev * UINT64CONST(0x9E3779B97F4A7C15) ^
											  o->dir_ino));
		uint64		life = uid_mix64((uint64) o->pm_pid ^ uid_mix64((uint64) o->pm_start));

		plen = snprintf(entry, sizeof(entry), "uid.%012llx.",
						(unsigned long long) (dir & UID_LIVE_HASH_MASK));
		snprintf(entry + plen, sizeof(entry) - plen, "%012llx",
				 (unsigned long long) (life & UID_LIVE_HASH_MASK));
	}
	if (prefix_len)
		*prefix_len = plen;
	return entry;
}

/* The object's name in its place: a POSIX name, or the file's path. */
static const char *
uid_live_name(void)
{
	static char name[MAXPGPATH];

	if (name[0] == '\0')
		uid_live_path(uid_live_posix(), uid_live_entry(NULL), name, sizeof(name));
	return name;
}

/*
 * What an error about the object adds: where it is, and why there.  The
 * hint, for the errors that the place itself causes, says how to make it
 * usable or how to choose the other.
 */
static int
uid_live_errdetail(void)
{
	if (uid_live_posix())
		return errdetail("uid keeps its live state in a POSIX shared memory object because dynamic_shared_memory_type is \"posix\".");
	return errdetail("uid keeps its live state in a file of the data directory's %s directory because dynamic_shared_memory_type is \"%s\".",
					 PG_DYNSHMEM_DIR,
					 GetConfigOption("dynamic_shared_memory_type", false, false));
}

static int
uid_live_errhint(int err)
{
	if (err != EACCES && err != EPERM && err != ENOENT && err != EROFS)
		return 0;
	if (uid_live_posix())
		return errhint("Make /dev/shm a writable tmpfs, or set dynamic_shared_memory_type = mmap and restart the server.");
	return errhint("The data directory's %s directory must exist and be writable by the server's user, as initdb makes it.",
				   PG_DYNSHMEM_DIR);
}

/*
 * True if the object at name, in a place, is of an earlier life of this
 * data directory: its owner names the data directory and another
 * postmaster, or nothing (a builder that failed before it wrote one, or an
 * object never filled).  False if it cannot be read: it is another user's.
 */
static bool
uid_live_of_earlier_life(bool posix, const char *name)
{
	const UidLiveOwner *mine = uid_live_owner();
	UidLiveOwner theirs;
	struct stat st;
	void	   *p;
	int			fd = uid_live_open(posix, name, O_RDONLY);

	if (fd < 0)
		return false;
	memset(&theirs, 0, sizeof(theirs));
	if (fstat(fd, &st) == 0 && st.st_size >= UID_LIVE_SIZE &&
		(p = mmap(NULL, UID_LIVE_SIZE, PROT_READ, MAP_SHARED, fd, 0)) != MAP_FAILED)
	{
		theirs = ((UidStateLive *) ((char *) p + UID_STATE_SIZE))->owner;
		munmap(p, UID_LIVE_SIZE);
	}
	close(fd);
	if (theirs.system_id == 0 && theirs.pm_pid == 0)
		return true;
	return theirs.system_id == mine->system_id && theirs.dir_dev == mine->dir_dev &&
		theirs.dir_ino == mine->dir_ino &&
		(theirs.pm_pid != mine->pm_pid || theirs.pm_start != mine->pm_start);
}

/*
 * Removes the objects of earlier lives of this data directory in a place:
 * no process of an earlier life runs (PostgreSQL does not start while one
 * is attached to the old shared memory).  Their entries share the prefix of
 * this one's; the owner tells them from another data directory's whose
 * hash is the same.  Where POSIX objects are not files of /dev/shm, they
 * stay until the next boot; 8 kB each.
 */
static void
uid_live_remove_stale_in(bool posix)
{
	int			plen;
	const char *entry = uid_live_entry(&plen);
	DIR		   *dir = opendir(uid_live_dir(posix));
	struct dirent *de;

	if (dir == NULL)
		return;
	while ((de = readdir(dir)) != NULL)
	{
		char		old[MAXPGPATH];

		if (strncmp(de->d_name, entry, plen) != 0 ||
			(posix == uid_live_posix() && strcmp(de->d_name, entry) == 0))
			continue;
		uid_live_path(posix, de->d_name, old, sizeof(old));
		if (!uid_live_of_earlier_life(posix, old))
			continue;
		if ((posix ? shm_unlink(old) : unlink(old)) != 0 && errno != ENOENT)
			elog(LOG, "could not remove shared memory segment \"%s\": %m", old);
	}
	closedir(dir);
}

/*
 * In both places: an earlier life may have kept its state in the other
 * (dynamic_shared_memory_type changed between them).
 */
static void
uid_live_remove_stale(void)
{
	uid_live_remove_stale_in(true);
	uid_live_remove_stale_in(false);
}

/*
 * Makes the object mapped at live this server life's if nobody's yet, or
 * errors if it is another's: never generate from another server's state.
 * Under the object's lock.
 */
static void
uid_live_claim(UidStateLive *live)
{
	const UidLiveOwner *mine = uid_live_owner();

	if (live->owner.system_id == 0 && live->owner.pm_pid == 0)
		live->owner = *mine;
	else if (memcmp(&live->owner, mine, sizeof(*mine)) != 0)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_IN_USE),
				 errmsg("shared memory segment \"%s\" belongs to another server",
						uid_live_name()),
				 errdetail("It holds the uid state of postmaster %lld of database system %llu, and this server's postmaster is %lld of database system %llu.",
						   (long long) live->owner.pm_pid,
						   (unsigned long long) live->owner.system_id,
						   (long long) mine->pm_pid,
						   (unsigned long long) mine->system_id),
				 errhint("Its name is a hash, which the two servers share by chance.  Restart this server: a new start gives its object another name.")));
}

static void
uid_live_lock(int fd, int op)
{
	while (flock(fd, op) != 0)
	{
		if (errno != EINTR)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not lock shared memory segment \"%s\": %m",
							uid_live_name())));
	}
}

/*
 * Fills the object mapped at img from the data directory's file (made if
 * there is none), under the object's lock.  A file shorter than the state
 * or of another format is an error, before anything is published.
 */
static void
uid_live_build(UidStateFile *img, UidStateLive *live)
{
	const char *path = uid_state_path();
	UidStateFile *file;
	struct stat st;
	ssize_t		n;
	int			fd;

	uid_live_remove_stale();
	while ((fd = OpenTransientFile(path, O_RDONLY | PG_BINARY)) < 0)
	{
		if (errno != ENOENT)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", path)));
		uid_state_create(path);
	}
	/* no write lands while it is read (uid_state_write) */
	while (flock(fd, LOCK_EX) != 0)
	{
		if (errno != EINTR)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not lock file \"%s\": %m", path)));
	}
	file = palloc(UID_STATE_SIZE);
	if (fstat(fd, &st) != 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not stat file \"%s\": %m", path)));
	n = pg_pread(fd, file, UID_STATE_SIZE, 0);
	if (n < 0)
		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not read file \"%s\": %m", path)));
	if (n < UID_STATE_SIZE)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("uid state file \"%s\" is truncated", path),
				 errhint("Stop the server, remove the file and start it again; "
						 "the first IDs after that are fenced past the lease in WAL.")));
	if (file->magic != UID_STATE_MAGIC ||
		file->version < 1 || file->version > UID_STATE_VERSION)
		ereport(ERROR,
				(errcode(ERRCODE_DATA_CORRUPTED),
				 errmsg("uid state file \"%s\" has an unknown format", path)));

	/*
	 * Take an older file over.  Version 1: its header words after the
	 * secret are zero, a valid header with no lease yet, and its slots are
	 * unfenced, so that they are fenced before their next ID.  Version 2
	 * (uid 0.3.0 to 0.5.0, or this library's file after a library of those
	 * ran on it, which a file of version 3 refuses): whatever record of the
	 * live sno sequences it holds may miss what an older library issued, so
	 * it starts again, its history unknown up to the marks (sno.c,
	 * sno_used_read).  Version 3 (0.6.0) has this layout.
	 *
	 * Any of them may be mapped by backends of an older library still
	 * running (a package upgraded under a running server): they generate
	 * from the file's pages, which this state no longer shares.  So the
	 * file is replaced, a new inode renamed over it, which those backends
	 * notice at their next renewal of the lease and refuse (their
	 * uid_state_check_same), while this state's first IDs are fenced past
	 * every lease logged before.  Version 4 says the file is this
	 * library's: an older library refuses it, and it is written in place.
	 */
	if (file->version < UID_STATE_VERSION)
	{
		if (file->version == 2)
			pg_atomic_write_u64(&file->sno_cfg.live_used, 0);
		file->version = UID_STATE_VERSION;
		/* the leased identity's key stays that of the file replaced */
		file->file_id = uid_file_identity(&st);
		uid_state_put(path, file, true);
		if (stat(path, &st) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not stat file \"%s\": %m", path)));
	}
	live->file_id = file->file_id != 0 && file->file_inode == uid_file_identity(&st) ?
		file->file_id : uid_file_identity(&st);
	memcpy(img, file, UID_STATE_SIZE);
	pfree(file);
	CloseTransientFile(fd);		/* and its lock with it */

	do
	{
		if (!pg_strong_random(&live->live_id, sizeof(live->live_id)))
			ereport(ERROR,
					(errcode(ERRCODE_INTERNAL_ERROR),
					 errmsg("could not generate random bytes for the uid state")));
	} while (live->live_id == 0);
	pg_write_barrier();
	pg_atomic_write_u64(&live->ready, UID_LIVE_READY);
}

/* True if the object at the name is still the one this process mapped. */
static bool
uid_live_is_current(void)
{
	struct stat st;
	int			fd = uid_live_open(uid_live_posix(), uid_live_name(), O_RDONLY);
	bool		same = false;

	if (fd >= 0)
	{
		same = fstat(fd, &st) == 0 && st.st_dev == live_dev && st.st_ino == live_ino;
		close(fd);
	}
	return same;
}

#define UID_WRITE_STALE (-1)

/*
 * The step of uid_state_write() that failed: each has a message of its
 * own (uid_state_write_failed), not a verb spliced into one.
 */
typedef enum UidWriteStep
{
	UID_WRITE_OPEN,
	UID_WRITE_LOCK,
	UID_WRITE_WRITE,
	UID_WRITE_SYNC,
	UID_WRITE_SYNC_DIR
} UidWriteStep;

/*
 * Writes the shared state to the data directory's file, in place (made
 * again if it was removed), and with durable fsyncs it.  Under the file's
 * flock, which the builder of a shared state holds too while it reads the
 * file: the copy is taken under it, so writes land in the order of their
 * copies (a write never puts an older state back over a sync), and a
 * process whose shared state is no longer the one at its name (removed
 * under the server, a new one built from the file) writes nothing from the
 * moment the new one is built.  Returns 0, UID_WRITE_STALE, or an errno,
 * step the one that failed.
 */
static int
uid_state_write(bool durable, UidWriteStep *step)
{
	static char buf[UID_STATE_SIZE] pg_attribute_aligned(8);
	const char *path = uid_state_path();
	bool		created = false;
	int			fd;
	int			rc = 0;

	*step = UID_WRITE_OPEN;
	fd = open(path, O_RDWR | PG_BINARY, 0);
	if (fd < 0 && errno == ENOENT)
	{
		if (!uid_live_is_current())
			return UID_WRITE_STALE;
		fd = open(path, O_RDWR | O_CREAT | PG_BINARY, pg_file_create_mode);
		created = true;
	}
	if (fd < 0)
		return errno;
	*step = UID_WRITE_LOCK;
	while (flock(fd, LOCK_EX) != 0)
	{
		if (errno != EINTR)
		{
			rc = errno;
			close(fd);
			return rc;
		}
	}
	if (!uid_live_is_current())
	{
		close(fd);				/* and its lock with it */
		return UID_WRITE_STALE;
	}
	memcpy(buf, uid_state, UID_STATE_SIZE);
	*step = UID_WRITE_WRITE;
	errno = 0;
	if (pg_pwrite(fd, buf, UID_STATE_SIZE, 0) != UID_STATE_SIZE)
		rc = errno ? errno : ENOSPC;
	else if (durable)
	{
		*step = UID_WRITE_SYNC;
		if (pg_fsync(fd) != 0)
			rc = errno;
	}
	close(fd);
	if (rc == 0 && created && durable)
	{
		*step = UID_WRITE_SYNC_DIR;
		fd = open(DataDir, O_RDONLY | PG_BINARY, 0);
		if (fd < 0 || pg_fsync(fd) != 0)
			rc = errno;
		if (fd >= 0)
			close(fd);
	}
	return rc;
}

/* Reports uid_state_write()'s failure at step, errno rc, at elevel. */
static void
uid_state_write_failed(int elevel, UidWriteStep step, int rc)
{
	const char *path = uid_state_path();

	errno = rc;
	switch (step)
	{
		case UID_WRITE_OPEN:
			ereport(elevel,
					(errcode_for_file_access(),
					 errmsg("could not open file \"%s\": %m", path)));
			break;
		case UID_WRITE_LOCK:
			ereport(elevel,
					(errcode_for_file_access(),
					 errmsg("could not lock file \"%s\": %m", path)));
			break;
		case UID_WRITE_WRITE:
			ereport(elevel,
					(errcode_for_file_access(),
					 errmsg("could not write to file \"%s\": %m", path)));
			break;
		case UID_WRITE_SYNC:
			ereport(elevel,
					(errcode_for_file_access(),
					 errmsg("could not fsync file \"%s\": %m", path)));
			break;
		case UID_WRITE_SYNC_DIR:
			ereport(elevel,
					(errcode_for_file_access(),
					 errmsg("could not fsync directory \"%s\": %m", DataDir)));
			break;
	}
}

/* A process that mapped the state writes it to the file as it exits. */
static void
uid_state_exit(int code, Datum arg)
{
	UidWriteStep step;
	int			rc;

	if (uid_state == NULL || uid_live_fd < 0)
		return;
	rc = uid_state_write(false, &step);
	if (rc != 0 && rc != UID_WRITE_STALE)
		uid_state_write_failed(LOG, step, rc);
}

void
uid_state_attach(void)
{
	const char *name = uid_live_name();
	struct stat st;
	void	   *volatile p = MAP_FAILED;
	int			fd;

	fd = uid_live_open(uid_live_posix(), name, O_RDWR | O_CREAT);
	if (fd < 0)
	{
		int			save_errno = errno;

		ereport(ERROR,
				(errcode_for_file_access(),
				 errmsg("could not open shared memory segment \"%s\": %m", name),
				 uid_live_errdetail(),
				 uid_live_errhint(save_errno)));
	}
	PG_TRY();
	{
		uid_live_lock(fd, LOCK_EX);
		if (fstat(fd, &st) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not stat shared memory segment \"%s\": %m", name)));
		if (st.st_size < UID_LIVE_SIZE)
		{
			/* allocate it now: a later store can then never find its place full */
			int			rc;

			do
				rc = posix_fallocate(fd, 0, UID_LIVE_SIZE);
			while (rc == EINTR);
			if (rc == EOPNOTSUPP || rc == EINVAL)
				rc = ftruncate(fd, UID_LIVE_SIZE) == 0 ? 0 : errno;
			if (rc != 0)
			{
				errno = rc;
				ereport(ERROR,
						(errcode_for_file_access(),
						 errmsg("could not resize shared memory segment \"%s\" to %d bytes: %m",
								name, UID_LIVE_SIZE),
						 uid_live_errdetail()));
			}
		}
		p = mmap(NULL, UID_LIVE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not map shared memory segment \"%s\": %m", name)));
		uid_live = (UidStateLive *) ((char *) p + UID_STATE_SIZE);
		uid_live_claim(uid_live);
		if (pg_atomic_read_u64(&uid_live->ready) != UID_LIVE_READY)
			uid_live_build((UidStateFile *) p, uid_live);
		pg_read_barrier();
		uid_live_lock(fd, LOCK_UN);
	}
	PG_CATCH();
	{
		if (p != MAP_FAILED)
			munmap(p, UID_LIVE_SIZE);
		uid_live = NULL;
		close(fd);				/* and its lock with it */
		PG_RE_THROW();
	}
	PG_END_TRY();

	uid_live_fd = fd;
	live_dev = st.st_dev;
	live_ino = st.st_ino;
	for (int i = 0; i < UID_NSLOTS; i++)
		uid_cursors[i].seq_origin = uid_seq_origin(((UidStateFile *) p)->secret, i);
	uid_state = (UidStateFile *) p;
	uid_reload_note_in(&uid_live->signalled);
	on_proc_exit(uid_state_exit, (Datum) 0);
}

uint64
uid_state_file_id(void)
{
	return uid_live->file_id;
}

UidWord *
uid_state_signalled(void)
{
	return &uid_live->signalled;
}

uint64
uid_state_live_id(void)
{
	return uid_live->live_id;
}

static void
uid_state_stale_error(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
			 errmsg("the uid state in shared memory segment \"%s\" was removed while the server was running",
					uid_live_name()),
			 errdetail("This session keeps the state it mapped before; generating from it beside a new one could repeat IDs."),
			 errhint("Restart the server: the first IDs after that are fenced past the lease in WAL.  Nothing may remove the server's shared memory segments while it runs (systemd's RemoveIPC does).")));
}

void
uid_state_check_same(void)
{
	if (!uid_live_is_current())
		uid_state_stale_error();
}

void
uid_state_sync(void)
{
	UidWriteStep step;
	int			rc = uid_state_write(true, &step);

	if (rc == UID_WRITE_STALE)
		uid_state_stale_error();
	if (rc != 0)
		uid_state_write_failed(ERROR, step, rc);
}

uint64
uid_boot_value(uint64 purpose)
{
	if (uid_state == NULL)
		uid_state_attach();
	return uid_mix64(uid_state->secret ^
					 uid_mix64((uint64) PgStartTime ^ uid_mix64(purpose + 1)));
}
