// SPDX-License-Identifier: GPL-2.0
/*
 * The supervisor: fork, install the filter in the child (no new privileges,
 * then SECCOMP_FILTER_FLAG_NEW_LISTENER), hand the listener to the parent
 * over a socket, exec.  The parent answers each notification: it reads the
 * attr from the child's memory, asks the model, and either fails the call
 * with the model's errno or lets it go on to the real kernel.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "emulate/emulate.h"
#include "util/log.h"

#if defined(__x86_64__)
#define EMU_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define EMU_AUDIT_ARCH AUDIT_ARCH_AARCH64
#else
#error "perfcheck emulate: no seccomp arch for this architecture"
#endif

/* perf_event_open of this architecture goes to us; every other call is allowed. */
static int install_filter(void)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, EMU_AUDIT_ARCH, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_perf_event_open, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(code) / sizeof(code[0]), .filter = code };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
}

static int send_fd(int sock, int fd, int code)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { &code, sizeof(code) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (fd >= 0) {
		struct cmsghdr *c;

		msg.msg_control = cbuf;
		msg.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	return sendmsg(sock, &msg, 0) < 0 ? -1 : 0;
}

/* The listener fd, or -errno the child reported (code: 0 ok, errno of a failed step). */
static int recv_fd(int sock, int *code)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { code, sizeof(*code) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	int fd = -1;
	ssize_t n;

	do
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n != (ssize_t)sizeof(*code))
		return -EPIPE;
	for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

/* Child: filter, then exec; steps that fail are told to the parent (exit 127). */
static void child(int sock, int exec_err_fd, char *const argv[])
{
	int listener = install_filter();
	int e;

	if (listener < 0) {
		e = errno;
		send_fd(sock, -1, e);
		_exit(127);
	}
	if (send_fd(sock, listener, 0))
		_exit(127);
	close(listener);
	close(sock);
	execvp(argv[0], argv);
	e = errno;
	if (write(exec_err_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* Reads the attr the call points at: the size field first, then that many bytes. */
static int read_attr(pid_t pid, uint64_t addr, union pc_attr *attr, uint32_t *size)
{
	struct iovec local, remote;
	uint32_t head[2];

	local = (struct iovec){ head, sizeof(head) };
	remote = (struct iovec){ (void *)(uintptr_t)addr, sizeof(head) };
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t)sizeof(head))
		return -EFAULT;
	*size = head[1];
	memset(attr, 0, sizeof(*attr));
	local = (struct iovec){ attr->bytes, sizeof(attr->bytes) };
	remote = (struct iovec){ (void *)(uintptr_t)addr, sizeof(attr->bytes) };
	if (*size && *size < sizeof(attr->bytes))
		local.iov_len = remote.iov_len = *size;
	if (!*size)
		local.iov_len = remote.iov_len = PERF_ATTR_SIZE_VER0;
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t)local.iov_len)
		return -EFAULT;
	return 0;
}

static void write_size(pid_t pid, uint64_t addr, uint32_t size)
{
	struct iovec local = { &size, sizeof(size) };
	struct iovec remote = { (void *)(uintptr_t)(addr + offsetof(struct perf_event_attr, size)),
				sizeof(size) };

	if (process_vm_writev(pid, &local, 1, &remote, 1, 0) != (ssize_t)sizeof(size))
		pc_debug("emulate: cannot write the attr size back into %d\n", (int)pid);
}

void emu_feature_list(uint64_t set, char *out, size_t size)
{
	size_t len = 0;

	out[0] = '\0';
	for (int f = 0; f < PC_FEAT__COUNT && len + 1 < size; f++)
		if ((set >> f) & 1)
			len += snprintf(out + len, size - len, "%s%s", len ? "," : "",
					pc_feature_name(f));
	if (!len)
		snprintf(out, size, "-");
}

static uint64_t features_of(const union pc_attr *attr, unsigned long flags)
{
	uint64_t f = 0;

	for (int i = 0; i < PC_FEAT__COUNT; i++)
		if (pc_feature_requested(i, attr, flags))
			f |= 1ULL << i;
	return f;
}

static int answer(int listener, const struct pc_kernel_model *k, struct seccomp_notif *req,
		  struct seccomp_notif_resp *resp, emu_call_fn on_call, void *ctx)
{
	struct emu_call call = { .tid = (pid_t)req->pid };
	uint64_t addr = req->data.args[0];
	unsigned long flags = (unsigned long)req->data.args[4];
	union pc_attr attr;

