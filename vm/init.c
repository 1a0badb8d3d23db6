// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's /init (PID 1 of every matrix kernel), also usable on the host.
 *
 *   init                        as PID 1: mounts, runs /perfcheck/plan, writes the
 *                               artifacts to the NVMe disk, powers off
 *   init --host PLAN OUTDIR     runs PLAN on this machine (the matrix's host row)
 *   init --calibrate            prints the speed-calibration loop's time in ns
 *   init --facts [PERF]         prints the machine facts that expectations are
 *                               derived from ("KEY VALUE" lines: pmu, tools,
 *                               kbuild, and whether PERF has a symbol table)
 *
 * Everything the host needs is printed on stdout (the serial console in a
 * guest) as lines "PCVM:NONCE:WORD ..." around each test's raw TAP.  The
 * nonce is fresh per run and only known to the plan, so that no output of a
 * test or of the kernel can forge a marker.  The plan is a text file, one
 * directive per line:
 *
 *   nonce WORD          marker nonce
 *   ref_ns N            the host's time for the calibration loop
 *   timeout S           per-test timeout before scaling by the guest's speed
 *   paranoid V          value for kernel.perf_event_paranoid (guest only)
 *   disk PATH           where the artifact tar goes (guest only); serial:NAME is
 *                       the NVMe disk of that serial
 *   jobs N              runs "run" tests N side by side (each one's output is
 *                       printed whole when it ends, after a "start" marker when
 *                       it starts); "sh" lines and "alone" tests run by themselves
 *   alone SUITE NAME    that test runs by itself
 *   image SERIAL DIR    mounts the ext4 NVMe disk of that serial read-only at DIR
 *                       before the tests (guest only; up to 4)
 *   env NAME=VALUE      added to every test's environment
 *   retry N             re-run a "run" test that failed (exit status other than
 *                       0 and 4, or a signal) up to N times, in SUITE/NAME/retry;
 *                       its markers carry attempt=2 (the host calls it flaky
 *                       when it passes then)
 *   noretry SUITE NAME  not that test (a known failure of this kernel)
 *   test_timeout SUITE NAME S   that test's own timeout before scaling
 *   run SUITE NAME ARGV...   runs ARGV as test SUITE/NAME
 *   sh SUITE NAME LINE       runs "/bin/sh -c LINE" as test SUITE/NAME
 *
 * Each test runs in its own process group, with its working directory
 * OUTDIR/SUITE/NAME (so perf.data files it writes become artifacts), stdout
 * relayed, stderr kept in stderr.txt there, and is killed with its group
 * when it outlives its scaled timeout.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <elf.h>
#include <linux/hw_breakpoint.h>
#include <linux/perf_event.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINE	4096
#define MAX_ARGS	64
#define CALIB_ROUNDS	200000ULL
#define CALIB_SYSCALLS	10000
#define CALIB_MAPS	8
#define CALIB_FORKS	25
#define CALIB_SIGNALS	2500

/* test_timeout lines a plan may hold: one per interop test and perf test, with room */
#define PLAN_TIMEOUTS 128

struct plan {
	char nonce[64];
	double ref_ns;
	double timeout_s;
	char paranoid[16];
	char disk[256];
	char *env[32];
	int nenv;
	int retry;
	char *noretry[64];	/* "SUITE NAME" */
	int nnoretry;
	char *ttimeout[PLAN_TIMEOUTS];	/* "SUITE NAME SECONDS" */
	int nttimeout;
	int jobs;		/* tests running side by side */
	char *alone[64];	/* "SUITE NAME": runs by itself */
	int nalone;
	char *image[4];		/* "SERIAL DIR": an ext4 NVMe disk mounted read-only at DIR */
	int nimage;
};

static int guest;		/* running as PID 1 of a guest */
static const char *outdir = "/out";
static struct plan plan = { .timeout_s = 30 };
static double factor = 1.0;

static const char *entry_for(char **list, int n, const char *suite, const char *name);

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void marker(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void marker(const char *fmt, ...)
{
	char buf[MAX_LINE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	/* one write per line: a line is never split by our own buffering */
	dprintf(1, "PCVM:%s:%s\n", plan.nonce, buf);
}

/*
 * The same mixed work on host and guest: a dependent multiply chain (TCG
 * translates it almost at host speed), system calls, page faults, fork
 * and signals (where TCG and a guest kernel lose the most).  The ratio is the guest's slowdown.
 */
static double calibrate(void)
{
	double best = 0;

	for (int r = 0; r < 2; r++) {
		volatile uint64_t sink;
		uint64_t x = 1;
		double t0 = now_ms();

		for (uint64_t i = 0; i < CALIB_ROUNDS; i++)
			x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		sink = x;
		for (int i = 0; i < CALIB_SYSCALLS; i++)
			sink += syscall(SYS_getppid);
		for (int i = 0; i < CALIB_FORKS; i++) {
			pid_t pid = fork();

			if (pid == 0)
				_exit(0);
			if (pid > 0)
				waitpid(pid, NULL, 0);
		}
		for (int i = 0; i < CALIB_SIGNALS; i++)
			raise(SIGURG);	/* ignored by default, but delivered */
		for (int i = 0; i < CALIB_MAPS; i++) {
			char *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (p == MAP_FAILED)
				break;
			for (int off = 0; off < 1 << 20; off += 4096)
				p[off] = (char)off;
			munmap(p, 1 << 20);
		}
		(void)sink;
		double ns = (now_ms() - t0) * 1e6;
		if (!r || ns < best)
			best = ns;
	}
	return best;
}


/*
 * The facts a test's expectation is derived from: whether a hardware PMU
 * counts (a cycles event opens: TCG guests and many VMs have none), the
 * event sources the kernel registered, and which tools are in PATH.
 */
/* Whether the ELF file PATH asks for a program interpreter (dynamically linked): 1, 0, -1. */
static int elf_is_dynamic(const char *path)
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int dyn = -1;

	if (!f)
		return -1;
	if (fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr))
		goto out;
	dyn = 0;
	for (int i = 0; i < eh.e_phnum && !dyn; i++) {
		if (fseek(f, (long)(eh.e_phoff + (Elf64_Off)i * sizeof(ph)), SEEK_SET) ||
		    fread(&ph, sizeof(ph), 1, f) != 1)
			break;
		dyn = ph.p_type == PT_INTERP;
	}
out:
	fclose(f);
	return dyn;
}

/*
 * Whether the ELF file PATH has a .symtab section (perf's own tests unwind
 * and resolve perf's functions: a stripped perf fails them).  1 yes, 0 no,
 * -1 cannot tell.  Every offset and count is checked against the file size.
 */
static int elf_has_symtab(const char *path)
{
	FILE *f = fopen(path, "rb");
	Elf64_Ehdr eh;
	Elf64_Shdr sh, strsh;
	char name[8];
	long size;
	int found = -1;

	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < (long)sizeof(eh) || fseek(f, 0, SEEK_SET) ||
	    fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_shstrndx >= eh.e_shnum || eh.e_shoff > (Elf64_Off)size ||
	    (Elf64_Off)eh.e_shnum * sizeof(Elf64_Shdr) > (Elf64_Off)size - eh.e_shoff)
		goto out;
	if (fseek(f, (long)(eh.e_shoff + (Elf64_Off)eh.e_shstrndx * sizeof(sh)), SEEK_SET) ||
	    fread(&strsh, sizeof(strsh), 1, f) != 1 || strsh.sh_offset > (Elf64_Off)size ||
	    strsh.sh_size > (Elf64_Off)size - strsh.sh_offset)
		goto out;
	found = 0;
	for (int i = 0; i < eh.e_shnum && !found; i++) {
		if (fseek(f, (long)(eh.e_shoff + (Elf64_Off)i * sizeof(sh)), SEEK_SET) ||
		    fread(&sh, sizeof(sh), 1, f) != 1)
			break;
		if (sh.sh_type != SHT_SYMTAB || sh.sh_name >= strsh.sh_size ||
		    strsh.sh_size - sh.sh_name < sizeof(".symtab"))
			continue;
		if (fseek(f, (long)(strsh.sh_offset + sh.sh_name), SEEK_SET) ||
		    fread(name, sizeof(".symtab"), 1, f) != 1)
			break;
		found = !memcmp(name, ".symtab", sizeof(".symtab"));
	}
out:
	fclose(f);
	return found;
}

