/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A separate debug file whose DWARF sections are compressed
 * (SHF_COMPRESSED, zlib: what Debian's -dbg and -dbgsym packages ship),
 * handed to libdw with those sections already inflated: rewritten into an
 * anonymous file (memfd) where each one is replaced by its inflated bytes.
 * libdw inflates every DWARF section with zlib when it opens the file;
 * libdeflate (when the build has it) does the same work in about a third
 * of the time.  The DWARF libdw reads is byte for byte the same.
 */
#ifndef PERFCHECK_SYMBOLS_DBGIMAGE_H
#define PERFCHECK_SYMBOLS_DBGIMAGE_H

/*
 * fd (an ELF file open for reading) or, when it has compressed DWARF, a new
 * fd of its inflated image, fd then closed.  Anything unusual (not ELF64 in
 * this machine's byte order, another compression, a dwz alternate file or
 * split DWARF found beside it, a size out of bounds, a stream that does not
 * inflate to its stated size, no memory) leaves fd as it is, for libdw to
 * open as before.
 */
int pc_dbgimage_open(int fd);

#endif