	memset(resp, 0, sizeof(*resp));
	resp->id = req->id;
	if (read_attr(req->pid, addr, &attr, &call.size) == 0) {
		call.type = attr.attr.type;
		call.config = attr.attr.config;
		call.period = attr.attr.sample_period;
		call.features = features_of(&attr, flags);
		call.verdict = pc_kernel_model_decide(k, &attr.attr, flags, &call.answered_size);
	}
	/* the attr may have changed hands: only answer a call that is still waiting */
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id))
		return 0;
	if (call.verdict) {
		if (call.verdict == E2BIG)
			write_size(req->pid, addr, call.answered_size);
		resp->error = -call.verdict;
	} else {
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	}
	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, resp) && errno != ENOENT)
		return -errno;
	if (pc_log_on(PC_LOG_INFO)) {
		char asked[512], lacks[512], size[48] = "";

		emu_feature_list(call.features, asked, sizeof(asked));
		emu_feature_list(call.features & ~k->features, lacks, sizeof(lacks));
		if (call.verdict == E2BIG)
			snprintf(size, sizeof(size), ", attr.size %u written back", call.answered_size);
		pc_info("emulate %s: tid %d: perf_event_open(type %u, config %#llx, size %u, "
			"features %s): %s%s%s%s\n", k->name, (int)call.tid, call.type,
			(unsigned long long)call.config, call.size, asked,
			call.verdict ? strerror(call.verdict) : "to the real kernel", size,
			call.verdict && strcmp(lacks, "-") ? "; the model lacks " : "",
			call.verdict && strcmp(lacks, "-") ? lacks : "");
	}
	if (on_call)
		on_call(&call, ctx);
	return 0;
}

static int supervise(int listener, pid_t pid, const struct pc_kernel_model *k,
		     emu_call_fn on_call, void *ctx, struct pc_error *err)
{
	struct seccomp_notif_sizes sizes;
	struct seccomp_notif *req = NULL;
	struct seccomp_notif_resp *resp = NULL;
	int pidfd, status = 0, ret = 0;

	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes))
		return pc_error_set(err, errno, "seccomp notification sizes: %s", strerror(errno));
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	req = calloc(1, sizes.seccomp_notif > sizeof(*req) ? sizes.seccomp_notif : sizeof(*req));
	resp = calloc(1, sizes.seccomp_notif_resp > sizeof(*resp) ? sizes.seccomp_notif_resp
								   : sizeof(*resp));
	if (pidfd < 0 || !req || !resp) {
		ret = pc_error_set(err, pidfd < 0 ? errno : ENOMEM, "emulate: %s",
				   pidfd < 0 ? strerror(errno) : "out of memory");
		goto out;
	}
	for (;;) {
		struct pollfd pfd[2] = { { listener, POLLIN, 0 }, { pidfd, POLLIN, 0 } };

		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			ret = pc_error_set(err, errno, "poll: %s", strerror(errno));
			break;
		}
		if (pfd[0].revents & POLLIN) {
			memset(req, 0, sizes.seccomp_notif);
			if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, req) == 0) {
				ret = answer(listener, k, req, resp, on_call, ctx);
				if (ret) {
					pc_error_set(err, -ret, "seccomp answer: %s", strerror(-ret));
					break;
				}
			}
			continue;
		}
		if (pfd[1].revents & POLLIN)
			break;
	}
out:
	if (pidfd >= 0)
		close(pidfd);
	free(req);
	free(resp);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (ret)
		return ret;
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

int emu_run(const struct pc_kernel_model *k, char *const argv[], const struct emu_opts *opts,
	    struct pc_error *err)
{
	int sv[2], ex[2], code = 0, listener, e = 0, ret;
	pid_t pid;
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return pc_error_set(err, errno, "socketpair: %s", strerror(errno));
	if (pipe2(ex, O_CLOEXEC)) {
		close(sv[0]);
		close(sv[1]);
		return pc_error_set(err, errno, "pipe: %s", strerror(errno));
	}
	pid = fork();
	if (pid < 0) {
		e = errno;
		close(sv[0]); close(sv[1]); close(ex[0]); close(ex[1]);
		return pc_error_set(err, e, "fork: %s", strerror(e));
	}
	if (pid == 0) {
		close(sv[0]);
		close(ex[0]);
		if (opts->quiet) {
			int null = open("/dev/null", O_WRONLY);

			if (null >= 0) {
				dup2(null, STDOUT_FILENO);
				dup2(null, STDERR_FILENO);
				close(null);
			}
		}
		child(sv[1], ex[1], argv);
	}
	close(sv[1]);
	close(ex[1]);
	listener = recv_fd(sv[0], &code);
	close(sv[0]);
	if (listener < 0) {
		close(ex[0]);
		waitpid(pid, NULL, 0);
		return pc_error_set(err, code ? code : EPIPE,
				    "cannot install the seccomp filter: %s (kernel before 5.5, "
				    "or seccomp refused)", strerror(code ? code : EPIPE));
	}
	ret = supervise(listener, pid, k, opts->on_call, opts->ctx, err);
	close(listener);
	do
		n = read(ex[0], &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(ex[0]);
	if (ret >= 0 && n == (ssize_t)sizeof(e))
		return pc_error_set(err, e, "cannot run '%s': %s", argv[0], strerror(e));
	return ret;
}
