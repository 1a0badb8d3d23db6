# SPDX-License-Identifier: GPL-2.0
# The uncompressed kernel of an x86 bzImage, for QEMU's PVH entry: under
# TCG, a bzImage's own decompressor (and its relocation pass) runs emulated
# and costs seconds per boot; QEMU loads an ELF vmlinux that carries Xen's
# PHYS32_ENTRY note and jumps to the kernel directly.  The payload is found
# through the boot protocol's setup header (payload_offset, payload_length:
# protocol 2.08 and later), decompressed on the host with the compressor's
# own tool, checked against the size the build appended, and cached next to
# the bzImage.  Anything unexpected gives undef: the caller boots the bzImage.
package PCVM::Pvh;
use strict;
use warnings;

my %TOOL = (
	"\x28\xb5\x2f\xfd" => 'zstd -q -d -c',
	"\x02\x21\x4c\x18" => 'lz4 -q -d -c',
	"\x1f\x8b" => 'gzip -d -c',
	"\xfd\x37\x7a\x58\x5a\x00" => 'xz -q -d -c',
);

sub _slurp_raw { my ($f) = @_; open(my $h, '<:raw', $f) or return undef; local $/; my $s = <$h>; return $s }

# The compressed payload of a bzImage and its decompressed size, or ().
sub payload {
	my ($img) = @_;
	return () unless defined $img && length($img) > 0x250;
	return () unless substr($img, 0x202, 4) eq 'HdrS' && unpack('v', substr($img, 0x206, 2)) >= 0x208;
	my $setup = unpack('C', substr($img, 0x1f1, 1)) || 4;
	my ($off, $len) = unpack('VV', substr($img, 0x248, 8));
	my $at = ($setup + 1) * 512 + $off;
	return () unless $len > 4 && $at + $len <= length($img);
	my $p = substr($img, $at, $len);
	# the build appends the decompressed size, little-endian 32 bits
	return (substr($p, 0, $len - 4), unpack('V', substr($p, -4)));
}

# Whether ELF (a string) is an x86-64 executable with Xen's PHYS32_ENTRY note (type 18).
sub has_pvh_note {
	my ($elf) = @_;
	my $size = length($elf);
	return 0 unless $size >= 64 && substr($elf, 0, 4) eq "\x7fELF" && unpack('C', substr($elf, 4, 1)) == 2;
	my ($phoff, $phentsize, $phnum) = (unpack('Q<', substr($elf, 32, 8)), unpack('v', substr($elf, 54, 2)),
					   unpack('v', substr($elf, 56, 2)));
	return 0 unless $phentsize == 56 && $phoff < $size && $phnum * 56 <= $size - $phoff;
	for my $i (0 .. $phnum - 1) {
		my $ph = substr($elf, $phoff + $i * 56, 56);
		next unless unpack('V', $ph) == 4;			# PT_NOTE
		my ($o, $fs) = (unpack('Q<', substr($ph, 8, 8)), unpack('Q<', substr($ph, 32, 8)));
		next unless $o < $size && $fs <= $size - $o;
		my $pos = $o;
		while ($pos + 12 <= $o + $fs) {
			my ($nsz, $dsz, $type) = unpack('VVV', substr($elf, $pos, 12));
			my $name_at = $pos + 12;
			my $next = $name_at + (($nsz + 3) & ~3) + (($dsz + 3) & ~3);
			last if $next > $o + $fs || $next <= $pos;
			return 1 if $type == 18 && $nsz >= 4 && substr($elf, $name_at, 4) eq "Xen\0";
			$pos = $next;
		}
	}
	return 0;
}

# The cached PVH image of bzImage PATH (made on first use), or undef.
sub image {
	my ($path) = @_;
	return undef if ($ENV{PERFCHECK_VM_PVH} // '1') eq '0';
	my $out = "$path.pvh";
	return $out if -s $out && (stat $out)[9] >= (stat $path)[9];
	my ($z, $want) = payload(_slurp_raw($path));
	return undef unless defined $z;
	my ($tool) = map { $TOOL{$_} } grep { substr($z, 0, length $_) eq $_ } keys %TOOL;
	return undef unless $tool;
	my $tmp = "$out.tmp.$$";
	open(my $pipe, '|-', "$tool > '$tmp' 2>/dev/null") or return undef;
	binmode $pipe;
	print $pipe $z;
	close $pipe;
	my $elf = _slurp_raw($tmp);
	if ($? || !defined $elf || length($elf) != $want || !has_pvh_note($elf)) {
		unlink $tmp;
		return undef;
	}
	rename($tmp, $out) or do { unlink $tmp; return undef };
	return $out;
}

1;
