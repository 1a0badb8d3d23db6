// SPDX-License-Identifier: GPL-2.0
/*
 * The finding table: a few perf commands under each kernel model.  For
 * every run: the opens perf made, those the model refused (errno and the
 * features asked), and the features perf gave up although that kernel has
 * them (perf's ladder stops at the first change that works and assumes the
 * older features went with it).  The reference is the same command under
 * the newest model, where nothing it asks is refused by the emulation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emulate/emulate.h"

struct tally {
	const struct pc_kernel_model *model;
	int opens, refused;
	uint64_t accepted;		/* features of the opens that went on */
	uint64_t refused_features;	/* features of refused opens that the model lacks */
	char errnos[128];		/* "E2BIG,EINVAL" as refused, in order */
};

static void count_call(const struct emu_call *call, void *ctx)
{
	struct tally *t = ctx;
	const char *name = pc_errno_name(call->verdict);
	size_t len = strlen(t->errnos);

	t->opens++;
	if (!call->verdict) {
		t->accepted |= call->features;
		return;
	}
	t->refused++;
	t->refused_features |= call->features & ~t->model->features;
	if (len + 16 < sizeof(t->errnos) && !strstr(t->errnos, name ? name : "?"))
		snprintf(t->errnos + len, sizeof(t->errnos) - len, "%s%s", len ? "," : "",
			 name ? name : "?");
}

static void feature_list(uint64_t set, char *out, size_t size)
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

int emu_report(const char *perf_path, struct pc_error *err)
{
	static const char *const kernels[] = { "5.10", "6.1", "6.12", "7.2" };
	char dir[] = "/tmp/perfcheck-emulate-XXXXXX", out[sizeof(dir) + 16];
	const char *const cmds[][8] = {
		{ "record", "-q", "-o", out, "--", "true" },
		{ "record", "-q", "-g", "-o", out, "--", "true" },
		{ "record", "-q", "-e", "cpu-clock", "--call-graph", "dwarf", "-o", out },
		{ "stat", "-e", "task-clock,page-faults", "--", "true" },
	};
	const struct pc_kernel_model *newest = pc_kernel_model_find("7.2");

	if (!mkdtemp(dir))
		return pc_error_set(err, errno, "mkdtemp: %s", strerror(errno));
	snprintf(out, sizeof(out), "%s/perf.data", dir);
	printf("%-6s %-28s %5s %7s  %-12s %-28s %s\n", "kernel", "command", "opens", "refused",
	       "errnos", "refused features", "given up although the kernel has it");
	for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
		struct tally ref = { .model = newest };
		struct emu_opts opts = { count_call, &ref, true };
		char *argv[12], line[128];
		size_t n = 0, len = 0;
		int ret;

		argv[n++] = (char *)perf_path;
		for (size_t i = 0; i < 8 && cmds[c][i]; i++)
			argv[n++] = (char *)cmds[c][i];
		/* dwarf: a command to record; the others carry theirs */
		if (!strcmp(cmds[c][2], "-e") && strcmp(cmds[c][0], "stat")) {
			argv[n++] = "--";
			argv[n++] = "true";
		}
		argv[n] = NULL;
		for (size_t i = 1; i < n; i++)
			if (strcmp(argv[i], out) && strcmp(argv[i], "-q") && strcmp(argv[i], "-o"))
				len += snprintf(line + len, sizeof(line) - len, "%s%s",
						len ? " " : "", argv[i]);
		ret = emu_run(newest, argv, &opts, err);
		if (ret < 0) {
			remove(out);
			rmdir(dir);
			return ret;
		}
		for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
			const struct pc_kernel_model *m = pc_kernel_model_find(kernels[k]);
			struct tally t = { .model = m };
			char given_up[512], refused[512];

			opts.ctx = &t;
			ret = emu_run(m, argv, &opts, err);
			if (ret < 0) {
				remove(out);
				rmdir(dir);
				return ret;
			}
			feature_list(ref.accepted & ~t.accepted & m->features, given_up,
				     sizeof(given_up));
			feature_list(t.refused_features, refused, sizeof(refused));
			printf("%-6s %-28.28s %5d %7d  %-12s %-28s %s\n", m->name, line, t.opens,
			       t.refused, t.refused ? t.errnos : "-", refused, given_up);
			remove(out);
		}
	}
	rmdir(dir);
	return 0;
}