/*
 * What PERF was built with ("perf version --build-options": "   zstd: [ on  ]
 * # HAVE_ZSTD_SUPPORT"), as "perf_build.NAME on|off" lines: perf without
 * zstd cannot write or read compressed records (perf 5.10 in bullseye).
 */
static void print_perf_build(const char *perf)
{
	char line[512];
	int pfd[2];
	pid_t pid;
	FILE *f;

	if (pipe(pfd))
		return;
	pid = fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);

		dup2(pfd[1], 1);
		if (nul >= 0) {
			dup2(nul, 0);
			dup2(nul, 2);
		}
		close(pfd[0]);
		close(pfd[1]);
		execl(perf, perf, "version", "--build-options", (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return;
	}
	f = fdopen(pfd[0], "r");
	while (f && fgets(line, sizeof(line), f)) {
		char name[64], state[8];

		if (sscanf(line, " %63[^: ]: [ %7[a-zA-Z] ]", name, state) == 2 &&
		    (!strcmp(state, "on") || !strcmp(state, "OFF")))
			printf("perf_build.%s %s\n", name, strcmp(state, "on") ? "off" : "on");
	}
	if (f)
		fclose(f);
	else
		close(pfd[0]);
	waitpid(pid, NULL, 0);
}

/*
 * What a PMU reports of itself under caps/ ("pmu_cap.DEVICE.NAME VALUE"):
 * perf's metrics read "#slots" from the core PMU's caps/slots, and QEMU's
 * emulated PMUv3 (-cpu max) reports 0 there (no PMMIR_EL1.SLOTS).
 */
static void print_pmu_caps(void)
{
	static const char *const caps[] = { "slots" };
	DIR *d = opendir("/sys/bus/event_source/devices");

	for (struct dirent *e; d && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++) {
			char path[600], value[64] = "";
			FILE *f;

			snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/caps/%s", e->d_name, caps[i]);
			f = fopen(path, "r");
			if (!f)
				continue;
			if (fgets(value, sizeof(value), f))
				value[strcspn(value, "\n")] = '\0';
			fclose(f);
			printf("pmu_cap.%s.%s %s\n", e->d_name, caps[i], value[0] ? value : "unreadable");
		}
	}
	if (d)
		closedir(d);
}

/*
 * arm64's kernel.perf_user_access (0 by default): whether user space may
 * read a counter it asked for (config1 bit 1).  The kernel still sets
 * cap_user_rdpmc in the mmap page when it is 0, with index 0.
 */
static void print_user_access(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_user_access", "r");
	int v;

	if (!f)
		return;
	if (fscanf(f, "%d", &v) == 1)
		printf("perf_user_access %d\n", v);
	fclose(f);
}

/*
 * Whether a hardware breakpoint fires here: writes counted by a write
 * watchpoint on a word this process then writes four times.  A hypervisor may
 * accept the debug registers and never trap (a 6.18 host VM of this project:
 * 0 counted), and the kernel's sigtrap_threads and perf test's breakpoint
 * cases then wait for signals that never come.
 */
