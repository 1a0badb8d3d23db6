// SPDX-License-Identifier: GPL-2.0
/*
 * What a reading means: deltas between readings (-I), the scaling of a
 * multiplexed counter (it ran only part of the time it was enabled), and
 * the mean and its standard error over -r runs (Welford's update).
 */
#include <math.h>

#include "stat/stat.h"

struct stat_count stat_count_delta(const struct stat_count *a, const struct stat_count *b)
{
	struct stat_count d = {
		.val = a->val - b->val,
		.ena = a->ena - b->ena,
		.run = a->run - b->run,
		.lost = a->lost - b->lost,
	};
	return d;
}

struct stat_value stat_scale(const struct stat_count *c, bool scale)
{
	struct stat_value v = { .run = c->run, .ena = c->ena };

	v.counted = c->run && c->ena;
	if (!v.counted)
		return v;
	v.val = (double)c->val;
	if (scale && c->run < c->ena)
		v.val = v.val * (double)c->ena / (double)c->run;
	return v;
}

void stat_running_add(struct stat_running *s, double v)
{
	double delta;

	s->n += 1;
	delta = v - s->mean;
	s->mean += delta / s->n;
	s->m2 += delta * (v - s->mean);
}

double stat_running_stderr(const struct stat_running *s)
{
	if (s->n < 2)
		return 0;
	return sqrt(s->m2 / (s->n - 1) / s->n);
}

double stat_running_rel(const struct stat_running *s)
{
	return s->mean ? 100.0 * stat_running_stderr(s) / s->mean : 0;
}
