// SPDX-License-Identifier: GPL-2.0
/* perfcheck script: the samples of a perf.data file as perf script prints them. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "reader/dump.h"
#include "reader/print.h"
#include "reader/session.h"
#include "util/log.h"

static void usage(FILE *f)
{
	fprintf(f,
"usage: perfcheck script [-i FILE] [-F FIELDS] [--no-merge-callchains]\n"
"                        [--merge-late-deferred] [--compat 6.1|7.2] [--symfs DIR] [-v]\n"
"       perfcheck script -D [--header] [-i FILE]\n"
"\n"
"Prints the samples of a perf.data file in perf script's layout.\n"
"\n"
"  -i, --input FILE          the file to read (default perf.data; - for stdin)\n"
"  -F, --fields LIST         fields to show: %s\n"
"                            (+f,-f edit the default)\n"
"      --no-merge-callchains deferred user callchains shown as their own records\n"
"      --merge-callchains    merge them into their samples (the default)\n"
"      --merge-late-deferred also merge samples taken after their deferred record\n"
"      --compat VERSION      layout of perf 7.2 (default) or 6.1 (5-column pids,\n"
"                            map-relative user addresses in callchains)\n"
"      --symfs DIR           look DSOs up under DIR, never in this machine's\n"
"                            files, and leave kernel addresses unresolved\n"
"  -D, --dump-raw-trace      every record with its offset, size and fields\n"
"      --header              the attrs and header features first (as comments)\n"
"  -v, --verbose             merge statistics on stderr\n"
"  -h, --help                this help\n", rd_fields_names());
}

enum { OPT_NO_MERGE = 256, OPT_MERGE, OPT_LATE, OPT_COMPAT, OPT_HEADER, OPT_SYMFS };

static const struct option options[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "fields", required_argument, NULL, 'F' },
	{ "no-merge-callchains", no_argument, NULL, OPT_NO_MERGE },
	{ "merge-callchains", no_argument, NULL, OPT_MERGE },
	{ "merge-late-deferred", no_argument, NULL, OPT_LATE },
	{ "compat", required_argument, NULL, OPT_COMPAT },
	{ "dump-raw-trace", no_argument, NULL, 'D' },
	{ "header", no_argument, NULL, OPT_HEADER },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

int cmd_script(int argc, char **argv)
{
	struct rd_printer pr = { .compat = RD_COMPAT_7_2, .merge = true };
	struct rd_session *s;
	struct rd_out out;
	struct pc_error err = { 0 };
	const char *input = "perf.data", *symfs = NULL;
	char debug_dir[4096];
	bool dump = false, header = false, late = false;
	char bad[64];
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "i:F:Dvqh", options, NULL)) != -1) {
		switch (c) {
		case 'i':
			input = optarg;
			break;
		case 'F':
			if (rd_fields_parse(&pr.fields, optarg, bad, sizeof(bad))) {
				fprintf(stderr, "perfcheck script: unknown field '%s' (known: %s)\n",
					bad, rd_fields_names());
				return 1;
			}
			break;
		case OPT_NO_MERGE:
			pr.merge = false;
			break;
		case OPT_MERGE:
			pr.merge = true;
			break;
		case OPT_LATE:
			late = true;
			break;
		case OPT_COMPAT:
			if (!strcmp(optarg, "6.1")) {
				pr.compat = RD_COMPAT_6_1;
			} else if (!strcmp(optarg, "7.2")) {
				pr.compat = RD_COMPAT_7_2;
			} else {
				fprintf(stderr, "perfcheck script: --compat takes 6.1 or 7.2\n");
				return 1;
			}
			break;
		case 'D':
			dump = true;
			break;
		case OPT_HEADER:
			header = true;
			break;
		case OPT_SYMFS:
			symfs = optarg;
			break;
		case 'v':
			pc_verbose++;
			break;
		case 'q':
			pc_verbose = -1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "perfcheck script: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return 1;
	}
	if (rd_out_init(&out, STDOUT_FILENO)) {
		fprintf(stderr, "perfcheck script: out of memory\n");
		return 1;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "perfcheck script: out of memory\n");
		rd_out_free(&out);
		return 1;
	}
	ret = rd_session_open(s, input, &err);
	/* replay anywhere (fixtures): nothing of this machine's files is used */
	if (!ret && symfs) {
		snprintf(debug_dir, sizeof(debug_dir), "%s/usr/lib/debug", symfs);
		s->dsos.root = symfs;
		s->dsos.debug_dir = debug_dir;
		s->kernel_local = false;
		s->dsos.own_vdso = false;
		s->dsos.buildid_dir = NULL;
	}
	if (!ret && dump) {
		ret = rd_dump(s, &out, header, &err);
	} else if (!ret) {
		pr.out = &out;
		s->merge = pr.merge;
		s->merge_late = late && pr.merge;
		s->ops.sample = rd_print_sample;
		s->ops.deferred = rd_print_deferred;
		s->ops.ctx = &pr;
		/* like perf script --header: the header as comments, then the samples */
		if (header)
			ret = rd_dump_header(s, &out, &err);
		if (!ret)
			ret = rd_session_process(s, &err);
	}
	rd_out_flush(&out);
	if (out.error && !ret)
		fprintf(stderr, "perfcheck script: writing output: %s\n", strerror(out.error));
	if (ret)
		fprintf(stderr, "%s\n", err.msg[0] ? err.msg : strerror(-ret));
	if (!ret && !dump && pc_verbose > 0)
		fprintf(stderr,
			"%llu samples; deferred callchains: %llu records, %llu merged, "
			"%llu merged late, %llu unmerged (%llu released at a bound); "
			"%llu records out of time order\n",
			(unsigned long long)s->stats.samples,
			(unsigned long long)s->stats.deferred_records,
			(unsigned long long)s->stats.merged,
			(unsigned long long)s->stats.merged_late,
			(unsigned long long)s->stats.unmerged,
			(unsigned long long)s->stats.forced,
			(unsigned long long)s->stats.unordered);
	rd_session_close(s);
	free(s);
	rd_printer_free(&pr);
	rd_out_free(&out);
	if (ret)
		return 2;
	return out.error ? 1 : 0;
}