static void print_breakpoint_writes(void)
{
	static volatile uint64_t watched;
	struct perf_event_attr attr;
	uint64_t count = 0;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_BREAKPOINT;
	attr.bp_type = HW_BREAKPOINT_W;
	attr.bp_addr = (uintptr_t)&watched;
	attr.bp_len = HW_BREAKPOINT_LEN_8;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0) {
		printf("breakpoint_writes no %s (errno %d)\n", strerror(errno), errno);
		return;
	}
	for (int i = 0; i < 4; i++)
		watched = (uint64_t)i;
	if (read(fd, &count, sizeof(count)) != (ssize_t)sizeof(count))
		printf("breakpoint_writes no read: %s\n", strerror(errno));
	else
		printf("breakpoint_writes %llu\n", (unsigned long long)count);
	close(fd);
}

/*
 * How long this machine takes from a task's EXIT record to its parent's
 * SIGCHLD, counted in polls that return at once (POLLHUP) meanwhile: perf
 * test's "Number of exit events" gives up after 1000 polls and counts these.
 * One run: a child waiting on a pipe, a dummy event with task records on it,
 * the parent's read-and-poll loop.  -1 when the event cannot be used.
 */
static volatile sig_atomic_t exit_race_reaped;

static void exit_race_sigchld(int sig)
{
	(void)sig;
	exit_race_reaped = 1;
}

static int exit_race_once(void)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)page * 9;
	struct perf_event_attr attr;
	struct perf_event_mmap_page *mp;
	uint64_t tail = 0;
	int go[2], fd, exits = 0, after = 0;
	pid_t child;

	if (pipe(go))
		return -1;
	exit_race_reaped = 0;
	child = fork();
	if (child == 0) {
		char c;

		close(go[1]);
		_exit(read(go[0], &c, 1) == 1 ? 0 : 1);
	}
	close(go[0]);
	if (child < 0) {
		close(go[1]);
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_DUMMY;
	attr.sample_period = 1;
	attr.exclude_kernel = 1;
	attr.task = 1;
	attr.wakeup_events = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, child, -1, -1, PERF_FLAG_FD_CLOEXEC);
	mp = fd < 0 ? MAP_FAILED : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (write(go[1], "g", 1) != 1 || mp == MAP_FAILED) {
		close(go[1]);
		waitpid(child, NULL, 0);
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(go[1]);
	for (int polls = 0; polls < 100000; polls++) {
		uint64_t head = __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE);
		struct pollfd p = { fd, POLLIN, 0 };

		while (tail + sizeof(struct perf_event_header) <= head) {
			struct perf_event_header h;
			size_t at = (size_t)(tail % ((size_t)page * 8));

			if (at + sizeof(h) > (size_t)page * 8)
				break;	/* a header never wraps: records are 8-byte aligned */
			memcpy(&h, (char *)mp + page + at, sizeof(h));
			if (!h.size)
				break;
			exits += h.type == PERF_RECORD_EXIT;
			tail += h.size;
		}
		__atomic_store_n(&mp->data_tail, tail, __ATOMIC_RELEASE);
		if (exits && exit_race_reaped)
			break;
		if (poll(&p, 1, 1000) < 0 && errno != EINTR)
			break;
		after += exits > 0;
	}
	munmap(mp, len);
	close(fd);
	waitpid(child, NULL, 0);
	return exits == 1 ? after : -1;
}

static int cmp_int(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

static void print_exit_race(void)
{
	struct sigaction sa = { .sa_handler = exit_race_sigchld }, old;
	int polls[21], n = 0;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGCHLD, &sa, &old))
		return;
	while (n < (int)(sizeof(polls) / sizeof(polls[0]))) {
		int p = exit_race_once();

		if (p < 0)
			break;
		polls[n++] = p;
	}
	sigaction(SIGCHLD, &old, NULL);
	if (n < (int)(sizeof(polls) / sizeof(polls[0])))
		return;
	qsort(polls, n, sizeof(polls[0]), cmp_int);
	printf("exit_race_polls %d\n", polls[n / 2]);
}

/* A file that starts with "#!": run through an interpreter. */
static bool is_script(const char *path)
{
	char magic[2] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	bool yes;

	if (fd < 0)
		return false;
	yes = read(fd, magic, 2) == 2 && magic[0] == '#' && magic[1] == '!';
	close(fd);
	return yes;
}

static int print_facts(const char *perf)
{
	struct perf_event_attr attr;
	static const char *const tools[] = { "sh", "addr2line", "objdump", "readelf", "gcc", "clang",
					     "python3", "perl", "perf", "timeout", "sleep" };
	const char *path = getenv("PATH");
	DIR *d;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_CPU_CYCLES;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd >= 0) {
		printf("pmu yes\n");
		close(fd);
	} else {
		printf("pmu no cycles %s (errno %d)\n", strerror(errno), errno);
	}
	d = opendir("/sys/bus/event_source/devices");
	printf("pmu_devices");
	for (struct dirent *e; d && (e = readdir(d));)
		if (e->d_name[0] != '.')
			printf(" %s", e->d_name);
	printf("\n");
	if (d)
		closedir(d);
	print_pmu_caps();
	print_user_access();
	print_breakpoint_writes();
	print_exit_race();
	printf("cpus %ld\n", sysconf(_SC_NPROCESSORS_ONLN));
	{
		struct utsname u;
		char kb[600];

		if (!uname(&u)) {
			snprintf(kb, sizeof(kb), "/lib/modules/%s/build", u.release);
			printf("kbuild %s\n", access(kb, R_OK) ? "no" : kb);
			/* a kernel image with symbols, where perf looks for one */
			const char *vm[] = { "/usr/lib/debug/boot/vmlinux-%s", "/boot/vmlinux-%s",
					     "/lib/modules/%s/build/vmlinux",
					     "/usr/lib/debug/lib/modules/%s/vmlinux" };
			const char *found = NULL;

			for (size_t i = 0; i < sizeof(vm) / sizeof(vm[0]) && !found; i++) {
				snprintf(kb, sizeof(kb), vm[i], u.release);
				if (!access(kb, R_OK))
					found = kb;
			}
			printf("vmlinux %s\n", found ? found : "no");
		}
	}
	if (perf) {
		int st = elf_has_symtab(perf);

		printf("perf %s\n", access(perf, X_OK) ? "no" : perf);
		printf("perf_symtab %s\n", st < 0 ? "unknown" : st ? "yes" : "no");
		if (!access(perf, X_OK))
			print_perf_build(perf);
	}
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		char dirs[4096], full[4200], *save = NULL;
		const char *found = NULL;

		snprintf(dirs, sizeof(dirs), "%s", path ? path : "/bin:/usr/bin");
		for (char *p = strtok_r(dirs, ":", &save); p && !found; p = strtok_r(NULL, ":", &save)) {
			snprintf(full, sizeof(full), "%s/%s", p, tools[i]);
			if (!access(full, X_OK))
				found = full;
		}
		printf("tool.%s %s\n", tools[i], found ? found : "no");
		if (found && !strcmp(tools[i], "sleep"))
			printf("dynamic.sleep %s\n", elf_is_dynamic(found) == 1 ? "yes" : "no");
		/* a launcher script (pyenv's shim) starts helpers that come and go */
		if (found && !strcmp(tools[i], "python3"))
			printf("script.python3 %s\n", is_script(found) ? "yes" : "no");
	}
	return 0;
}

