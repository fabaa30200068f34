// SPDX-License-Identifier: LGPL-2.1-or-later
/* event-store.c - the durable history of CXL event records in SQLite,
 * opened and closed: see event-store.h (its writing: store-write.c; its
 * reading: store-read.c, store-sums.c) */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sqlite3.h>
#include "core/dir-nofollow.h"
#include "events/event-store.h"
#include "events/event-store-db.h"

#define BUSY_MS 2000

/* the directory: reached with no link, the caller's own, not writable by others */
static int check_dir(const char *path, bool create, struct ct_error *err)
{
	char dir[4096];
	const char *slash = strrchr(path, '/');
	struct stat st;
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (create && !strcmp(dir, CT_EVENT_STORE_DIR) && mkdir(dir, 0700) && errno != EEXIST)
		return ct_fail(err, errno, "cannot make the event store's directory %s: %s", dir, strerror(errno));
	fd = ct_dir_nofollow_open(dir);
	if (fd == -ENOENT && !create)
		return -ENOENT;
	if (fd < 0)
		return ct_fail(err, -fd, "the event store's directory %s: %s%s", dir, strerror(-fd),
			       fd == -ELOOP ? " (a symbolic link is on the way: give the real path)" : "");
	if (fstat(fd, &st)) {
		int e = errno;
		close(fd);
		return ct_fail(err, e, "the event store's directory %s: %s", dir, strerror(e));
	}
	close(fd);
	if (st.st_uid != geteuid() || (st.st_mode & 022))
		return ct_fail(err, EPERM, "the event store's directory %s is %s: it must be %s own and writable by "
			       "no one else (chown; chmod go-w)", dir,
			       st.st_uid != geteuid() ? "another user's" : "writable by others",
			       geteuid() ? "your" : "root's");
	return 0;
}

void ct_store_close_db(struct ct_event_store *s)
{
	if (s->db)
		sqlite3_close_v2(s->db);
	s->db = NULL;
}

static int open_db(struct ct_event_store *s, struct ct_error *err)
{
	int flags = s->writer ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
	int rc = sqlite3_open_v2(s->path, &s->db, flags | SQLITE_OPEN_NOFOLLOW, NULL);

	if (rc) {
		int e = ct_store_errno(s, rc);
		rc = (e == -ENOENT && !s->writer) ? -ENOENT : ct_event_store_sql_fail(s, err, rc, "cannot open it");
		ct_store_close_db(s);
		return rc;
	}
	sqlite3_busy_timeout(s->db, BUSY_MS);
	return 0;
}

/* a damaged or foreign file (with its -wal and -shm) out of the way, named
 * with the time */
int ct_store_move_aside(struct ct_event_store *s, struct ct_error *err)
{
	char stamp[32], to[4200], from[4200];
	time_t now = time(NULL);
	struct tm tm;

	ct_store_close_db(s);
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(to, sizeof(to), "%s.bad-%s", s->path, stamp);
	if (rename(s->path, to))
		return ct_fail(err, errno, "event store %s is damaged or not cxltier's, and cannot be moved aside: %s",
			       s->path, strerror(errno));
	for (size_t i = 0; i < 2; i++) {
		static const char *const sfx[] = { "-wal", "-shm" };
		char t2[4300];
		snprintf(from, sizeof(from), "%s%s", s->path, sfx[i]);
		snprintf(t2, sizeof(t2), "%s%s", to, sfx[i]);
		if (rename(from, t2) && errno != ENOENT)
			return ct_fail(err, errno, "cannot move %s aside: %s", from, strerror(errno));
	}
	snprintf(s->st.moved_aside, sizeof(s->st.moved_aside), "%s", to);
	return 0;
}

static int writer_ready_open(struct ct_event_store *s, struct ct_error *err)
{
	int64_t rows = 0;
	int rc, kind;

	for (int attempt = 0;; attempt++) {
		if ((rc = open_db(s, err)))
			return rc;
		kind = ct_store_identify(s);
		if (kind >= 0)
			break;
		if (kind == -EPROTONOSUPPORT)
			return ct_fail(err, EPROTONOSUPPORT, "event store %s has a newer schema than this cxltier's "
				       "(%d): left alone; run the newer cxltier, or move the file away", s->path,
				       CT_EVENT_STORE_SCHEMA);
		if ((kind != -EBADMSG && kind != -EMEDIUMTYPE) || attempt)
			return ct_fail(err, -kind, "event store %s: cannot read it: %s", s->path,
				       s->db ? sqlite3_errmsg(s->db) : strerror(-kind));
		if ((rc = ct_store_move_aside(s, err)))
			return rc;
	}
	/* WAL: readers never block the writer; NORMAL: a commit survives the
	 * process killed (the last ones may be lost with the power) */
	if ((rc = ct_store_exec(s, "PRAGMA journal_mode = WAL")) || (rc = ct_store_exec(s, "PRAGMA synchronous = NORMAL")))
		return ct_event_store_sql_fail(s, err, rc, "cannot set its journal");
	if (kind == 1 && (rc = ct_store_create(s, err)))
		return rc;
	if (kind == 2 && (rc = ct_store_upgrade(s, err)))
		return rc;
	if ((rc = ct_store_load_pruned(s)) || (rc = ct_store_query_int(s, "SELECT count(*) FROM records", &rows)))
		return ct_event_store_sql_fail(s, err, rc, "cannot read its counts");
	s->rows = (uint64_t)rows;
	return 0;
}

