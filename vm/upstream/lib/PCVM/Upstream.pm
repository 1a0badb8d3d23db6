# SPDX-License-Identifier: GPL-2.0
# Upstream interop in the kernel matrix (issue 8): each guest gets its
# suite's Debian perf (vm/upstream/stage: perf, addr2line, their libraries
# and ld.so, appended to the initramfs as one more cpio archive) and the
# attr-parity expectations; the interop_* selftests then run beside the
# others.  This module is what vm/run calls at its marked hooks: the
# payload of a row, the perf version written into the row's result, and the
# column group of the report (perf->perfcheck, perfcheck->perf, attr parity
# per kernel, with the perf used).
package PCVM::Upstream;
use strict;
use warnings;
use File::Path qw(make_path remove_tree);
use JSON::PP;

# The three interop directions and the selftest that proves each.
my @GROUP = (['perf->perfcheck', 'interop_perf_records'],
	     ['perfcheck->perf', 'interop_perfcheck_records'],
	     ['attr parity', 'interop_attr_parity']);

sub _slurp { my ($f) = @_; open(my $h, '<', $f) or return undef; local $/; my $s = <$h>; return $s }

sub _spew {
	my ($f, $s, $append) = @_;
	open(my $h, $append ? '>>' : '>', $f) or return;
	print $h $s;
	close $h;
}

# Whether vm/upstream/perfs has a row of that name.
sub has_row {
	my ($src, $name) = @_;
	open(my $fh, '<', "$src/vm/upstream/perfs") or return 0;
	while (<$fh>) { return 1 if /^\Q$name\E\s/ }
	return 0;
}

# The extra initramfs of a row: the staged perf (cached) plus a small archive
# with the expectations file, in $work.  Returns { cpio => [paths], perf,
# package, suite } or { error }, or undef when the row has no upstream perf.
sub payload {
	my ($row, $src, $work) = @_;
	return undef unless has_row($src, $row->{name});
	my $dir = `'$src/vm/upstream/stage' '$row->{name}' 2>'$work/upstream-stage.log'`;
	chomp $dir;
	if ($? || !-s "$dir/payload.cpio.zst") {
		my $log = _slurp("$work/upstream-stage.log") // '';
		$log =~ s/\s+$//;
		return { error => "upstream perf not staged: " . ($log || "stage exit " . ($? >> 8)) };
	}
	my $extra = "$work/upstream-extra";
	remove_tree($extra);
	make_path("$extra/perfcheck/upstream");
	system('cp', "$src/vm/upstream/attr-parity.expect", "$extra/perfcheck/upstream/") == 0
		or return { error => 'cannot copy vm/upstream/attr-parity.expect' };
	system("cd '$extra' && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet "
	     . "| gzip -1 > '$work/upstream-extra.cpio.gz'") == 0
		or return { error => 'cannot build the expectations archive' };
	remove_tree($extra);
	my %info = (cpio => ["$dir/payload.cpio.zst", "$work/upstream-extra.cpio.gz"]);
	chomp($info{perf} = _slurp("$dir/perf-version") // '');
	# packages: "Package: NAME Version: VERSION" per line (dpkg-deb -f)
	my ($pkg) = map { /^Package: (\S+) Version: (\S+)/ ? "$1 $2" : () }
		grep { /^Package: linux-perf/ } split /\n/, _slurp("$dir/packages") // '';
	$info{package} = $pkg // 'linux-perf';
	($info{suite}) = (_slurp("$src/vm/upstream/perfs") // '') =~ /^\Q$row->{name}\E\s+(\S+)/m;
	return \%info;
}

# The host row: the machine's own perf.
sub host_info {
	my $v = `perf --version 2>/dev/null`;
	chomp $v;
	return { error => 'no perf on this machine (package linux-perf)' } unless $v;
	my $pkg = `dpkg-query -W -f='\${Package} \${Version}' linux-perf 2>/dev/null`;
	return { perf => $v, package => $pkg || undef, suite => 'system' };
}

# Adds { upstream => info } to RESULTS/ROW/result.json (and to $r).
sub annotate {
	my ($dir, $r, $info) = @_;
	return unless $info;
	my %u = map { defined $info->{$_} ? ($_ => $info->{$_}) : () } qw(perf package suite error);
	$r->{upstream} = \%u;
	my $json = eval { decode_json(_slurp("$dir/result.json") // '') } or return;
	$json->{upstream} = \%u;
	_spew("$dir/result.json", JSON::PP->new->pretty->canonical->encode($json));
}

# One cell: the cases of one interop selftest on one kernel.
sub _cell {
	my ($r, $test) = @_;
	my %n;
	# a test and its parts (interop_attr_parity, interop_attr_parity_syntax...)
	for (grep { $_->{id} =~ m{^[^/]+/\Q$test\E(_[a-z_]+)?(:|$)} } @{$r->{cases} // []}) { $n{$_->{status}}++ }
	my $all = 0;
	$all += $_ for values %n;
	return '-' unless $all;
	my $bad = ($n{fail} // 0) + ($n{error} // 0) + ($n{'not-run'} // 0);
	my $skip = $n{skip} // 0;
	return "FAIL $bad/$all" if $bad;
	return "skip $skip/$all" if $skip == $all;
	return sprintf('ok %d/%d%s', $n{pass} // 0, $all, $skip ? ", $skip skip" : '');
}

sub _perf {
	my ($r) = @_;
	my $u = $r->{upstream} or return '-';
	return "none: $u->{error}" if $u->{error};
	(my $v = $u->{perf} // '?') =~ s/^perf version //;
	return $v . ($u->{suite} ? " ($u->{suite})" : '');
}

sub rows {
	my ($res) = @_;
	return map { my $r = $_; [$r->{row}, _perf($r), map { _cell($r, $_->[1]) } @GROUP] } @$res;
}

sub text {
	my ($res) = @_;
	my @head = ('kernel', 'upstream perf', map { $_->[0] } @GROUP);
	my @rows = rows($res);
	my @w = map { length } @head;
	for my $row (@rows) { $w[$_] = length($row->[$_]) > $w[$_] ? length($row->[$_]) : $w[$_] for 0 .. $#$row }
	my $fmt = join('  ', map { "%-${_}s" } @w) . "\n";
	my $s = "\nupstream interop (Debian's perf of each kernel's suite beside perfcheck)\n";
	$s .= sprintf($fmt, @head);
	$s .= sprintf($fmt, @$_) for @rows;
	$s =~ s/ +$//mg;
	return $s;
}

sub markdown {
	my ($res) = @_;
	my $md = "\n### upstream interop\n\nDebian's perf of each kernel's suite beside perfcheck "
	       . "(selftests interop_*; differences of attr parity: vm/upstream/attr-parity.expect).\n\n"
	       . "| kernel | upstream perf | " . join(' | ', map { $_->[0] } @GROUP) . " |\n"
	       . "|---|---|" . join('', map { '---|' } @GROUP) . "\n";
	$md .= '| ' . join(' | ', @$_) . " |\n" for rows($res);
	return $md;
}

# The report hook: the column group after the matrix tables, in the text
# output, summary.txt, summary.md and a GitHub job summary.
sub report {
	my ($results, $res) = @_;
	return unless grep { $_->{upstream} } @$res;
	my $t = text($res);
	print $t;
	_spew("$results/summary.txt", $t, 1);
	my $md = markdown($res);
	_spew("$results/summary.md", $md, 1);
	_spew($ENV{GITHUB_STEP_SUMMARY}, $md, 1) if $ENV{GITHUB_STEP_SUMMARY};
}

1;
