# SPDX-License-Identifier: GPL-2.0
# Reading a guest's serial console (or the host row's output): the init's
# "PCVM:NONCE:" markers, the raw TAP of each test between them, and what the
# kernel said.  Only lines carrying this run's nonce are markers, so neither
# a test's output nor a kernel message can forge one.
package PCVM::Console;
use strict;
use warnings;

our @SPLAT = (
	qr/\bWARNING: (?:CPU: |at |possible |suspicious )/,
	qr/\bBUG: /, qr/\bkernel BUG at /, qr/\bOops\b/, qr/\bgeneral protection fault\b/,
	qr/\bKASAN\b/, qr/\bUBSAN: /, qr/\bcircular locking dependency\b/,
	qr/\binconsistent lock state\b/, qr/\bINFO: possible recursive locking\b/,
	qr/\brcu: INFO: /, qr/\bdetected stalls? on CPUs?\b/, qr/\bself-detected stall\b/,
	qr/\bKernel panic - not syncing\b/, qr/\bsoft lockup\b/, qr/\bhung_task\b|blocked for more than \d+ seconds/,
);

# Kernel log lines that match a splat pattern.
sub splats {
	my ($text) = @_;
	my @hits;
	for my $line (split /\n/, $text // '') {
		$line =~ s/\r//g;
		for my $re (@SPLAT) {
			if ($line =~ $re) { push @hits, $line; last; }
		}
	}
	return @hits;
}

# A kernel message on the console: "[    1.234567] ..." (CONFIG_PRINTK_TIME)
sub _is_kernel_line { return $_[0] =~ /^\s*\[\s*\d+\.\d+\]/ }

# Returns {
#   hello => {release, boot_ms, factor, ...} or undef,
#   tests => [ { suite, name, timeout, tap => [lines], status, elapsed_ms, ended } ],
#   done => 0|1, artifacts => 'ok'|'error:...'|undef, notes => [...],
#   panic => line or undef, kernel => [kernel lines], garbage => count,
# }
sub parse {
	my ($text, $nonce) = @_;
	my %c = (tests => [], done => 0, notes => [], kernel => [], garbage => 0);
	my $cur;
	my $tag = "PCVM:$nonce:";
	for my $line (split /\n/, $text // '') {
		$line =~ s/\r//g;
		# a marker may follow a kernel message that lost its newline
		my $at = index($line, $tag);
		if ($at >= 0) {
			my $before = substr($line, 0, $at);
			push @{$cur->{tap}}, $before if $cur && $before =~ /\S/ && !_is_kernel_line($before);
			_marker(\%c, \$cur, substr($line, $at + length $tag));
			next;
		}
		if (_is_kernel_line($line)) {
			push @{$c{kernel}}, $line;
			$c{panic} //= $line if $line =~ /Kernel panic - not syncing/;
			next;
		}
		$c{panic} //= $line if $line =~ /Kernel panic - not syncing/;
		if ($cur) {
			push @{$cur->{tap}}, $line;
		} elsif ($line =~ /\S/) {
			$c{garbage}++ if $c{hello};
		}
	}
	return \%c;
}

sub _kv {
	my ($s) = @_;
	my %h;
	$h{$1} = $2 while $s =~ /(\w+)=(\S*)/g;
	return \%h;
}

sub _marker {
	my ($c, $cur, $m) = @_;
	if ($m =~ /^hello (.*)/) {
		$c->{hello} = _kv($1);
	} elsif ($m =~ /^start (\S+) (\S+)(.*)/) {
		# tests side by side: listed when they start (a guest that dies
		# meanwhile names them), their output follows "begin" at their end
		my $t = { suite => $1, name => $2, tap => [], ended => 0, %{_kv($3)} };
		push @{$c->{tests}}, $t;
		$c->{started}{"$1 $2 " . ($t->{attempt} // 1)} = $t;
	} elsif ($m =~ /^begin (\S+) (\S+)(.*)/) {
		my $kv = _kv($3);
		my $t = delete $c->{started}{"$1 $2 " . ($kv->{attempt} // 1)};
		if (!$t) {
			$t = { suite => $1, name => $2, tap => [], ended => 0, %$kv };
			push @{$c->{tests}}, $t;
		}
		$$cur = $t;
	} elsif ($m =~ /^end (\S+) (\S+)(.*)/) {
		my $kv = _kv($3);
		if ($$cur && $$cur->{suite} eq $1 && $$cur->{name} eq $2) {
			@{$$cur}{qw(status elapsed_ms busy_ms)} = @$kv{qw(status elapsed_ms busy_ms)};
			$$cur->{ended} = 1;
		}
		$$cur = undef;
	} elsif ($m =~ /^artifacts (\S+)/) {
		$c->{artifacts} = $1;
	} elsif ($m =~ /^done/) {
		$c->{done} = 1;
		$$cur = undef;
	} elsif ($m =~ /^paranoid (.*)/) {
		$c->{paranoid} = _kv($1);
	} else {
		push @{$c->{notes}}, $m;
	}
}

1;
