// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop, attr parity (interop_attr_parity.h): targets: -a
 * (every cpu), -G CGROUP (with -a, as perf requires: the root cgroup,
 * which every cgroup mount has), --all-cgroups with -a, and -u USER: the
 * user nobody, with a process of its own started here (root's threads are
 * not all readable everywhere: perf -u root fails on a /proc/1/maps it
 * may not open).
 */
#include <pwd.h>
#include <sys/prctl.h>

#include "kselftest_harness.h"
#include "interop_attr_parity.h"

/*
 * A process of the user nobody for the length of the test (it dies with
 * the test's process); perf resolves -u through the passwd database.
 */
static int nobody_process(char *why, size_t size)
{
	struct passwd *pw = getpwnam("nobody");
	pid_t pid, parent;

	if (!pw) {
		snprintf(why, size, "no passwd entry for nobody here: perf -u resolves users "
			 "with getpwnam/getpwuid");
		return -1;
	}
	parent = getpid();
	pid = fork();
	if (pid == 0) {
		if (setgid(pw->pw_gid) || setuid(pw->pw_uid))
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

FIXTURE_VARIANT_ADD(parity, system_wide) {
	.name = "system_wide", .opts = { "-e", "cpu-clock", "-a" } };
FIXTURE_VARIANT_ADD(parity, uid) {
	.name = "uid", .opts = { "-e", "cpu-clock", "-u", "nobody" },
	.prepare = nobody_process };
FIXTURE_VARIANT_ADD(parity, cgroup) {
	.name = "cgroup", .opts = { "-e", "cpu-clock", "-a", "-G", "/" } };
FIXTURE_VARIANT_ADD(parity, all_cgroups_a) {
	.name = "all_cgroups_a", .opts = { "-e", "cpu-clock", "-a", "--all-cgroups" },
	.needs = 1 + PC_FEAT_CGROUP };

TEST_HARNESS_MAIN
