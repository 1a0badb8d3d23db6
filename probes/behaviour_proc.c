// SPDX-License-Identifier: GPL-2.0
/*
 * The workloads of the behaviour checks: a child held on a pipe until its
 * events are open, an exec stub (a tiny static ELF in a memfd, so that an
 * exec needs no file of the machine and does known work), page touching
 * (one page fault per page) and CPU spinning.
 */
#include "probes/behaviour_int.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double bh_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

double bh_thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void bh_spin_ms(double ms)
{
	double end = bh_thread_cpu_ms() + ms;
	volatile unsigned long x = 0;

	while (bh_thread_cpu_ms() < end)
		for (int i = 0; i < 10000; i++)
			x++;
}

/*
 * A few milliseconds of CPU time in a QEMU TCG guest on a loaded host can
 * pass with few or no timer interrupts (0 cpu-clock samples in 3 ms at 100
 * us, twice, in the 7.2 guest; 5 where 30 were due in the 6.1 and 6.12
 * guests: 2026-11-23), and a check that saw no sample cannot tell anything.
 */
void bh_spin_for_records(const struct bh_ring *ring, double ms)
{
	bh_spin_ms(ms);
	for (int i = 0; i < 500 && !bh_ring_head(ring); i++)
		bh_spin_ms(1);
}

int bh_touch_pages(size_t n)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -errno;
	madvise((void *)p, n * page, MADV_NOHUGEPAGE);	/* one fault per page, even under THP */
	for (size_t i = 0; i < n; i++)
		p[i * page] = 1;
	munmap((void *)p, n * page);
	return 0;
}

int bh_child_start(struct bh_child *c, void (*fn)(void *arg), void *arg)
{
	int p[2];
	char go;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	c->pid = fork();
	if (c->pid < 0) {
		int e = errno;

		close(p[0]);
		close(p[1]);
		return -e;
	}
	if (c->pid == 0) {
		close(p[1]);
		while (read(p[0], &go, 1) < 0 && errno == EINTR)
			;
		close(p[0]);
		fn(arg);
		_exit(0);
	}
	close(p[0]);
	c->go_fd = p[1];
	return 0;
}

int bh_child_go(struct bh_child *c)
{
	ssize_t n = write(c->go_fd, "g", 1);

	close(c->go_fd);
	c->go_fd = -1;
	return n == 1 ? 0 : -EPIPE;
}

int bh_child_wait(struct bh_child *c, int timeout_ms)
{
	double end = bh_now_ms() + timeout_ms;
	int status;

	if (c->go_fd >= 0) {
		close(c->go_fd);	/* a child never released reads EOF and runs */
		c->go_fd = -1;
	}
	for (;;) {
		pid_t w = waitpid(c->pid, &status, WNOHANG);
		struct timespec ts = { 0, 1000000 };

		if (w == c->pid)
			return status;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (bh_now_ms() > end) {
			kill(c->pid, SIGKILL);
			waitpid(c->pid, &status, 0);
			return -ETIMEDOUT;
		}
		nanosleep(&ts, NULL);
	}
}

/* ---- the exec stub ---- */

/*
 * The program, for each architecture: p = mmap(0, LEN, RW, PRIVATE|ANON,
 * -1, 0); madvise(p, LEN, MADV_NOHUGEPAGE) (one fault per page, also where
 * THP would back the range); write one byte in each of PAGES pages;
 * exit_group(0).  LEN and PAGES are literals after the code, at
 * STUB_LEN_AT and STUB_PAGES_AT.
 */
