// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop for lib/perfdata/decompress: files that this machine's
 * perf records with -z (the system perf 6.1 on a host, each guest's Debian
 * perf in the matrix; perf 6.16 and later write COMPRESSED2) are decoded
 * into exactly the records perf itself finds in them: the same multiset of
 * (file offset, size, type) as `perf report -D` lists, the same number of
 * samples as `perf script` prints, at every compression level tried, and
 * with records that straddle two COMPRESSED records reassembled.  The
 * decoding speed is printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kselftest_harness.h"
#include "interop_tools.h"
#include "perfdata/decompress.h"
#include "perfdata/perfdata.h"

FIXTURE(zstd) {
	char *dir;
	char data[512];
	struct up_version v;
};

/* perf record -z on a workload that ends at once: whether this perf compresses */
static bool perf_compresses(const char *dir, char *why, size_t why_size)
{
	char out[PATH_MAX];
	char *argv[] = { (char *)up_perf(), "record", "-q", "-z", "-e", "cpu-clock", "-o", out, "--",
			 (char *)up_pcwork(), "exit", "0", NULL };
	struct pc_run run;
	bool ok;

	snprintf(out, sizeof(out), "%s/z-probe.data", dir);
	if (up_run(&run, 120, argv)) {
		snprintf(why, why_size, "cannot run %s", argv[0]);
		return false;
	}
	ok = run.exit_code == 0;
	if (!ok)
		snprintf(why, why_size, "%s record -z exits %d: %.*s", argv[0], run.exit_code,
			 (int)strcspn(run.err ? run.err : "", "\n"), run.err ? run.err : "");
	pc_run_free(&run);
	unlink(out);
	return ok;
}

FIXTURE_SETUP(zstd)
{
	char why[512];

	UP_REQUIRE_PERF_AND_PCWORK(&self->v);
	self->dir = pc_test_mkdtemp("interop-zstd");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	if (!perf_compresses(self->dir, why, sizeof(why)))
		SKIP(return, "%s", why);
	TH_LOG("upstream %s", self->v.text);
}

FIXTURE_TEARDOWN(zstd)
{
	if (self->dir)
		pc_test_rmdir(self->dir);
}

/* perf's stderr of the last perf_record() that failed */
static char last_err[1024];
/* perf_record() writes to stdout (-o -), and its output to data */
static bool pipe_mode;

/* perf record -q OPTS... -o DATA -- pcwork MODE MS */
static int perf_record(struct __test_metadata *_metadata, const char *data, const char *const *opts,
		       const char *mode, const char *ms)
{
	char *argv[32];
	struct pc_run run;
	int n = 0, code;

	argv[n++] = (char *)up_perf();
	argv[n++] = "record";
	argv[n++] = "-q";
	for (; *opts; opts++)
		argv[n++] = (char *)*opts;
	argv[n++] = "-o";
	argv[n++] = pipe_mode ? "-" : (char *)data;
	argv[n++] = "--";
	argv[n++] = (char *)up_pcwork();
	argv[n++] = (char *)mode;
	argv[n++] = (char *)ms;
	argv[n] = NULL;
	up_run(&run, 300, argv);
	code = run.exit_code;
	if (pipe_mode && !code && up_write_file(data, run.out, run.out_len))
		code = 255;
	last_err[0] = '\0';
	if (code) {
		TH_LOG("perf record: exit %d: %s", code, run.err ? run.err : "");
		snprintf(last_err, sizeof(last_err), "%s", run.err ? run.err : "");
	}
	pc_run_free(&run);
	return code;
}

/* What one decoding of a file found. */
struct decoded {
	char *tuples;			/* "OFFSET SIZE TYPE\n" per record but COMPRESSED, sorted */
	uint64_t nr_tuples;
	uint64_t nr_samples;		/* SAMPLE records, top level and decompressed */
	uint64_t nr_type81, nr_type83;
	struct pd_comp_header comp;
	bool has_comp_header;
	struct pd_decomp_stats stats;
	size_t unfinished;		/* bytes of a record the stream began and never ended */
};

