# SPDX-License-Identifier: GPL-2.0
# The guest: its initramfs (a shared base archive plus a small per-run
# overlay: the kernel unpacks concatenated cpio archives in order), the QEMU
# command, and a boot watched line by line with a deadline that follows the
# init's markers, so that a hung guest is killed soon after its current test
# outlives its own timeout.
package PCVM::Guest;
use strict;
use warnings;
use File::Path qw(make_path remove_tree);
use File::Basename qw(basename);
use File::Spec;
use IO::Select;
use Digest::MD5;
use POSIX qw(WNOHANG);
use Time::HiRes qw(time);
use PCVM::Pvh;

# Builds (or reuses) the base initramfs: init, busybox, perfcheck, the
# selftests, the kernel's perf_events selftests and any payload directory
# (copied over the root).  Returns its path.  With disk => 1 (and mke2fs),
# the /perfcheck tree goes to an ext4 image instead (base_image): under TCG,
# unpacking 200 MB of initramfs took most of a boot, and a disk is read only
# where a test reads it.  Its /perfcheck/upstream is the upstream image's.
sub base_initramfs {
	my (%o) = @_;
	my $disk = $o{disk} && have_mke2fs();
	my ($static, $work) = @o{qw(static work)};
	my $busybox = busybox($o{arch} // 'x86_64', $o{src});
	my @inputs = ("$static/vm/init", "$static/perfcheck", $busybox,
		      glob("$static/selftests/*"), glob("$static/ksft/*"));
	# pcwork (the workload of the fixtures and xk_* selftests) next to
	# perfcheck, and the fixtures that fixtures_replay replays in each guest
	my $fixtures = File::Spec->rel2abs(__FILE__ =~ s{[^/]+$}{}r . '../../../fixtures');
	push @inputs, "$static/pcwork" if -x "$static/pcwork";
	push @inputs, "$static/vm/perftest" if -x "$static/vm/perftest";
	push @inputs, split /\n/, `find '$fixtures' -type f` if -d $fixtures;
	# the probe baselines, where selftests look beside their bin dir (/perfcheck/selftests/../../)
	my @baselines = $o{src} ? grep { -f } glob("$o{src}/probes/baselines/*.txt") : ();
	push @inputs, @baselines;
	my @payload = @{$o{payload} // []};
	for my $p (@payload) {
		die "vm: payload directory $p not found\n" unless -d $p;
		push @inputs, split /\n/, `find '$p' -type f`;
	}
	for (qw(vm/init perfcheck)) {
		die "vm: $static/$_ is missing: run 'make static' first\n" unless -x "$static/$_";
	}
	# one archive per set of inputs: concurrent runs with other payloads never share one
	my $list = join("\n", sort @inputs) . "\n" . ($disk ? "layout disk-1\n" : '');
	my $key = Digest::MD5::md5_hex($list);
	my $out = "$work/base-$key.cpio.gz";
	my $img = "$work/base-$key.ext4";
	my $stamp = "$work/base-$key.inputs";
	if (-f $out && -f $stamp && _slurp($stamp) eq $list && (!$disk || _is_ext4($img))) {
		my $t = (stat $out)[9];
		return $out unless grep { (stat $_)[9] > $t } grep { -e } @inputs;
	}
	my $root = "$work/base.root.$$";
	remove_tree($root);
	make_path(map { "$root/$_" } qw(bin perfcheck/selftests perfcheck/ksft
					 proc sys dev tmp out root));
	_copy("$static/vm/init", "$root/init");
	_copy($busybox, "$root/bin/busybox");
	_copy("$static/perfcheck", "$root/perfcheck/perfcheck");
	for my $t (glob("$static/selftests/*")) {
		_copy($t, "$root/perfcheck/selftests/" . basename($t)) if -f $t && -x $t;
	}
	for my $t (glob("$static/ksft/*")) {
		_copy($t, "$root/perfcheck/ksft/" . basename($t)) if -f $t && -x $t;
	}
	_copy("$static/pcwork", "$root/perfcheck/pcwork") if -x "$static/pcwork";
	_copy("$static/vm/perftest", "$root/perfcheck/perftest") if -x "$static/vm/perftest";
	system('cp', '-a', $fixtures, "$root/perfcheck/fixtures") == 0 or die "vm: cannot copy $fixtures\n"
		if -d $fixtures;
	if (@baselines) {
		make_path("$root/probes/baselines");
		_copy($_, "$root/probes/baselines/" . basename($_)) for @baselines;
	}
	system('cp', '-a', "$_/.", "$root/") == 0 or die "vm: cannot copy payload $_\n" for @payload;
	if ($disk) {
		my $droot = "$work/disk.root.$$";
		remove_tree($droot);
		rename("$root/perfcheck", $droot) or die "vm: rename: $!\n";
		make_path("$root/perfcheck");
		symlink('/up/perfcheck/upstream', "$droot/upstream") unless -e "$droot/upstream";
		_ext4($droot, $img);
		remove_tree($droot);
	}
	_cpio($root, $out);
	# archives of older input sets, a day unused
	-M $_ > 1 and unlink $_ for grep { $_ ne $out && $_ ne $img } glob("$work/base-*.cpio.gz $work/base-*.ext4");
	open(my $s, ">", "$stamp.$$") or die "$stamp: $!";
	print $s $list;
	close $s;
	rename("$stamp.$$", $stamp);
	remove_tree($root);
	return $out;
}

# The ext4 image of the /perfcheck tree beside base initramfs CPIO, or undef.
sub base_image {
	my ($cpio) = @_;
	(my $img = $cpio // '') =~ s/\.cpio\.gz$/.ext4/;
	return $img ne ($cpio // '') && -f $img ? $img : undef;
}

sub have_mke2fs {
	return ($ENV{PERFCHECK_VM_DISK} // '1') ne '0'
		&& grep { -x "$_/mke2fs" } split(/:/, $ENV{PATH} // ''), qw(/sbin /usr/sbin);
}

# An ext4 image of the files of the cpio archives ARCHIVES (zstd or gzip),
# cached in WORK by their content, or undef (the caller appends the archives).
sub image_of_archives {
	my ($work, @archives) = @_;
	return undef unless have_mke2fs() && @archives;
	my $md5 = Digest::MD5->new;
	for (@archives) { open(my $h, '<:raw', $_) or return undef; $md5->addfile($h) }
	make_path($work);
	my $img = "$work/up-" . $md5->hexdigest . ".ext4";
	return $img if _is_ext4($img);
	my $root = "$img.root.$$";
	remove_tree($root);
	make_path($root);
	for my $a (@archives) {
		my $dec = _slurp_head($a) =~ /^\x28\xb5\x2f\xfd/ ? 'zstd -q -d -c' : 'gzip -d -c';
		system("$dec '$a' | (cd '$root' && cpio -i -d -m --quiet --no-absolute-filenames)") == 0
			or do { remove_tree($root); return undef };
	}
	my $ok = eval { _ext4($root, $img); 1 };
	remove_tree($root);
	return $ok ? $img : undef;
}

# Whether F is an ext2/3/4 file system (its superblock's magic): a cached
# image that anything overwrote is made again.
sub _is_ext4 {
	my ($f) = @_;
	open(my $h, '<:raw', $f) or return 0;
	seek($h, 1080, 0) or return 0;
	read($h, my $m, 2) == 2 or return 0;
	return $m eq "\x53\xef";
}

sub _slurp_head { my ($f) = @_; open(my $h, '<:raw', $f) or return ''; read($h, my $b, 8); return $b // '' }

sub _ext4 {
	my ($dir, $out) = @_;
	my ($kb) = `du -sk '$dir'` =~ /^(\d+)/;
	my $size = int(($kb // 0) * 1.25) + 16384;
	my $rc = system("mke2fs -q -F -t ext4 -O ^has_journal -E root_owner=0:0 -d '$dir' '$out.$$.tmp' ${size}k "
		      . ">/dev/null 2>&1");
	die "vm: building $out failed (mke2fs -d: e2fsprogs)\n" if $rc;
	rename("$out.$$.tmp", $out) or die "rename: $!";
}

# The per-run overlay: the plan and the row's expected probe result (also
# in /plan: /perfcheck may be the base image's mount point).
sub overlay_initramfs {
	my ($dir, $plan, $baseline) = @_;
	my $root = "$dir/overlay.root";
	remove_tree($root);
	make_path("$root/perfcheck", "$root/plan");
	open(my $fh, '>', "$root/perfcheck/plan") or die "plan: $!";
	print $fh $plan;
	close $fh;
	_copy($baseline, "$root/perfcheck/baseline.txt") if $baseline;
	_copy($baseline, "$root/plan/baseline.txt") if $baseline;
	_cpio($root, "$dir/overlay.cpio.gz");
	remove_tree($root);
	return "$dir/overlay.cpio.gz";
}

# busybox-static of the guest's architecture: the host's own for x86_64,
# Debian's arm64 package (tools/debfetch, cached) for aarch64.
sub busybox {
	my ($arch, $src) = @_;
	if ($arch eq 'aarch64') {
		my $cache = $ENV{PERFCHECK_CACHE} || ($ENV{HOME} || '/root') . '/.cache/perfcheck';
		my $out = "$cache/busybox-arm64";
		return $out if -x $out;
		chomp(my $deb = `'$src/tools/debfetch' -q --arch arm64 bookworm '^busybox-static\$'`);
		die "vm: no arm64 busybox-static (tools/debfetch)\n" unless -s $deb;
		my $tmp = "$out.tmp.$$";
		make_path($tmp);
		# its binary is bin/busybox; another file of that name sits under usr/share
		system("dpkg-deb --fsys-tarfile '$deb' | tar -x -C '$tmp' ./bin/busybox") == 0 &&
			-x "$tmp/bin/busybox" or die "vm: no bin/busybox in $deb\n";
		rename("$tmp/bin/busybox", $out) or die "vm: rename: $!\n";
		remove_tree($tmp);
		return $out;
	}
	for (qw(/bin/busybox /usr/bin/busybox)) { return $_ if -x $_ }
	die "vm: busybox not found (package busybox-static: make deps)\n";
}

sub _slurp { my ($f) = @_; open(my $h, '<', $f) or return ''; local $/; my $s = <$h>; return $s // '' }

sub _copy {
	my ($from, $to) = @_;
	system('cp', $from, $to) == 0 or die "vm: cannot copy $from to $to\n";
}

sub _cpio {
	my ($root, $out) = @_;
	# newc with owner root; gzip -1: the guest's decompression runs under TCG
	my $rc = system("cd '$root' && find . -mindepth 1 | LC_ALL=C sort | "
		      . "cpio -o -H newc -R 0:0 --quiet | gzip -1 > '$out.$$.tmp'");
	die "vm: building $out failed (cpio and gzip installed? make deps)\n" if $rc || !-s "$out.$$.tmp";
	rename("$out.$$.tmp", $out) or die "rename: $!";
}

sub qemu_bin {
	my ($arch) = @_;
	return $ENV{PERFCHECK_QEMU} if $ENV{PERFCHECK_QEMU} && ($arch // 'x86_64') eq 'x86_64';
	return ($arch // 'x86_64') eq 'aarch64' ? 'qemu-system-aarch64' : 'qemu-system-x86_64';
}

sub command {
	my (%o) = @_;
	my $arch = $o{arch} // 'x86_64';
	my @disk = $o{disk} ? (-drive => "file=$o{disk},format=raw,if=none,id=out",
			       -device => 'nvme,drive=out,serial=perfcheck') : ();
	# read-only ext4 disks the init mounts by serial (the base image, the upstream perf)
	my $n = 0;
	my @img = map { $n++; (-drive => "file=$_->[0],format=raw,if=none,id=img$n,readonly=on",
			       -device => "nvme,drive=img$n,serial=$_->[1]") } @{$o{images} // []};
	if ($arch eq 'aarch64') {
		# virt with the max CPU has a PMUv3; -icount shift=0 makes cycles and
		# instructions count (exactly, one instruction a cycle): without it
		# instructions is ENOENT (shared/notes/arm64.md).  The console is the PL011.
		# a fixed shift: with shift=auto QEMU's PMU counts no instructions (ENOENT, measured)
		my $shift = $ENV{PERFCHECK_ARM64_ICOUNT_SHIFT} // 0;
		# --smp N: N vCPUs, run round-robin by one host thread under -icount
		# 2 GB: perf 6.1 reading interop_zstd's file reached 643 MB anon-rss beside the
		# tests' files in the tmpfs: with 1 GB the OOM killer took it and the guest stopped
		# answering (6.1-arm64, 2026-11-23, when the whole tree was in the initramfs too)
		return (qemu_bin($arch), qw(-M virt -cpu max -icount), "shift=$shift", qw(-m 2048), -smp => $o{smp} || 1,
			qw(-nodefaults -display none -serial stdio -no-reboot),
			-kernel => $o{kernel}, -initrd => $o{initrd},
			-append => "console=ttyAMA0 quiet panic=-1 $o{append}", @disk, @img);
	}
	my @accel = $o{accel} eq 'kvm' ? qw(-accel kvm -cpu host) : qw(-accel tcg -cpu max);
	# the uncompressed kernel through PVH: the bzImage's decompressor is seconds under TCG
	my $kernel = PCVM::Pvh::image($o{kernel}) // $o{kernel};
	# a whole tree in the initramfs (no images) needs the room: it unpacks into a tmpfs of
	# half the RAM, and the static selftests passed 256 MB ("Initramfs unpacking failed:
	# write error"); with the tree on a disk image, 512 MB as before
	my $mem = @img ? 512 : 1024;
	# -nodefaults: no NIC (and its iPXE ROM) nor VGA to set up; the console is the serial port
	# no_timer_check: a loaded TCG host can fail the IO-APIC timer check (seen: 6.1 panicked)
	# rcu_cpu_stall_timeout=300 (its maximum, default 21 s): under TCG on a loaded host the
	# boot's ACPI interpreter ran 18 s of guest time without a quiescent state ("rcu_preempt
	# self-detected stall", beside "AE_AML_LOOP_TIMEOUT" in _PRT: 6.12 at speed factor 19.7,
	# 2026-11-23); a real stall still lasts past 300 s and is still reported
	return (qemu_bin($arch), @accel, -m => $mem, -smp => $o{smp} || 1,
		qw(-nodefaults -display none -serial stdio -no-reboot),
		-kernel => $kernel, -initrd => $o{initrd},
		-append => "console=ttyS0 quiet panic=-1 no_timer_check rcupdate.rcu_cpu_stall_timeout=300 $o{append}",
		@disk, @img);
}

# Boots; returns { console, state => finished|hung|panicked|exited|no-boot,
# qemu_status, wall_s, hello_s (host seconds from start to the init's hello),
# first_test_s }.  $o{on_marker}->($line) is called for each marker line.
sub boot {
	my (%o) = @_;
	my $nonce = $o{nonce};
	my $boot_timeout = $o{boot_timeout} // 60;
	my $step_timeout = $o{step_timeout} // 60;
	my $t0 = time;
	my %r = (console => '', state => 'no-boot');
	my (undef, undef, undef, $cu0, $cs0) = POSIX::times();
	pipe(my $rd, my $wr) or die "pipe: $!";
	my $pid = fork() // die "fork: $!";
	if (!$pid) {
		close $rd;
		open(STDIN, '<', '/dev/null');
		open(STDOUT, '>&', $wr);
		open(STDERR, '>&', $wr);
		setpgrp(0, 0);
		exec @{$o{cmd}} or do { print "vm: cannot run $o{cmd}[0]: $!\n"; POSIX::_exit(127) };
	}
	close $wr;
	my $sel = IO::Select->new($rd);
	my $deadline = $t0 + $boot_timeout;
	my ($buf, $saw_done, $exited, $killed) = ('', 0, 0, 0);
	my %running;			# "SUITE NAME ATTEMPT" => until when it may run
	# Under -icount (the arm64 rows) the guest's clock counts instructions, and a
	# loaded host runs fewer than one per ns: a test's timeout, in guest seconds,
	# takes longer on the host's clock.  The wall time per guest second, measured
	# at boot and on each test that ends (the largest seen), scales the deadline.
	my $icount = grep { $_ eq '-icount' } @{$o{cmd}};
	my $wall_per_guest_s = 1;
	my %started;			# "SUITE NAME ATTEMPT" => when it began, on the host's clock
	open(my $log, '>', $o{log}) if $o{log};
	$log->autoflush(1) if $log;	# the console is readable while the guest runs
	while (1) {
		my $left = $deadline - time;
		# before the init's hello the budget is QEMU's CPU time, not the host's clock:
		# on a loaded host (every row of the matrix on 2 cores) a guest had 32 s of CPU in
		# 180 s and had not finished unpacking its initramfs (arm64 rows, 2026-11-26).  A
		# guest that computes gets its budget (up to 10 x on the clock); one that spins
		# without speaking uses it up; one that idles (under 5% of a CPU) is not waiting
		# for the CPU, and is killed at the boot timeout
		my $waited = time - $t0;
		if ($left <= 0 && !defined $r{hello_s} && $waited < 10 * $boot_timeout) {
			my $cpu = _cpu_seconds($pid);
			if (defined $cpu && $cpu < $boot_timeout && $cpu >= 0.05 * $waited) {
				$deadline = time + ($boot_timeout - $cpu < 5 ? 5 : $boot_timeout - $cpu);
				$left = $deadline - time;
			}
		}
		if ($left <= 0) {
			kill 'KILL', -$pid;
			kill 'KILL', $pid;
			$killed = 1;
			last;
		}
		next unless $sel->can_read($left > 1 ? 1 : $left);
		my $n = sysread($rd, my $chunk, 65536);
		last unless $n;
		print $log $chunk if $log;
		$r{console} .= $chunk;
		$buf .= $chunk;
		while ($buf =~ s/^([^\n]*)\n//) {
			my $line = $1;
			my $at = index($line, "PCVM:$nonce:");
			next if $at < 0;
			my $m = substr($line, $at + length("PCVM:$nonce:"));
			$o{on_marker}->($m) if $o{on_marker};
			if ($m =~ /^hello/) {
				$r{hello_s} = time - $t0;
				$wall_per_guest_s = $r{hello_s} / ($1 / 1000)
					if $icount && $m =~ /\bboot_ms=(\d+)/ && $1 >= 1000 &&
					   $r{hello_s} / ($1 / 1000) > $wall_per_guest_s;
			} elsif ($m =~ /^(?:start|begin) (\S+) (\S+) timeout=(\d+)(.*)/) {
				# a test runs (tests side by side: each "start"s, and prints all at its end)
				my ($s, $n, $t, $rest) = ($1, $2, $3, $4);
				my $key = "$s $n " . ($rest =~ /attempt=(\d+)/ ? $1 : 1);
				$r{first_test_s} //= time - $t0;
				$started{$key} //= time;
				$running{$key} //= time + ($icount ? 2 * $wall_per_guest_s : 1) * $t +
						   $step_timeout;
			} elsif ($m =~ /^end (\S+) (\S+)(.*)/) {
				my ($s, $n, $rest) = ($1, $2, $3);
				my $key = "$s $n " . ($rest =~ /attempt=(\d+)/ ? $1 : 1);
				if ($icount && $started{$key} && $rest =~ /\belapsed_ms=(\d+)/ && $1 >= 1000) {
					my $w = (time - $started{$key}) / ($1 / 1000);
					$wall_per_guest_s = $w if $w > $wall_per_guest_s;
				}
				delete $running{$key};
				delete $started{$key};
			} elsif ($m =~ /^done/) {
				$saw_done = 1;
			}
			# the guest lives while it speaks, and while a test has time left
			my ($last) = sort { $b <=> $a } values %running;
			$deadline = $saw_done ? time + 30 : time + $step_timeout;
			$deadline = $last if !$saw_done && $last && $last > $deadline;
		}
	}
	close $log if $log;
	close $rd;
	waitpid($pid, 0);
	$r{qemu_status} = $?;
	# the CPU time QEMU (or the host row's init) used: what 2 shared cores pay for a row
	my (undef, undef, undef, $cu1, $cs1) = POSIX::times();
	$r{cpu_s} = ($cu1 + $cs1 - $cu0 - $cs0) / POSIX::sysconf(POSIX::_SC_CLK_TCK());
	$r{wall_s} = time - $t0;
	if ($saw_done) {
		$r{state} = 'finished';
	} elsif ($r{console} =~ /Kernel panic - not syncing/) {
		$r{state} = 'panicked';
	} elsif ($killed) {
		$r{state} = defined $r{hello_s} ? 'hung' : 'no-boot';
	} else {
		$r{state} = defined $r{hello_s} ? 'exited' : 'no-boot';
	}
	return \%r;
}

# The CPU seconds process PID has used (all its threads), from /proc; undef without it.
sub _cpu_seconds {
	my ($pid) = @_;
	open(my $h, '<', "/proc/$pid/stat") or return undef;
	my $l = <$h> // return undef;
	# the fields after the command name, whose parentheses may hold anything
	my @f = split / /, substr($l, rindex($l, ')') + 2);
	return undef unless @f > 12;
	return ($f[11] + $f[12]) / POSIX::sysconf(POSIX::_SC_CLK_TCK());
}

# KVM when a short trial boot with it reaches the init; else TCG.
sub pick_accel {
	my (%o) = @_;
	return $ENV{PERFCHECK_VM_ACCEL} if $ENV{PERFCHECK_VM_ACCEL};
	return 'tcg' unless -w '/dev/kvm';
	my $nonce = sprintf('%08x', int(rand(2**32)));
	make_path($o{work});
	my $initrd = "$o{work}/kvm-trial.img";
	my $ov = overlay_initramfs($o{work}, "nonce $nonce\n", undef);
	system("cat '$o{base}' '$ov' > '$initrd'");
	my $r = boot(cmd => [command(accel => 'kvm', kernel => $o{kernel}, initrd => $initrd,
				       append => '')],
		     nonce => $nonce, boot_timeout => 20, step_timeout => 10);
	return $r->{state} eq 'finished' ? 'kvm' : 'tcg';
}

1;