#if defined(__x86_64__)
#define STUB_MACHINE EM_X86_64
static const uint8_t stub_code[] = {
	0xb8, 0x09, 0x00, 0x00, 0x00,			/* mov $9, %eax (mmap) */
	0x31, 0xff,					/* xor %edi, %edi */
	0x48, 0x8b, 0x35, 0x52, 0x00, 0x00, 0x00,	/* mov LEN(%rip), %rsi */
	0xba, 0x03, 0x00, 0x00, 0x00,			/* mov $3, %edx (PROT_READ|PROT_WRITE) */
	0x41, 0xba, 0x22, 0x00, 0x00, 0x00,		/* mov $0x22, %r10d (MAP_PRIVATE|MAP_ANONYMOUS) */
	0x49, 0xc7, 0xc0, 0xff, 0xff, 0xff, 0xff,	/* mov $-1, %r8 */
	0x45, 0x31, 0xc9,				/* xor %r9d, %r9d */
	0x0f, 0x05,					/* syscall */
	0x49, 0x89, 0xc4,				/* mov %rax, %r12 */
	0x48, 0x89, 0xc7,				/* mov %rax, %rdi */
	0x48, 0x8b, 0x35, 0x2e, 0x00, 0x00, 0x00,	/* mov LEN(%rip), %rsi */
	0xba, 0x0f, 0x00, 0x00, 0x00,			/* mov $15, %edx (MADV_NOHUGEPAGE) */
	0xb8, 0x1c, 0x00, 0x00, 0x00,			/* mov $28, %eax (madvise) */
	0x0f, 0x05,					/* syscall */
	0x4c, 0x89, 0xe7,				/* mov %r12, %rdi */
	0x8b, 0x0d, 0x21, 0x00, 0x00, 0x00,		/* mov PAGES(%rip), %ecx */
	0xc6, 0x07, 0x01,				/* 1: movb $1, (%rdi) */
	0x48, 0x81, 0xc7, 0x00, 0x10, 0x00, 0x00,	/* add $4096, %rdi */
	0xff, 0xc9,					/* dec %ecx */
	0x75, 0xf2,					/* jnz 1b */
	0xb8, 0xe7, 0x00, 0x00, 0x00,			/* mov $231, %eax (exit_group) */
	0x31, 0xff,					/* xor %edi, %edi */
	0x0f, 0x05,					/* syscall */
	0x66, 0x90,					/* nop (aligns the literals) */
	0, 0, 0, 0, 0, 0, 0, 0,				/* LEN (u64) */
	0, 0, 0, 0, 0, 0, 0, 0,				/* PAGES (u32, padded) */
};
#elif defined(__aarch64__)
#define STUB_MACHINE EM_AARCH64
static const uint8_t stub_code[] = {
	0xc8, 0x1b, 0x80, 0xd2,		/* mov x8, #222 (mmap) */
	0x00, 0x00, 0x80, 0xd2,		/* mov x0, #0 */
	0xc1, 0x02, 0x00, 0x58,		/* ldr x1, LEN */
	0x62, 0x00, 0x80, 0xd2,		/* mov x2, #3 (PROT_READ|PROT_WRITE) */
	0x43, 0x04, 0x80, 0xd2,		/* mov x3, #0x22 (MAP_PRIVATE|MAP_ANONYMOUS) */
	0x04, 0x00, 0x80, 0x92,		/* mov x4, #-1 */
	0x05, 0x00, 0x80, 0xd2,		/* mov x5, #0 */
	0x01, 0x00, 0x00, 0xd4,		/* svc #0 */
	0xe9, 0x03, 0x00, 0xaa,		/* mov x9, x0 */
	0xe1, 0x01, 0x00, 0x58,		/* ldr x1, LEN */
	0xe2, 0x01, 0x80, 0xd2,		/* mov x2, #15 (MADV_NOHUGEPAGE) */
	0x28, 0x1d, 0x80, 0xd2,		/* mov x8, #233 (madvise) */
	0x01, 0x00, 0x00, 0xd4,		/* svc #0 */
	0xe0, 0x03, 0x09, 0xaa,		/* mov x0, x9 */
	0x86, 0x01, 0x00, 0x18,		/* ldr w6, PAGES */
	0x27, 0x00, 0x80, 0x52,		/* mov w7, #1 */
	0x07, 0x00, 0x00, 0x39,		/* 1: strb w7, [x0] */
	0x00, 0x04, 0x40, 0x91,		/* add x0, x0, #4096 */
	0xc6, 0x04, 0x00, 0x71,		/* subs w6, w6, #1 */
	0xa1, 0xff, 0xff, 0x54,		/* b.ne 1b */
	0x00, 0x00, 0x80, 0xd2,		/* mov x0, #0 */
	0xc8, 0x0b, 0x80, 0xd2,		/* mov x8, #94 (exit_group) */
	0x01, 0x00, 0x00, 0xd4,		/* svc #0 */
	0x1f, 0x20, 0x03, 0xd5,		/* nop (aligns the literals) */
	0, 0, 0, 0, 0, 0, 0, 0,		/* LEN (u64) */
	0, 0, 0, 0, 0, 0, 0, 0,		/* PAGES (u32, padded) */
};
#endif
#define STUB_VADDR 0x400000ULL
#define STUB_LEN_AT 0x60
#define STUB_PAGES_AT 0x68

