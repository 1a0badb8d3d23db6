/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A raw BTF object, as bpf(BPF_BTF_GET_INFO) gives it and the BPF_BTF
 * header feature holds it: a header (magic 0xeb9f, its length, the type
 * and string sections' offsets and lengths), the types (12 bytes each and
 * what their kind adds), the strings.  The one BTF walker of the project:
 * the recorder names JITed functions with it, the reader checks files.
 */
#ifndef PERFCHECK_PERFDATA_BTF_H
#define PERFCHECK_PERFDATA_BTF_H

#include <stddef.h>
#include <stdint.h>

/* What is wrong with a malformed object, for the caller's message. */
struct pd_btf_fault {
	const char *what;		/* "type section runs past the object, ending at" */
	uint64_t value;
};

/*
 * The name of type type_id (0, void, is named ""): 0 with *name pointing
 * into btf, or -EINVAL with *fault set when the object is malformed or has
 * no such type.  Every offset and length is checked against size.
 */
int pd_btf_type_name(const void *btf, size_t size, uint32_t type_id, const char **name,
		     struct pd_btf_fault *fault);

#endif
