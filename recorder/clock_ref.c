// SPDX-License-Identifier: GPL-2.0
/* -k CLOCK's CLOCKID and CLOCK_DATA features: see clock_ref.h. */
#include <errno.h>
#include <stdint.h>
#include <sys/time.h>
#include <time.h>

#include "perfdata/perfdata.h"
#include "recorder/clock_ref.h"

int rec_clock_ref_write(struct pd_writer *w, int clockid)
{
	struct timespec res, now;
	struct timeval tod;
	uint64_t res_ns;
	struct {
		uint32_t version, clockid;
		uint64_t tod_ns, clockid_ns;
	} data = { 1, (uint32_t)clockid, 0, 0 };

	/* perf keeps the nanoseconds of the resolution only */
	res_ns = clock_getres(clockid, &res) ? 0 : (uint64_t)res.tv_nsec;
	/* the wall clock as perf reads it (microseconds), then the clock */
	if (gettimeofday(&tod, NULL) || clock_gettime(clockid, &now))
		return -errno;
	data.tod_ns = (uint64_t)tod.tv_sec * 1000000000ULL + (uint64_t)tod.tv_usec * 1000ULL;
	data.clockid_ns = (uint64_t)now.tv_sec * 1000000000ULL + (uint64_t)now.tv_nsec;
	if (res_ns && pd_writer_set_feature(w, PD_FEAT_CLOCKID, &res_ns, sizeof(res_ns)))
		return -ENOMEM;
	return pd_writer_set_feature(w, PD_FEAT_CLOCK_DATA, &data, sizeof(data)) ? -ENOMEM : 0;
}
