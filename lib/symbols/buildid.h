/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one build-id reader: the GNU build-id note of an ELF object (its
 * note sections, or its note segments when the section headers are
 * stripped), and the running kernel's from /sys/kernel/notes.
 */
#ifndef PERFCHECK_SYMBOLS_BUILDID_H
#define PERFCHECK_SYMBOLS_BUILDID_H

#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

#define PC_BUILD_ID_MAX 20

/* 0 with id/id_size set, -ENOENT when the object has none. */
int pc_build_id_elf(Elf *e, uint8_t *id, size_t *id_size);
/* The same for a file (-errno when it cannot be opened or is not ELF). */
int pc_build_id_path(const char *path, uint8_t *id, size_t *id_size);
/* The build id of a notes blob (/sys/kernel/notes layout). */
int pc_build_id_notes(const uint8_t *buf, size_t n, uint8_t *id, size_t *id_size);
/* The running kernel's, from /sys/kernel/notes. */
int pc_build_id_kernel(uint8_t *id, size_t *id_size);
/* The running kernel's vdso image in this process (AT_SYSINFO_EHDR) and its size, or NULL. */
const uint8_t *pc_own_vdso(size_t *size);
/* Its build id. */
int pc_build_id_vdso(uint8_t *id, size_t *id_size);
/* Lower-case hex of id into hex (2 * id_size + 1 bytes). */
void pc_build_id_hex(const uint8_t *id, size_t id_size, char *hex);

#endif