static int write_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, data, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -EIO;
}

static void mkdirs(const char *path)
{
	char tmp[1024];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(tmp, 0755);
		*p = '/';
	}
	mkdir(tmp, 0755);
}

static void guest_mount(const char *type, const char *dir)
{
	mkdirs(dir);
	if (mount(type, dir, type, 0, NULL) && errno != EBUSY)
		marker("note mount %s on %s: %s", type, dir, strerror(errno));
}

static void guest_setup(void)
{
	guest_mount("proc", "/proc");
	guest_mount("sysfs", "/sys");
	guest_mount("devtmpfs", "/dev");
	guest_mount("debugfs", "/sys/kernel/debug");
	guest_mount("tracefs", "/sys/kernel/tracing");
	guest_mount("tmpfs", "/tmp");
	mkdirs("/root");
	/* busybox applets as /bin/NAME for the thin sh glue of plan lines */
	if (access("/bin/sh", X_OK)) {
		pid_t pid = fork();

		if (pid == 0) {
			execl("/bin/busybox", "busybox", "--install", "-s", "/bin", (char *)NULL);
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
}

/*
 * The block device of the NVMe namespace whose controller (or subsystem)
 * has serial SERIAL, into DEV: 0, or -ENOENT after WAIT_MS (NVMe controllers
 * probe asynchronously: the disk may appear after /init starts).
 */
static int nvme_by_serial(const char *serial, char *dev, size_t len, double wait_ms)
{
	double deadline = now_ms() + wait_ms;

	for (;;) {
		DIR *d = opendir("/sys/block");

		for (struct dirent *e; d && (e = readdir(d));) {
			char path[600], got[128] = "";
			int fd;
			ssize_t n;

			if (strncmp(e->d_name, "nvme", 4))
				continue;
			snprintf(path, sizeof(path), "/sys/block/%s/device/serial", e->d_name);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			n = read(fd, got, sizeof(got) - 1);
			close(fd);
			got[n > 0 ? n : 0] = '\0';
			/* NVMe pads the serial with blanks */
			for (n = (ssize_t)strlen(got); n > 0 && (got[n - 1] == ' ' || got[n - 1] == '\n'); n--)
				got[n - 1] = '\0';
			snprintf(path, sizeof(path), "/dev/%s", e->d_name);
			if (!strcmp(got, serial) && !access(path, R_OK) && strlen(path) < len) {
				memcpy(dev, path, strlen(path) + 1);
				closedir(d);
				return 0;
			}
		}
		if (d)
			closedir(d);
		if (now_ms() > deadline)
			return -ENOENT;
		usleep(10000);
	}
}

/*
 * The plan's "image SERIAL DIR" disks: ext4 images of files the host keeps
 * out of the initramfs (under TCG, unpacking 200 MB of initramfs is most of
 * a boot; a disk is read only where a test reads it), mounted read-only at
 * DIR.  Top-level entries of an image mounted elsewhere than /perfcheck that
 * / lacks (usr, lib, lib64 of the upstream perf) are linked into /.
 */
static void attach_images(void)
{
	for (int i = 0; i < plan.nimage; i++) {
		char serial[64], dir[256], dev[300];
		DIR *d;

		if (sscanf(plan.image[i], "%63s %255s", serial, dir) != 2)
			continue;
		if (nvme_by_serial(serial, dev, sizeof(dev), 30000)) {
			marker("note image %s: no NVMe disk with that serial", serial);
			continue;
		}
		mkdirs(dir);
		if (mount(dev, dir, "ext4", MS_RDONLY, NULL)) {
			marker("note image %s: mount %s on %s: %s", serial, dev, dir, strerror(errno));
			continue;
		}
		if (!strcmp(dir, "/perfcheck") || !(d = opendir(dir)))
			continue;
		for (struct dirent *e; (e = readdir(d));) {
			char from[600], to[300];

			if (e->d_name[0] == '.' || !strcmp(e->d_name, "perfcheck") ||
			    !strcmp(e->d_name, "lost+found"))
				continue;
			snprintf(to, sizeof(to), "/%s", e->d_name);
			snprintf(from, sizeof(from), "%s/%s", dir, e->d_name);
			if (access(to, F_OK) && symlink(from, to))
				marker("note image %s: symlink %s: %s", serial, to, strerror(errno));
		}
		closedir(d);
	}
}

static void set_paranoid(void)
{
	char old[32] = "?";
	int fd;

	fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, old, sizeof(old) - 1);

		old[n > 0 ? n : 0] = '\0';
		old[strcspn(old, "\n")] = '\0';
		close(fd);
	}
	if (plan.paranoid[0] &&
	    write_file("/proc/sys/kernel/perf_event_paranoid", plan.paranoid, strlen(plan.paranoid)))
		marker("note cannot set perf_event_paranoid: %s", strerror(errno));
	write_file("/proc/sys/kernel/kptr_restrict", "0", 1);
	marker("paranoid was=%s now=%s", old, plan.paranoid[0] ? plan.paranoid : old);
}

