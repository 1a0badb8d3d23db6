/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where libdwfl finds separate debug files for the unwinder and srclines:
 * by build id (DIR/.build-id/xx/yyyy.debug, what Debian's -dbgsym packages
 * install), else by .gnu_debuglink beside the file, in its .debug/, or
 * under DIR.  Our own callbacks rather than libdwfl's standard ones, which
 * would also reach for debuginfod (dlopen, and a network) and make static
 * builds warn.
 */
#ifndef PERFCHECK_SYMBOLS_DEBUGINFO_H
#define PERFCHECK_SYMBOLS_DEBUGINFO_H

#include <elfutils/libdwfl.h>

/* Fills cbs; debug_dir (kept by the caller for the life of the Dwfl) is
 * handed to each module with pc_debuginfo_attach. */
void pc_debuginfo_callbacks(Dwfl_Callbacks *cbs);
/*
 * The same for unwinding alone: a separate debug file is used only when it
 * has .debug_frame (most have none: .eh_frame is in the object), so that
 * looking for CFI there does not open and decompress its whole DWARF.
 */
void pc_debuginfo_callbacks_cfi(Dwfl_Callbacks *cbs);
/* After reporting mod: where its debug files are looked for. */
void pc_debuginfo_attach(Dwfl_Module *mod, const char *debug_dir);

#endif
