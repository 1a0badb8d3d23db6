// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop, attr parity (interop_attr_parity.h): targets: -a
 * (every cpu), -C 0, -G CGROUP (with -a, as perf requires: the root cgroup,
 * which every cgroup mount has), --all-cgroups with -a, and -u USER: the
 * user nobody, with a process of its own started here (root's threads are
 * not all readable everywhere: perf -u root fails on a /proc/1/maps it
 * may not open).  -G needs a cgroup mount: where there is none (a guest's
 * initramfs) the test mounts cgroup2 in a mount namespace of its own,
 * which both tools inherit and which ends with the test.
 */
#include <pwd.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/prctl.h>

#include "kselftest_harness.h"
#include "interop_attr_parity.h"

/* nobody in /etc/passwd (read as a file: NSS is not there for static binaries) */
static int find_nobody(uid_t *uid, gid_t *gid)
{
	FILE *f = fopen("/etc/passwd", "re");
	struct passwd *pw;
	int ret = -1;

	while (f && (pw = fgetpwent(f)))
		if (!strcmp(pw->pw_name, "nobody")) {
			*uid = pw->pw_uid;
			*gid = pw->pw_gid;
			ret = 0;
			break;
		}
	if (f)
		fclose(f);
	return ret;
}

/*
 * Where there is no passwd database (a guest's initramfs), one that names
 * nobody, over /etc in a mount namespace of the test's own: a tmpfs with
 * a copy of /etc and the two lines.
 */
static int nobody_passwd(char *why, size_t size)
{
	char dir[] = "/tmp/pc-etc-XXXXXX", cmd[128];
	FILE *f;

	if (!access("/etc/passwd", F_OK)) {
		snprintf(why, size, "the passwd database has no user nobody");
		return -1;
	}
	/* a guest's initramfs may have no /etc at all: a place to bind on */
	if (mkdir("/etc", 0755) && errno != EEXIST) {
		snprintf(why, size, "no /etc/passwd, and no /etc: %s", strerror(errno));
		return -1;
	}
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    !mkdtemp(dir) || mount("tmpfs", dir, "tmpfs", 0, NULL)) {
		snprintf(why, size, "no /etc/passwd, and no mount namespace with one: %s",
			 strerror(errno));
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "cp -a /etc/. %s/ 2>/dev/null", dir);
	if (system(cmd)) {
		/* an empty /etc is still a place for passwd */
	}
	snprintf(cmd, sizeof(cmd), "%s/passwd", dir);
	f = fopen(cmd, "w");
	if (f) {
		fputs("root:x:0:0:root:/root:/bin/sh\n"
		      "nobody:x:65534:65534:nobody:/nonexistent:/bin/false\n", f);
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "%s/group", dir);
	f = fopen(cmd, "w");
	if (f) {
		fputs("root:x:0:\nnogroup:x:65534:\n", f);
		fclose(f);
	}
	if (mount(dir, "/etc", NULL, MS_BIND, NULL)) {
		snprintf(why, size, "no /etc/passwd, and binding one over /etc: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * A process of the user nobody for the length of the test (it dies with
 * the test's process); perf resolves -u through the passwd database.
 */
static int nobody_process(char *why, size_t size)
{
	uid_t uid;
	gid_t gid;
	pid_t pid, parent;

	if (find_nobody(&uid, &gid) && (nobody_passwd(why, size) || find_nobody(&uid, &gid))) {
		if (!*why)
			snprintf(why, size, "no user nobody, even with a passwd file naming it");
		return -1;
	}
	parent = getpid();
	pid = fork();
	if (pid == 0) {
		if (setgid(gid) || setuid(uid))
			_exit(1);
		/* after setuid: a change of credentials clears the death signal */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() == parent)
			pause();
		_exit(0);
	}
	if (pid < 0) {
		snprintf(why, size, "fork: %s", strerror(errno));
		return -1;
	}
	usleep(100000);		/* its uid is nobody's before the tools look */
	return 0;
}

static bool cgroup_mounted(void)
{
	char line[1024];
	bool found = false;
	FILE *f = fopen("/proc/self/mounts", "r");

	while (f && !found && fgets(line, sizeof(line), f)) {
		char dev[256], dir[512], type[64], opts[512];

		if (sscanf(line, "%255s %511s %63s %511s", dev, dir, type, opts) == 4)
			found = !strcmp(type, "cgroup2") ||
				(!strcmp(type, "cgroup") && strstr(opts, "perf_event"));
	}
	if (f)
		fclose(f);
	return found;
}

static int cgroup_mount(char *why, size_t size)
{
	if (cgroup_mounted())
		return 0;
	if (unshare(CLONE_NEWNS) || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		snprintf(why, size, "no cgroup mount, and no mount namespace for one: %s",
			 strerror(errno));
		return -1;
	}
	if (mount("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL)) {
		snprintf(why, size, "no cgroup mount, and mounting cgroup2 on /sys/fs/cgroup: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

FIXTURE_VARIANT_ADD(parity, system_wide) {
	.name = "system_wide", .opts = { "-e", "cpu-clock", "-a" } };
FIXTURE_VARIANT_ADD(parity, cpu_list) {
	.name = "cpu_list", .opts = { "-e", "cpu-clock", "-C", "0" } };
FIXTURE_VARIANT_ADD(parity, uid) {
	.name = "uid", .opts = { "-e", "cpu-clock", "-u", "nobody" },
	.prepare = nobody_process };
FIXTURE_VARIANT_ADD(parity, cgroup) {
	.name = "cgroup", .opts = { "-e", "cpu-clock", "-a", "-G", "/" },
	.prepare = cgroup_mount };
FIXTURE_VARIANT_ADD(parity, all_cgroups_a) {
	.name = "all_cgroups_a", .opts = { "-e", "cpu-clock", "-a", "--all-cgroups" },
	.needs = 1 + PC_FEAT_CGROUP };

TEST_HARNESS_MAIN