/* a file descriptor open for reading only: exec refuses a file open for writing (ETXTBSY) */
static int reopen_ro(int fd)
{
	char path[64];
	int ro;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ro = open(path, O_RDONLY | O_CLOEXEC);
	close(fd);
	return ro;
}

static int write_all(int fd, const void *buf, size_t len)
{
	return write(fd, buf, len) == (ssize_t)len ? 0 : -EIO;
}

int bh_stub_create(struct bh_stub *st, unsigned int pages)
{
#ifdef STUB_MACHINE
	uint8_t image[sizeof(Elf64_Ehdr) + sizeof(Elf64_Phdr) + sizeof(stub_code)];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)image;
	Elf64_Phdr *ph = (Elf64_Phdr *)(image + sizeof(*eh));
	uint8_t *code = image + sizeof(*eh) + sizeof(*ph);
	uint32_t len = pages * 4096u;
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (pages == 0 || pages > 65536)
		return -EINVAL;
	memset(image, 0, sizeof(image));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = STUB_MACHINE;
	eh->e_version = EV_CURRENT;
	eh->e_entry = STUB_VADDR + sizeof(*eh) + sizeof(*ph);
	eh->e_phoff = sizeof(*eh);
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 1;
	ph->p_type = PT_LOAD;
	ph->p_flags = PF_R | PF_X;
	ph->p_vaddr = ph->p_paddr = STUB_VADDR;
	ph->p_filesz = ph->p_memsz = sizeof(image);
	ph->p_align = 4096;
	memcpy(code, stub_code, sizeof(stub_code));
	memcpy(code + STUB_LEN_AT, &len, 4);
	memcpy(code + STUB_PAGES_AT, &pages, 4);

	st->fd = -1;
	st->path[0] = '\0';
	fd = (int)syscall(SYS_memfd_create, "perfcheck-stub", MFD_CLOEXEC);
	if (fd >= 0 && write_all(fd, image, sizeof(image)) == 0)
		st->fd = reopen_ro(fd);
	else if (fd >= 0)
		close(fd);
	snprintf(st->path, sizeof(st->path), "%s/perfcheck-stub-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkostemp(st->path, O_CLOEXEC);
	if (fd < 0 || write_all(fd, image, sizeof(image)) < 0 || fchmod(fd, 0700) < 0) {
		if (fd >= 0) {
			close(fd);
			unlink(st->path);
		}
		st->path[0] = '\0';
	} else {
		close(fd);
	}
	return st->fd >= 0 || st->path[0] ? 0 : -errno;
#else
	st->fd = -1;
	st->path[0] = '\0';
	return -ENOEXEC;
#endif
}

int bh_stub_exec(const struct bh_stub *st)
{
	char *argv[] = { "perfcheck-stub", NULL };
	char *envp[] = { NULL };
	int e = ENOENT;

	if (st->fd >= 0) {
		syscall(SYS_execveat, st->fd, "", argv, envp, AT_EMPTY_PATH);
		e = errno;
	}
	if (st->path[0]) {
		execve(st->path, argv, envp);
		e = errno;
	}
	return -e;
}

void bh_stub_free(struct bh_stub *st)
{
	if (st->fd >= 0)
		close(st->fd);
	if (st->path[0])
		unlink(st->path);
	st->fd = -1;
	st->path[0] = '\0';
}

void bh_stub_status(struct pc_behaviour_result *r, int status)
{
	if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) > BH_EXEC_FAILED_BASE)
		bh_not_tested(r, "the exec of the stub failed: %s",
			      strerror(WEXITSTATUS(status) - BH_EXEC_FAILED_BASE));
	else
		bh_not_tested(r, "the exec stub did not run to exit 0 (wait status %#x)", status);
}