/* Splits a plan line on blanks; returns the number of words. */
static int split(char *line, char **argv, int max)
{
	int n = 0;

	for (char *p = strtok(line, " \t\n"); p && n < max - 1; p = strtok(NULL, " \t\n"))
		argv[n++] = p;
	argv[n] = NULL;
	return n;
}

static void child_exec(char **argv, const char *dir)
{
	char errpath[1100];
	int nul, err;

	setpgid(0, 0);
	snprintf(errpath, sizeof(errpath), "%s/stderr.txt", dir);
	if (chdir(dir))
		_exit(126);
	nul = open("/dev/null", O_RDONLY);
	err = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (nul >= 0)
		dup2(nul, 0);
	if (err >= 0)
		dup2(err, 2);
	for (int i = 0; i < plan.nenv; i++)
		putenv(plan.env[i]);
	setenv("PERFCHECK_ARTIFACTS", dir, 1);
	{
		char f[32];

		/* the guest's slowdown, for tests that keep timeouts of their own */
		snprintf(f, sizeof(f), "%.2f", factor);
		setenv("PERFCHECK_VM_FACTOR", f, 1);
	}
	execvp(argv[0], argv);
	dprintf(2, "exec %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Relays the child's stdout line by line, adding a newline to a last partial line. */
static int relay(int fd, pid_t pid, double deadline)
{
	char buf[8192];
	int at_bol = 1;

	for (;;) {
		double left = deadline - now_ms();
		struct pollfd pfd = { fd, POLLIN, 0 };
		ssize_t n;
		int ret;

		if (left <= 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			if (!at_bol)
				dprintf(1, "\n");
			return 1;
		}
		ret = poll(&pfd, 1, left > 1000 ? 1000 : (int)left + 1);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (write(1, buf, n) != n)
			break;
		at_bol = buf[n - 1] == '\n';
	}
	if (!at_bol)
		dprintf(1, "\n");
	return 0;
}

/*
 * The machine's busy CPU time in ms (all CPUs, from /proc/stat): a test's
 * share of it beside its wall time says whether it computed or waited
 * (where running tests side by side would pay).  -1 where unreadable.
 */
static double busy_ms(void)
{
	unsigned long long v[8] = { 0 };
	char line[512];
	FILE *f = fopen("/proc/stat", "r");
	long hz = sysconf(_SC_CLK_TCK);
	int n = 0;

	if (f) {
		if (fgets(line, sizeof(line), f))
			n = sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
				   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
		fclose(f);
	}
	if (n < 4 || hz <= 0)
		return -1;
	/* user nice system (idle iowait) irq softirq steal */
	return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) * 1000.0 / (double)hz;
}

/* Returns the wait status, or -1 for a timeout or a test that could not start. */
static int run_test(const char *suite, const char *name, char **argv, int attempt)
{
	char dir[1024], att[32] = "";
	int pfd[2], status = 0, timed_out;
	const char *own = entry_for(plan.ttimeout, plan.nttimeout, suite, name);
	unsigned int timeout = (unsigned int)((own ? atof(own) : plan.timeout_s) * factor + 0.999);
	double t0 = now_ms(), b0 = busy_ms();
	char busy[48] = "";
	pid_t pid;

	snprintf(dir, sizeof(dir), "%s/%s/%s%s", outdir, suite, name, attempt > 1 ? "/retry" : "");
	if (attempt > 1)
		snprintf(att, sizeof(att), " attempt=%d", attempt);
	mkdirs(dir);
	marker("begin %s %s timeout=%u%s", suite, name, timeout, att);
	if (pipe(pfd)) {
		marker("end %s %s status=error:pipe elapsed_ms=0%s", suite, name, att);
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		close(pfd[0]);
		dup2(pfd[1], 1);
		close(pfd[1]);
		child_exec(argv, dir);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		marker("end %s %s status=error:fork elapsed_ms=0%s", suite, name, att);
		return -1;
	}
	timed_out = relay(pfd[0], pid, t0 + timeout * 1000.0);
	close(pfd[0]);
	if (!timed_out) {
		/* output closed: the test may still run (a daemon kept no stdout) */
		while (waitpid(pid, &status, WNOHANG) == 0) {
			if (now_ms() > t0 + timeout * 1000.0) {
				kill(-pid, SIGKILL);
				timed_out = 1;
				break;
			}
			usleep(10000);
		}
	}
	if (timed_out)
		waitpid(pid, &status, 0);
	kill(-pid, SIGKILL);	/* leftovers of the test's group */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	if (b0 >= 0 && busy_ms() >= b0)
		snprintf(busy, sizeof(busy), " busy_ms=%.0f", busy_ms() - b0);
	if (timed_out)
		marker("end %s %s status=timeout elapsed_ms=%.0f%s%s", suite, name, now_ms() - t0, busy, att);
	else if (WIFSIGNALED(status))
		marker("end %s %s status=signal:%d elapsed_ms=%.0f%s%s", suite, name,
		       WTERMSIG(status), now_ms() - t0, busy, att);
	else
		marker("end %s %s status=exit:%d elapsed_ms=%.0f%s%s", suite, name,
		       WEXITSTATUS(status), now_ms() - t0, busy, att);
	return timed_out ? -1 : status;
}

/* A "SUITE NAME ..." entry of LIST for that test: what follows, or NULL. */
static const char *entry_for(char **list, int n, const char *suite, const char *name)
{
	size_t ls = strlen(suite), ln = strlen(name);

	for (int i = 0; i < n; i++) {
		const char *e = list[i];

		if (e && !strncmp(e, suite, ls) && e[ls] == ' ' && !strncmp(e + ls + 1, name, ln) &&
		    (e[ls + 1 + ln] == ' ' || !e[ls + 1 + ln]))
			return e + ls + 1 + ln;
	}
	return NULL;
}

static int may_retry(const char *suite, const char *name)
{
	/* the probe's verdict is a comparison, not a test that can be flaky */
	if (!strcmp(suite, "probe"))
		return 0;
	return !entry_for(plan.noretry, plan.nnoretry, suite, name);
}

/* A failure worth one more try: a failing exit status (4 is kselftest's skip) or a signal. */
static int failed_status(int status)
{
	if (status < 0)
		return 0;	/* a timeout: re-running costs another timeout */
	if (WIFSIGNALED(status))
		return 1;
	return WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 4 && WEXITSTATUS(status) != 127;
}

static void save_dmesg(void)
{
	char path[1100];
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	int n;

	if (size <= 0)
		size = 1 << 20;
	buf = malloc(size);
	if (!buf)
		return;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	snprintf(path, sizeof(path), "%s/dmesg.txt", outdir);
	if (n > 0)
		write_file(path, buf, n);
	free(buf);
}

static void save_identity(void)
{
	struct utsname u;
	char buf[512], path[1100];
	int len;

	if (uname(&u))
		return;
	len = snprintf(buf, sizeof(buf), "%s\n%s\n%s\n", u.release, u.version, u.machine);
	snprintf(path, sizeof(path), "%s/uname.txt", outdir);
	write_file(path, buf, len);
}

/* Writes OUTDIR as a tar onto the raw disk; the host untars the image. */
static void ship_artifacts(void)
{
	double deadline = now_ms() + 10000.0 * factor;
	pid_t pid;
	int status;

	if (!plan.disk[0])
		return;
	/* "serial:NAME": the NVMe disk of that serial (several disks probe in any order) */
	if (!strncmp(plan.disk, "serial:", 7)) {
		char dev[sizeof(plan.disk)];

		if (nvme_by_serial(plan.disk + 7, dev, sizeof(dev), 10000.0 * factor)) {
			marker("artifacts error:no-disk %s", plan.disk);
			return;
		}
		memcpy(plan.disk, dev, sizeof(dev));
	}
	while (access(plan.disk, W_OK) && now_ms() < deadline)
		usleep(20000);
	if (access(plan.disk, W_OK)) {
		marker("artifacts error:no-disk %s", plan.disk);
		return;
	}
	pid = fork();
	if (pid == 0) {
		execl("/bin/busybox", "tar", "-c", "-f", plan.disk, "-C", outdir, ".", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		marker("artifacts error:tar");
		return;
	}
	sync();
	marker("artifacts ok");
}

static int read_plan(const char *path, char ***lines_out)
{
	FILE *f = fopen(path, "r");
	char line[MAX_LINE];
	char **lines = NULL;
	int n = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *copy = strdup(line), *word, *rest;

		if (!copy)
			break;
		word = strtok_r(copy, " \t\n", &rest);
		if (!word || word[0] == '#') {
			free(copy);
			continue;
		}
		if (!strcmp(word, "nonce"))
			snprintf(plan.nonce, sizeof(plan.nonce), "%s", strtok_r(NULL, " \t\n", &rest));
		else if (!strcmp(word, "ref_ns"))
			plan.ref_ns = atof(rest);
		else if (!strcmp(word, "timeout"))
			plan.timeout_s = atof(rest);
		else if (!strcmp(word, "retry"))
			plan.retry = atoi(rest);
		else if (!strcmp(word, "test_timeout") && plan.nttimeout < PLAN_TIMEOUTS) {
			char *sn = strtok_r(NULL, "\n", &rest);

			if (sn)
				plan.ttimeout[plan.nttimeout++] = strdup(sn);
		} else if (!strcmp(word, "jobs")) {
			plan.jobs = atoi(rest);
		} else if (!strcmp(word, "alone") && plan.nalone < 64) {
			char *sn = strtok_r(NULL, "\n", &rest);

			if (sn)
				plan.alone[plan.nalone++] = strdup(sn);
		} else if (!strcmp(word, "image") && plan.nimage < 4) {
			char *sd = strtok_r(NULL, "\n", &rest);

			if (sd)
				plan.image[plan.nimage++] = strdup(sd);
		} else if (!strcmp(word, "noretry") && plan.nnoretry < 64) {
			char *sn = strtok_r(NULL, "\n", &rest);

			if (sn)
				plan.noretry[plan.nnoretry++] = strdup(sn);
		}
		else if (!strcmp(word, "paranoid"))
			snprintf(plan.paranoid, sizeof(plan.paranoid), "%s", strtok_r(NULL, " \t\n", &rest));
		else if (!strcmp(word, "disk"))
			snprintf(plan.disk, sizeof(plan.disk), "%s", strtok_r(NULL, " \t\n", &rest));
		else if (!strcmp(word, "env") && plan.nenv < 32)
			plan.env[plan.nenv++] = strdup(strtok_r(NULL, "\n", &rest));
		else if (!strcmp(word, "run") || !strcmp(word, "sh")) {
			char **grown = realloc(lines, (n + 1) * sizeof(*lines));

			if (!grown)
				break;
			lines = grown;
			lines[n++] = strdup(line);
		}
		free(copy);
	}
	fclose(f);
	*lines_out = lines;
	return n;
}

static const char *skip_words(const char *s, int words)
{
	while (words--) {
		s += strspn(s, " \t");
		s += strcspn(s, " \t\n");
	}
	return s + strspn(s, " \t");
}

/* One test of the plan, parsed once (its words point into the plan line). */
struct item {
	char *suite, *name;
	char *argv[MAX_ARGS];
	char *sh[4];		/* /bin/sh -c LINE for "sh" lines */
	int is_sh, alone;
};

/* A test running in the pool: its output is kept and printed whole when it ends. */
struct slot {
	struct item *it;
	pid_t pid;		/* 0: free */
	int fd, attempt, timed_out, reaped, status;
	unsigned int timeout;
	double t0, deadline, reaped_at;
	char *out;
	size_t len, cap;
};

static void slot_append(struct slot *s, const char *buf, size_t n)
{
	if (s->len + n + 2 > s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 65536;
		char *grown;

		while (cap < s->len + n + 2)
			cap *= 2;
		grown = realloc(s->out, cap);
		if (!grown)
			return;		/* output lost, the verdict kept: the host sees no TAP plan */
		s->out = grown;
		s->cap = cap;
	}
	memcpy(s->out + s->len, buf, n);
	s->len += n;
}

static int slot_start(struct slot *s, struct item *it, int attempt)
{
	char dir[1024], att[32] = "";
	const char *own = entry_for(plan.ttimeout, plan.nttimeout, it->suite, it->name);
	int pfd[2];

	memset(s, 0, sizeof(*s));
	s->it = it;
	s->attempt = attempt;
	/* a test side by side with others shares the CPUs with them: its timeout grows alike */
	s->timeout = (unsigned int)((own ? atof(own) : plan.timeout_s) * factor *
				    (plan.jobs > 1 ? plan.jobs : 1) + 0.999);
	snprintf(dir, sizeof(dir), "%s/%s/%s%s", outdir, it->suite, it->name, attempt > 1 ? "/retry" : "");
	if (attempt > 1)
		snprintf(att, sizeof(att), " attempt=%d", attempt);
	mkdirs(dir);
	if (pipe(pfd))
		return -1;
	s->t0 = now_ms();
	s->deadline = s->t0 + s->timeout * 1000.0;
	s->pid = fork();
	if (s->pid == 0) {
		close(pfd[0]);
		dup2(pfd[1], 1);
		close(pfd[1]);
		child_exec(it->is_sh ? it->sh : it->argv, dir);
	}
	close(pfd[1]);
	if (s->pid < 0) {
		close(pfd[0]);
		s->pid = 0;
		return -1;
	}
	s->fd = pfd[0];
	/* the host's watchdog: this test may run until its timeout */
	marker("start %s %s timeout=%u%s", it->suite, it->name, s->timeout, att);
	return 0;
}

/* Prints a finished test as the sequential runner would have, all at once. */
static void slot_finish(struct slot *s)
{
	struct item *it = s->it;
	char att[32] = "";
	double ms = now_ms() - s->t0;

	if (s->attempt > 1)
		snprintf(att, sizeof(att), " attempt=%d", s->attempt);
	marker("begin %s %s timeout=%u%s", it->suite, it->name, s->timeout, att);
	if (s->len && s->out[s->len - 1] != '\n')
		slot_append(s, "\n", 1);
	for (size_t at = 0; at < s->len;) {
		ssize_t n = write(1, s->out + at, s->len - at);

		if (n <= 0)
			break;
		at += (size_t)n;
	}
	if (s->timed_out)
		marker("end %s %s status=timeout elapsed_ms=%.0f%s", it->suite, it->name, ms, att);
	else if (WIFSIGNALED(s->status))
		marker("end %s %s status=signal:%d elapsed_ms=%.0f%s", it->suite, it->name,
		       WTERMSIG(s->status), ms, att);
	else
		marker("end %s %s status=exit:%d elapsed_ms=%.0f%s", it->suite, it->name,
		       WEXITSTATUS(s->status), ms, att);
	free(s->out);
	s->out = NULL;
	s->pid = 0;
}

/*
 * Waits until a slot of the pool finishes (or all, with ALL): relays their
 * output into their buffers, kills those past their timeout, reaps them and
 * any orphan.  A failed test that may be re-run is queued in RETRY.
 */
static void pool_wait(struct slot *pool, int jobs, int all, struct slot *retry, int *nretry, int maxretry)
{
	for (;;) {
		struct pollfd pfd[16];
		int map[16], np = 0, running = 0, finished = 0;
		double now = now_ms();
		pid_t pid;
		int st;

		for (int i = 0; i < jobs; i++) {
			struct slot *s = &pool[i];

			if (!s->pid)
				continue;
			running++;
			if (!s->reaped && !s->timed_out && now > s->deadline) {
				kill(-s->pid, SIGKILL);
				kill(s->pid, SIGKILL);
				s->timed_out = 1;
			}
			if (s->fd >= 0) {
				pfd[np] = (struct pollfd){ s->fd, POLLIN, 0 };
				map[np++] = i;
			}
		}
		if (!running)
			return;
		if (np)
			poll(pfd, np, 100);
		else
			usleep(10000);
		for (int k = 0; k < np; k++) {
			struct slot *s = &pool[map[k]];
			char buf[8192];
			ssize_t n;

			if (!(pfd[k].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			n = read(s->fd, buf, sizeof(buf));
			if (n > 0)
				slot_append(s, buf, (size_t)n);
			else if (n == 0 || errno != EINTR) {
				close(s->fd);
				s->fd = -1;
			}
		}
		/* reap: our tests, and orphans reparented to PID 1 */
		while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
			for (int i = 0; i < jobs; i++) {
				if (pool[i].pid == pid && !pool[i].reaped) {
					pool[i].reaped = 1;
					pool[i].reaped_at = now_ms();
					pool[i].status = st;
					/* leftovers of its group keep no pipe open */
					kill(-pid, SIGKILL);
				}
			}
		}
		for (int i = 0; i < jobs; i++) {
			struct slot *s = &pool[i];

			/* a process outside its group may hold the pipe: not for long */
			if (s->pid && s->reaped && s->fd >= 0 && now_ms() > s->reaped_at + 2000) {
				close(s->fd);
				s->fd = -1;
			}
			if (!s->pid || !s->reaped || s->fd >= 0)
				continue;
			int status = s->timed_out ? -1 : s->status;
			struct item *it = s->it;
			int attempt = s->attempt;

			slot_finish(s);
			finished++;
			if (may_retry(it->suite, it->name) && !it->is_sh && attempt <= plan.retry &&
			    failed_status(status) && *nretry < maxretry) {
				retry[*nretry].it = it;
				retry[(*nretry)++].attempt = attempt + 1;
			}
		}
		if (finished && !all)
			return;
	}
}

/*
 * The plan's tests in order.  With "jobs N" (N > 1), "run" tests go to a
 * pool of N running side by side, each printed whole when it ends; "sh"
 * lines and tests the plan names "alone" wait for the pool to drain and run
 * by themselves.  Failed tests are re-run by themselves after the others.
 */
static void run_plan(char **lines, int n)
{
	struct item *items = calloc(n > 0 ? n : 1, sizeof(*items));
	struct slot pool[16], *retry = calloc(n > 0 ? n : 1, sizeof(*retry));
	int jobs = plan.jobs < 1 ? 1 : plan.jobs > 16 ? 16 : plan.jobs, nretry = 0;

	if (!items || !retry)
		return;
	memset(pool, 0, sizeof(pool));
	for (int i = 0; i < n; i++) {
		struct item *it = &items[i];
		char *cmd = strdup(skip_words(lines[i], 3));
		int argc = split(lines[i], it->argv, MAX_ARGS);

		if (!cmd || argc < 4) {
			free(cmd);
			it->suite = NULL;
			continue;
		}
		cmd[strcspn(cmd, "\n")] = '\0';
		it->is_sh = !strcmp(it->argv[0], "sh");
		it->suite = it->argv[1];
		it->name = it->argv[2];
		memmove(it->argv, it->argv + 3, (MAX_ARGS - 3) * sizeof(char *));
		it->sh[0] = "/bin/sh";
		it->sh[1] = "-c";
		it->sh[2] = cmd;
		it->alone = jobs == 1 || it->is_sh || entry_for(plan.alone, plan.nalone, it->suite, it->name);
	}
	for (int i = 0; i < n; i++) {
		struct item *it = &items[i];

		if (!it->suite)
			continue;
		if (it->alone) {
			pool_wait(pool, jobs, 1, retry, &nretry, n);
			if (it->is_sh) {
				run_test(it->suite, it->name, it->sh, 1);
				continue;
			}
			int status = run_test(it->suite, it->name, it->argv, 1);

			for (int a = 2; may_retry(it->suite, it->name) && a <= plan.retry + 1 &&
					failed_status(status); a++)
				status = run_test(it->suite, it->name, it->argv, a);
			continue;
		}
		int free_slot = -1;

		for (;;) {
			for (int k = 0; k < jobs && free_slot < 0; k++)
				if (!pool[k].pid)
					free_slot = k;
			if (free_slot >= 0)
				break;
			pool_wait(pool, jobs, 0, retry, &nretry, n);
		}
		if (slot_start(&pool[free_slot], it, 1))
			marker("end %s %s status=error:fork elapsed_ms=0", it->suite, it->name);
	}
	pool_wait(pool, jobs, 1, retry, &nretry, n);
	/*
	 * The slowdown measured at boot may be long gone: rows that boot while
	 * the host is quiet slow down as the others start (7.2 booted at 5.1 and
	 * then ran four times slower, 2026-11-26).  Measured again before the
	 * re-runs, the larger factor scales their timeouts.
	 */
	if (nretry && plan.ref_ns > 0) {
		double now = calibrate() / plan.ref_ns;

		if (now > factor) {
			factor = now > 100 ? 100 : now;
			marker("note speed factor %.2f before the re-runs", factor);
		}
	}
	/* re-runs by themselves: a failure that came from running beside others shows as flaky */
	for (int r = 0; r < nretry; r++) {
		struct item *it = retry[r].it;
		int status = -1;

		for (int a = retry[r].attempt; a <= plan.retry + 1; a++) {
			status = run_test(it->suite, it->name, it->argv, a);
			if (!failed_status(status))
				break;
		}
	}
	free(retry);
}

static void power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	const char *plan_path = "/perfcheck/plan";
	char **lines = NULL;
	struct utsname u;
	double boot_ms, calib;
	int n;

	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "--facts"))
		return print_facts(argc == 3 ? argv[2] : NULL);
	if (argc == 2 && !strcmp(argv[1], "--calibrate")) {
		printf("%.0f\n", calibrate());
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "--host")) {
		plan_path = argv[2];
		outdir = argv[3];
	} else if (getpid() == 1) {
		guest = 1;
	} else {
		fprintf(stderr, "usage: init --host PLAN OUTDIR | init --calibrate | init --facts "
				"(or as PID 1 of a perfcheck guest)\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	if (guest)
		guest_setup();
	boot_ms = 0;
	if (guest) {
		struct timespec ts;

		/* CLOCK_BOOTTIME counts from the kernel's start: boot-to-init time */
		clock_gettime(CLOCK_BOOTTIME, &ts);
		boot_ms = ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
	}
	n = read_plan(plan_path, &lines);
	if (n < 0) {
		printf("PCVM:?:fatal cannot read plan %s: %s\n", plan_path, strerror(-n));
		if (guest)
			power_off();
		return 1;
	}
	mkdirs(outdir);
	if (guest)
		attach_images();
	calib = calibrate();
	if (plan.ref_ns > 0 && calib > plan.ref_ns)
		factor = calib / plan.ref_ns;
	if (factor > 100)
		factor = 100;
	uname(&u);
	marker("hello release=%s machine=%s boot_ms=%.0f calib_ns=%.0f ref_ns=%.0f factor=%.2f tests=%d",
	       u.release, u.machine, boot_ms, calib, plan.ref_ns, factor, n);
	if (guest)
		set_paranoid();
	save_identity();
	run_plan(lines, n);
	/* the host row keeps its own log: old host messages are not this run's */
	if (guest) {
		save_dmesg();
		ship_artifacts();
	}
	marker("done");
	if (guest)
		power_off();
	return 0;
}