/* the database opened for writing, its schema made, checked or upgraded;
 * closed again when that fails (a later flush opens it afresh: a connection
 * opened while its file system was read-only would stay read-only) */
int ct_store_writer_ready(struct ct_event_store *s, struct ct_error *err)
{
	int rc = writer_ready_open(s, err);

	if (rc)
		ct_store_close_db(s);
	return rc;
}

/* a failure that may pass (a read-only or full file system, a lock, I/O) */
static bool may_pass(int rc)
{
	return rc == -EROFS || rc == -ENOSPC || rc == -EBUSY || rc == -EIO || rc == -EACCES || rc == -ENOENT;
}

int ct_event_store_open_writer(const char *path, const struct ct_event_store_limits *lim,
			       struct ct_event_store **out, struct ct_error *err)
{
	struct ct_event_store *s;
	int rc;

	*out = NULL;
	if (!path)
		path = CT_EVENT_STORE_PATH;
	if ((rc = check_dir(path, true, err)))
		return rc;
	if (!(s = calloc(1, sizeof(*s))))
		return ct_fail(err, ENOMEM, "out of memory");
	snprintf(s->path, sizeof(s->path), "%s", path);
	s->writer = true;
	if (lim)
		s->lim = *lim;
	if ((rc = ct_store_writer_ready(s, err)) && !may_pass(rc)) {
		ct_event_store_close(s);
		return rc;
	}
	s->st.last_rc = rc;	/* (0, or the database is opened at a later flush) */
	*out = s;
	return 0;
}

/* a store of an older schema, upgraded by a writer of its own (it may
 * write: the store is the caller's) */
static int upgrade_for_reader(struct ct_event_store *s, struct ct_error *err)
{
	struct ct_event_store *w;
	int rc;

	ct_store_close_db(s);
	rc = ct_event_store_open_writer(s->path, NULL, &w, err);
	if (!rc && (rc = ct_event_store_stats(w)->last_rc))
		ct_fail(err, -rc, "event store %s is of an older schema than this cxltier's and cannot be upgraded now: "
			"%s (the follower upgrades it when it starts: systemctl restart cxltier-events)", s->path,
			strerror(-rc));
	ct_event_store_close(w);
	return rc ? rc : open_db(s, err);
}

int ct_event_store_open_reader(const char *path, struct ct_event_store **out, struct ct_error *err)
{
	struct ct_event_store *s;
	int rc, kind;

	*out = NULL;
	if (!path)
		path = CT_EVENT_STORE_PATH;
	if ((rc = check_dir(path, false, err)))
		return rc;
	if (access(path, F_OK) && errno == ENOENT)
		return -ENOENT;
	if (!(s = calloc(1, sizeof(*s))))
		return ct_fail(err, ENOMEM, "out of memory");
	snprintf(s->path, sizeof(s->path), "%s", path);
	if ((rc = open_db(s, err)))
		goto fail;
	kind = ct_store_identify(s);
	if (kind == 2) {	/* an older schema */
		if ((rc = upgrade_for_reader(s, err)))
			goto fail;
		kind = ct_store_identify(s);
	}
	if (kind == 1) {	/* being made: nothing stored yet */
		rc = -ENOENT;
		goto fail;
	}
	if (kind < 0 || kind == 2) {
		rc = ct_fail(err, -kind, "event store %s: %s", s->path,
			     kind == -EPROTONOSUPPORT ? "a newer schema than this cxltier's: run the newer cxltier" :
			     kind == -EMEDIUMTYPE ? "not cxltier's (another program's database): give the right path" :
			     kind == -EBADMSG ? "damaged or not a database (the follower moves it aside when it starts: "
						"systemctl restart cxltier-events)" : strerror(kind < 0 ? -kind : EIO));
		goto fail;
	}
	if ((rc = ct_store_load_pruned(s))) {
		rc = ct_event_store_sql_fail(s, err, rc, "cannot read its counts");
		goto fail;
	}
	*out = s;
	return 0;
fail:
	ct_event_store_close(s);
	return rc;
}

void ct_event_store_close(struct ct_event_store *s)
{
	if (!s)
		return;
	ct_store_close_db(s);
	for (size_t i = 0; i < s->qn; i++)
		free(s->q[i]);
	free(s->q);
	free(s->qlen);
	free(s->qhost);
	free(s->qdev);
	free(s->qnew);
	ct_store_devices_forget(s);
	free(s);
}

