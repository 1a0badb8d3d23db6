// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>

#include "reader/stage.h"

void rd_item_release(struct rd_item *it)
{
	if (it->owned)
		free((void *)it->data);
	if (it->merge_owned)
		free((void *)it->merge_ips);
	free(it->unwound);
	it->unwound = NULL;
	it->unwound_nr = 0;
	it->fp_leaf = false;
	free(it->p);
	it->p = NULL;
	it->owned = it->merge_owned = false;
}