/* The lines sorted (in place), joined with '\n' again. */
static char *sort_lines(struct pc_strv *l)
{
	size_t len = 0, at = 0;
	char *out;

	pc_strv_sort(l);
	for (size_t i = 0; i < l->n; i++)
		len += strlen(l->v[i]) + 1;
	out = malloc(len + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < l->n; i++)
		at += (size_t)sprintf(out + at, "%s\n", l->v[i]);
	out[at] = '\0';
	return out;
}

/*
 * "OFFSET SIZE TYPE"; in pipe mode "SIZE TYPE": there perf -D counts
 * offsets from the start of the stream, which perfcheck's pipe reader
 * (lib/perfdata, before the reader-core rework) does not yet match.
 */
static void add_tuple(struct pc_strv *l, uint64_t off, unsigned int size, unsigned int type)
{
	char s[64];

	if (pipe_mode)
		snprintf(s, sizeof(s), "%#x %u", size, type);
	else
		snprintf(s, sizeof(s), "%#llx %#x %u", (unsigned long long)off, size, type);
	pc_strv_add(l, s);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* Reads DATA, decompressing every COMPRESSED/COMPRESSED2 record. */
static int decode_file(const char *path, struct decoded *dec, struct pc_error *err)
{
	struct pd_reader r;
	struct pd_decomp d;
	struct pd_record rec, in;
	struct pc_strv l = { 0 };
	const void *sec;
	size_t sec_size;
	uint64_t pos = 0;
	int ret;

	memset(dec, 0, sizeof(*dec));
	ret = pd_reader_open(&r, path, err);
	if (ret)
		return ret;
	if (!pd_reader_feature(&r, PD_FEAT_COMPRESSED, &sec, &sec_size)) {
		ret = pd_comp_header_parse(sec, sec_size, path, r.features[PD_FEAT_COMPRESSED].offset,
					   &dec->comp, err);
		dec->has_comp_header = !ret;
	}
	if (!ret)
		ret = pd_decomp_init(&d, path, dec->has_comp_header ? &dec->comp : NULL, err);
	if (ret) {
		pd_reader_close(&r);
		return ret;
	}
	while ((ret = pd_reader_next(&r, &pos, &rec, err)) == 1) {
		if (rec.header.type == PC_RECORD_HEADER_FEATURE && rec.header.size >= 16 &&
		    ((const uint64_t *)rec.data)[1] == PD_FEAT_COMPRESSED && !dec->has_comp_header) {
			/* pipe mode: the feature comes as a record, after its u64 feat_id */
			ret = pd_comp_header_parse((const uint8_t *)rec.data + 16, rec.header.size - 16,
						   path, rec.offset + 16, &dec->comp, err);
			if (ret)
				break;
			dec->has_comp_header = true;
		}
		if (pipe_mode && rec.header.type == PC_RECORD_HEADER_ATTR)
			continue;	/* perf -D does not list them */
		if (rec.header.type != PC_RECORD_COMPRESSED && rec.header.type != PC_RECORD_COMPRESSED2) {
			add_tuple(&l, rec.offset, rec.header.size, rec.header.type);
			dec->nr_samples += rec.header.type == PERF_RECORD_SAMPLE;
			continue;
		}
		dec->nr_type81 += rec.header.type == PC_RECORD_COMPRESSED;
		dec->nr_type83 += rec.header.type == PC_RECORD_COMPRESSED2;
		ret = pd_decomp_feed_record(&d, &rec, err);
		while (!ret && (ret = pd_decomp_next(&d, &in, err)) == 1) {
			ret = 0;
			add_tuple(&l, in.offset, in.header.size, in.header.type);
			dec->nr_samples += in.header.type == PERF_RECORD_SAMPLE;
		}
		if (ret)
			break;
	}
	/* perf drops a record its writer left unfinished at the end, as our reader does */
	dec->unfinished = ret ? 0 : pd_decomp_unfinished(&d);
	if (!ret && !dec->unfinished)
		ret = pd_decomp_finish(&d, err);
	dec->stats = d.stats;
	dec->nr_tuples = l.n;
	dec->tuples = sort_lines(&l);
	pc_strv_free(&l);
	pd_decomp_fini(&d);
	pd_reader_close(&r);
	return ret;
}

/*
 * Seconds to read FILE's data section with its COMPRESSED records
 * decompressed (records only touched), and with every sample also parsed:
 * the reader's cheapest work per record, to show decoding is not what
 * bounds the reader.  The best of three runs each.
 */
static int bench_file(const char *path, double *decode_s, double *parse_s, uint64_t *bytes,
		      struct pc_error *err)
{
	*decode_s = *parse_s = 1e9;
	for (int run = 0; run < 6; run++) {
		struct pd_reader r;
		struct pd_decomp d;
		struct pd_record rec, in;
		uint64_t pos = 0, sum = 0;
		double t0;
		int ret = pd_reader_open(&r, path, err);

		if (ret)
			return ret;
		ret = pd_decomp_init(&d, path, NULL, err);
		t0 = now_s();
		while (!ret && (ret = pd_reader_next(&r, &pos, &rec, err)) == 1) {
			ret = 0;
			if (rec.header.type != PC_RECORD_COMPRESSED &&
			    rec.header.type != PC_RECORD_COMPRESSED2)
				continue;
			ret = pd_decomp_feed_record(&d, &rec, err);
			while (!ret && (ret = pd_decomp_next(&d, &in, err)) == 1) {
				struct pd_sample smp;

				ret = 0;
				sum += in.header.size;
				if (run % 2 && in.header.type == PERF_RECORD_SAMPLE)
					ret = pd_parse_sample(&r, &in, &smp, err);
			}
		}
		t0 = now_s() - t0;
		if (run % 2)
			*parse_s = t0 < *parse_s ? t0 : *parse_s;
		else
			*decode_s = t0 < *decode_s ? t0 : *decode_s;
		*bytes = sum;
		if (!ret)
			pd_decomp_fini(&d);
		pd_reader_close(&r);
		if (ret)
			return ret;
	}
	return 0;
}

/* perf report -D: "0x278@FILE [0x28]: event: 3" (older perfs: "0x278 [0x28]: ...") */
static char *perf_dump_tuples(struct __test_metadata *_metadata, const char *data, uint64_t *n)
{
	char *argv[] = { (char *)up_perf(), "report", "-D", "-i", (char *)data, NULL };
	struct pc_strv l = { 0 };
	struct pc_run run;
	char *line, *save = NULL, *out;

	*n = 0;
	if (up_run(&run, 600, argv) || run.exit_code || !run.out) {
		TH_LOG("perf report -D: exit %d: %s", run.exit_code, run.err ? run.err : "");
		pc_run_free(&run);
		return NULL;
	}
	for (line = strtok_r(run.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long off;
		unsigned int size, type;
		const char *br = strstr(line, " [0x");

		if (strncmp(line, "0x", 2) || !br)
			continue;
		if (sscanf(line, "%llx", &off) != 1 ||
		    sscanf(br, " [%x]: event: %u", &size, &type) != 2)
			continue;
		if (type == PC_RECORD_COMPRESSED || type == PC_RECORD_COMPRESSED2)
			continue;
		add_tuple(&l, off, size, type);
	}
	pc_run_free(&run);
	*n = l.n;
	out = sort_lines(&l);
	pc_strv_free(&l);
	return out;
}

/* perf script's stderr when it failed */
static char script_err[512];

/* Lines perf script prints with -F tid,time: one per sample. */
static long perf_script_samples(struct __test_metadata *_metadata, const char *data)
{
	char *argv[] = { (char *)up_perf(), "script", "-F", "tid,time", "-i", (char *)data, NULL };
	struct pc_run run;
	long n = -1;

	if (!up_run(&run, 600, argv) && run.exit_code == 0 && run.out) {
		n = 0;
		for (const char *p = run.out; *p; p++)
			n += *p == '\n';
	} else {
		TH_LOG("perf script: exit %d: %s", run.exit_code, run.err ? run.err : "");
		snprintf(script_err, sizeof(script_err), "%.*s",
			 (int)strcspn(run.err ? run.err : "", "\n"), run.err ? run.err : "");
	}
	pc_run_free(&run);
	return n;
}

/* The first line where two sorted tuple lists differ, for the log. */
static void log_first_difference(struct __test_metadata *_metadata, const char *ours,
				 const char *perf)
{
	size_t i = 0, start = 0, line = 1;

	while (ours[i] && ours[i] == perf[i]) {
		if (ours[i] == '\n') {
			line++;
			start = i + 1;
		}
		i++;
	}
	TH_LOG("first difference at sorted line %zu: ours \"%.*s\" perf \"%.*s\"", line,
	       (int)strcspn(ours + start, "\n"), ours + start, (int)strcspn(perf + start, "\n"),
	       perf + start);
}

/* Records with OPTS, decodes, and compares with perf's own reading; false after a SKIP. */
static bool check_recording(struct __test_metadata *_metadata, FIXTURE_DATA(zstd) *self,
			    const char *const *opts, const char *mode, const char *ms,
			    struct decoded *dec)
{
	struct pc_error err = { 0 };
	uint64_t n_perf;
	char *perf_tuples;
	long script_n;

	memset(dec, 0, sizeof(*dec));
	if (perf_record(_metadata, self->data, opts, mode, ms) &&
	    strstr(last_err, "failed to write perf data"))
		/* perf 6.16 up to the fix "perf record: Fix multiple
		 * PERF_RECORD_COMPRESSED2 records per push": header.size of a
		 * push bigger than one record overflows its u16 and the write fails */
		SKIP(return false, "%s cannot write a push of several COMPRESSED2 records: %.200s",
		     self->v.text, last_err);
	ASSERT_EQ(0, last_err[0]) TH_LOG("perf record failed");
	/* perf 6.1 in a small guest wrote a level-22 file it cannot read itself
	 * (an empty COMPRESSED record, the samples uncompressed) */
	script_err[0] = '\0';
	script_n = perf_script_samples(_metadata, self->data);
	if (script_n < 0)
		SKIP(return false, "%s cannot read the file it recorded: perf script: %s",
		     self->v.text, script_err);
	ASSERT_EQ(0, decode_file(self->data, dec, &err)) TH_LOG("%s", err.msg);
	ASSERT_TRUE(dec->has_comp_header) TH_LOG("perf -z wrote no COMPRESSED header feature");
	EXPECT_EQ(PD_COMP_ZSTD, dec->comp.type);
	ASSERT_LT(0, dec->nr_type81 + dec->nr_type83) TH_LOG("no COMPRESSED record in the file");
	perf_tuples = perf_dump_tuples(_metadata, self->data, &n_perf);
	ASSERT_NE(NULL, perf_tuples);
	EXPECT_EQ(n_perf, dec->nr_tuples);
	EXPECT_EQ(0, strcmp(perf_tuples, dec->tuples))
		log_first_difference(_metadata, dec->tuples, perf_tuples);
	/* perf script -F of a pipe prints callchains anyway: count files only */
	if (!pipe_mode)
		EXPECT_EQ(script_n, (long)dec->nr_samples);
	TH_LOG("level %u (header), %llu COMPRESSED + %llu COMPRESSED2 records, %llu -> %llu bytes, "
	       "%llu records (%llu samples), %llu straddling, %zu bytes of an unfinished record at the end",
	       dec->comp.level, (unsigned long long)dec->nr_type81,
	       (unsigned long long)dec->nr_type83, (unsigned long long)dec->stats.bytes_in,
	       (unsigned long long)dec->stats.bytes_out, (unsigned long long)dec->stats.nr_records,
	       (unsigned long long)dec->nr_samples, (unsigned long long)dec->stats.nr_straddling,
	       dec->unfinished);
	free(perf_tuples);
	return true;
}

TEST_F_TIMEOUT(zstd, default_level_decodes_to_the_records_perf_reads, 600)
{
	static const char *const opts[] = { "-z", "-e", "cpu-clock", "-c", "100000", NULL };
	struct decoded dec;

	if (!check_recording(_metadata, self, opts, "syscalls", "300", &dec))
		return;
	EXPECT_EQ(1, dec.comp.level);
	free(dec.tuples);
}

TEST_F_TIMEOUT(zstd, level_5_decodes_to_the_records_perf_reads, 600)
{
	static const char *const opts[] = { "--compression-level=5", "-e", "cpu-clock", "-c", "100000",
					    "-g", NULL };
	struct decoded dec;

	if (!check_recording(_metadata, self, opts, "syscalls", "300", &dec))
		return;
	EXPECT_EQ(5, dec.comp.level);
	free(dec.tuples);
}

TEST_F_TIMEOUT(zstd, level_22_decodes_to_the_records_perf_reads, 600)
{
	static const char *const opts[] = { "--compression-level=22", "-e", "cpu-clock", "-c", "100000",
					    "-g", NULL };
	struct decoded dec;

	if (!check_recording(_metadata, self, opts, "syscalls", "300", &dec))
		return;
	EXPECT_EQ(22, dec.comp.level);
	free(dec.tuples);
}

TEST_F_TIMEOUT(zstd, pipe_mode_decodes_to_the_records_perf_reads, 600)
{
	static const char *const opts[] = { "-z", "-e", "cpu-clock", "-c", "100000", "-g", NULL };
	struct decoded dec;
	bool ok;

	pipe_mode = true;
	ok = check_recording(_metadata, self, opts, "syscalls", "300", &dec);
	pipe_mode = false;
	if (!ok)
		return;
	free(dec.tuples);
}

/*
 * perf compresses what it pushes from a ring into COMPRESSED records, and
 * a push whose data wraps around the end of the ring is two calls: the
 * part up to the end, then the part from the start, each compressed into
 * records of its own.  A record that spans the wrap therefore straddles
 * two COMPRESSED records.  A 64 KiB ring (-m 16) wraps every 64 KiB of
 * records: with -g at 10 kHz, 300 ms make about 480 KB, seven wraps or so
 * (six or seven straddled in each of three runs on the host), and the
 * samples stay few, so that perf reads the file quickly even in a TCG
 * guest (with -g at 100 kHz and an 8 MiB ring, 93,371 samples took perf
 * 6.1 minutes in the 6.1-arm64 guest).  Whether a wrap falls inside a
 * record is up to the record sizes: record again, up to a few times,
 * until one straddles.
 */
#define STRADDLE_ATTEMPTS 4

TEST_F_TIMEOUT(zstd, records_straddling_compressed_records_are_reassembled, 900)
{
	static const char *const opts[] = { "-z", "-e", "cpu-clock", "-c", "100000", "-g", "-m", "16",
					    NULL };
	uint64_t bytes_out = 0;
	struct decoded dec;
	int attempt;

	for (attempt = 1; attempt <= STRADDLE_ATTEMPTS; attempt++) {
		if (!check_recording(_metadata, self, opts, "syscalls", "300", &dec))
			return;
		if (dec.stats.nr_straddling)
			break;
		bytes_out += dec.stats.bytes_out;
		free(dec.tuples);
	}
	if (attempt > STRADDLE_ATTEMPTS)
		SKIP(return, "%d recordings, %llu bytes of records in all: every wrap of the ring fell "
			     "between two records, nothing straddled", STRADDLE_ATTEMPTS,
		     (unsigned long long)bytes_out);
	{
		struct pc_error err = { 0 };
		double dec_s, parse_s;
		uint64_t bytes;

		ASSERT_EQ(0, bench_file(self->data, &dec_s, &parse_s, &bytes, &err)) TH_LOG("%s", err.msg);
		ksft_print_msg("perf's -z file: %.1f MB decompressed in %.4f s (%.0f MB/s); with every "
			       "sample parsed too %.4f s: decoding is %.0f%% of that\n",
			       bytes / 1e6, dec_s, dec_s > 0 ? bytes / 1e6 / dec_s : 0.0, parse_s,
			       parse_s > 0 ? 100 * dec_s / parse_s : 0.0);
	}
	TH_LOG("attempt %d: %llu record(s) straddled two COMPRESSED records, decoded as perf reads "
	       "them", attempt, (unsigned long long)dec.stats.nr_straddling);
	free(dec.tuples);
}

TEST_HARNESS_MAIN
