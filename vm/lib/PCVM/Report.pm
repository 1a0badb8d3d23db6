# SPDX-License-Identifier: GPL-2.0
# The merged report of per-kernel results (one run, or the shards of a CI
# job matrix): the kernel x test and kernel x feature tables as text and
# Markdown, one JSON document, JUnit through TAP::Formatter::JUnit, and
# optionally KCIDB JSON.
package PCVM::Report;
use strict;
use warnings;
use JSON::PP;
use POSIX qw(strftime);
use PCVM::Html;
use PCVM::Result;
use PCVM::Compare;

sub load {
	my ($results, @rows) = @_;
	my @dirs = @rows ? map { "$results/$_" } @rows
		 : sort map { s{/result\.json$}{}r } glob("$results/*/result.json");
	my @r;
	for my $d (@dirs) {
		open(my $fh, '<', "$d/result.json") or next;
		local $/;
		push @r, decode_json(<$fh>);
	}
	return \@r;
}

my %CELL = (pass => 'ok', fail => 'FAIL', skip => 'skip', error => 'ERROR', 'not-run' => 'not-run',
	    flaky => 'FLAKY');

# Rows of test ids in first-seen order; cells "status" with footnoted reasons.
sub _test_table {
	my ($res) = @_;
	my (@ids, %seen, %cell, @notes, %note);
	for my $r (@$res) {
		for my $c (@{$r->{cases}}) {
			push @ids, $c->{id} unless $seen{$c->{id}}++;
			my $txt = $CELL{$c->{status}} // $c->{status};
			if (defined $c->{reason} && $c->{status} ne 'pass') {
				my $n = $note{$c->{reason}} //= do { push @notes, $c->{reason}; scalar @notes };
				$txt .= "[$n]";
			}
			$cell{$c->{id}}{$r->{row}} = $txt;
		}
	}
	return (\@ids, \%cell, \@notes);
}

sub _features {
	my ($res) = @_;
	my (@f, %seen);
	for my $r (@$res) {
		next unless ref $r->{features} eq 'HASH';
		for (sort keys %{$r->{features}}) { push @f, $_ unless $seen{$_}++ }
	}
	return @f;
}


sub _kernel_lines {
	my ($r) = @_;
	my $s = "$r->{row}: " . ($r->{release} // '-') . ($r->{arch} ? " $r->{arch}" : '') . ", $r->{state}";
	$s .= ", $r->{package} $r->{version}" if $r->{package};
	$s .= sprintf(', %s, init at %.1fs, first test %.1fs, factor %.1f, %.1fs',
		      $r->{accel} // '-', $r->{hello_s} // 0, $r->{first_test_s} // 0,
		      $r->{factor} // 0, $r->{wall_s} // 0) if defined $r->{hello_s};
	$s .= "\n    $r->{pin_note}" if $r->{pin_note};
	$s .= "\n    error: $r->{error}" if $r->{error};
	$s .= "\n    splat: $_" for @{$r->{splats} // []};
	$s .= "\n    vm/known-failures line no longer failing here: $_" for @{$r->{stale_known} // []};
	if ($r->{console_tail}) {
		$s .= "\n    console tail:\n" . join('', map { "      | $_\n" } grep { /\S/ }
						grep { defined } (split /\n/, $r->{console_tail})[-8 .. -1]);
		chomp $s;
	}
	return "$s\n";
}

sub _grid {
	my ($head, $rows) = @_;
	my @w = map { length } @$head;
	for my $row (@$rows) {
		for my $i (0 .. $#$row) { $w[$i] = length $row->[$i] if length $row->[$i] > $w[$i] }
	}
	my $fmt = join('  ', map { "%-${_}s" } @w) . "\n";
	my $s = sprintf($fmt, @$head);
	$s .= sprintf($fmt, @$_) for @$rows;
	$s =~ s/ +$//mg;
	return $s;
}

sub text {
	my ($res) = @_;
	my @k = map { $_->{row} } @$res;
	my ($ids, $cell, $notes) = _test_table($res);
	my $s = "Kernels\n" . join('', map { '  ' . _kernel_lines($_) } @$res);
	$s .= "\nkernel x test\n" . _grid(['test', @k],
		[map { my $id = $_; [$id, map { $cell->{$id}{$_} // '-' } @k] } @$ids]);
	$s .= join('', map { sprintf("  [%d] %s\n", $_ + 1, $notes->[$_]) } 0 .. $#$notes);
	my @f = _features($res);
	$s .= "\nkernel x feature (perfcheck probe: accepted; probe --behaviour: proven or BROKEN)\n";
	$s .= @f ? _grid(['feature', @k], [map { my $f = $_;
		[$f, map { PCVM::Result::feature_cell($_, $f)->[0] } @$res] } @f])
		 : "  no probe result from any kernel\n";
	$s .= "\n" . summary_line($res) . "\n";
	return $s;
}

sub markdown {
	my ($res) = @_;
	my @k = map { $_->{row} } @$res;
	my ($ids, $cell, $notes) = _test_table($res);
	my $md = "## perfcheck kernel matrix\n\n" . summary_line($res) . "\n\n";
	$md .= "| kernel | arch | release | state | package | init (s) | first test (s) | factor | wall (s) |\n"
	     . "|---|---|---|---|---|---|---|---|---|\n";
	for my $r (@$res) {
		$md .= sprintf("| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", $r->{row}, $r->{arch} // '-',
			       $r->{release} // '-', $r->{state} . (@{$r->{splats}} ? ' + splat' : ''),
			       join(' ', grep { defined } $r->{package}, $r->{version}) || '-',
			       map { $_ // '-' } @$r{qw(hello_s first_test_s factor wall_s)});
	}
	$md .= "\n" . join('', map { "> **$_->{row}**: $_->{pin_note}\n" } grep { $_->{pin_note} } @$res);
	$md .= join('', map { "> **$_->{row}**: $_->{error}\n" } grep { $_->{error} } @$res);
	for my $r (@$res) {
		$md .= "> **$r->{row}**: vm/known-failures line no longer failing: `$_`\n" for @{$r->{stale_known} // []};
	}
	for my $r (grep { @{$_->{splats}} || $_->{console_tail} } @$res) {
		$md .= "\n<details><summary>$r->{row}: "
		     . (@{$r->{splats}} ? 'kernel splat' : $r->{state}) . "</summary>\n\n```\n"
		     . join("\n", @{$r->{splats}}, $r->{console_tail} // '') . "\n```\n</details>\n";
	}
	$md .= "\n### kernel x test\n\n| test | " . join(' | ', @k) . " |\n|---|"
	     . join('', map { '---|' } @k) . "\n";
	for my $id (@$ids) {
		$md .= "| `$id` | " . join(' | ', map { $cell->{$id}{$_} // '-' } @k) . " |\n";
	}
	$md .= "\n" . join('', map { sprintf("%d. %s\n", $_ + 1, $notes->[$_] =~ s/\|/\\|/gr) } 0 .. $#$notes);
	my @f = _features($res);
	if (@f) {
		$md .= "\n### kernel x feature\n\n| feature | " . join(' | ', @k) . " |\n|---|"
		     . join('', map { '---|' } @k) . "\n";
		for my $f (@f) {
			$md .= "| $f | " . join(' | ', map { PCVM::Result::feature_cell($_, $f)->[0] } @$res) . " |\n";
		}
	}
	return $md;
}

sub counts {
	my ($res) = @_;
	my %n = map { ($_ => 0) } qw(pass fail skip error not-run flaky);
	for my $r (@$res) { $n{$_->{status}}++ for @{$r->{cases}} }
	return \%n;
}

sub summary_line {
	my ($res) = @_;
	my $n = counts($res);
	my $bad = grep { $_->{failed} } @$res;
	return sprintf('%d kernels (%d failed): %d passed, %d failed, %d skipped, %d errors, %d not run, %d flaky',
		       scalar @$res, $bad, @$n{qw(pass fail skip error not-run flaky)});
}

sub failed { my ($res) = @_; return scalar grep { $_->{failed} } @$res }

sub json {
	my ($res) = @_;
	return JSON::PP->new->pretty->canonical->encode({
		generated => strftime('%Y-%m-%dT%H:%M:%SZ', gmtime), counts => counts($res),
		kernels => $res });
}

# JUnit from the per-kernel TAP files, by the real formatter.
sub junit {
	my ($results, $res, $out) = @_;
	my @tap = map { glob("$results/$_->{row}/tap/*.tap") } @$res;
	return 0 unless @tap;
	my $pid = fork() // die "fork: $!";
	if (!$pid) {
		open(STDOUT, '>', $out) or POSIX::_exit(1);
		open(STDERR, '>', '/dev/null');
		exec('prove', '--formatter', 'TAP::Formatter::JUnit', @tap) or POSIX::_exit(127);
	}
	waitpid($pid, 0);
	return 0 unless -s $out;
	_junit_flaky($results, $res, $out);
	return 1;
}

# The formatter sees a flaky case as TAP TODO (a pass): mark it as Surefire's
# <flakyFailure>, which JUnit consumers (Jenkins, GitLab) show as flaky.
sub _junit_flaky {
	my ($results, $res, $out) = @_;
	my @flaky = map { my $r = $_; map { [$r->{row}, $_] } grep { $_->{status} eq 'flaky' } @{$r->{cases}} } @$res;
	return unless @flaky;
	open(my $fh, '<', $out) or return;
	my $x = do { local $/; <$fh> };
	close $fh;
	for my $f (@flaky) {
		my ($row, $c) = @$f;
		my ($suite, $name, $case) = $c->{id} =~ m{^perf-test/(.*)$} ? ('perf-test', 'perf-test', $1)
					  : $c->{id} =~ m{^([^/]+)/([^:]+):(.*)$} or next;
		(my $ts = "$results/$row/tap/$suite.$name.tap") =~ s/[\/.]/_/g;
		(my $msg = $c->{reason} // 'flaky') =~ s/&/&amp;/g;
		$msg =~ s/</&lt;/g;
		$msg =~ s/"/&quot;/g;
		(my $qcase = $case) =~ s/&/&amp;/g;
		$qcase =~ s/</&lt;/g;
		$qcase =~ s/"/&quot;/g;
		$x =~ s{(<testsuite\b[^>]*\bname="\Q$ts\E"[^>]*>(?:(?!</testsuite>).)*?<testcase name="\d+ \Q$qcase\E")(?:></testcase>|\s*/>)}
		       {$1><flakyFailure message="$msg"/></testcase>}s;
	}
	_spew($out, $x);
}

# KCIDB v4 JSON: one build per kernel row, one test per case.
sub kcidb {
	my ($res, $origin) = @_;
	$origin //= 'perfcheck';
	# KCIDB has no flaky: DONE (ran, neither pass nor fail), with our status in misc
	my %ST = (pass => 'PASS', fail => 'FAIL', skip => 'SKIP', error => 'ERROR', 'not-run' => 'MISS',
		  flaky => 'DONE');
	my (@checkouts, @builds, @tests);
	my $now = strftime('%Y-%m-%dT%H:%M:%S+00:00', gmtime);
	for my $r (@$res) {
		my $bid = "$origin:" . ($r->{package} // $r->{row}) . ($r->{version} ? "_$r->{version}" : '');
		$bid =~ s/[^A-Za-z0-9_.:+~-]/_/g;
		push @checkouts, { id => "$bid", origin => $origin, comment => "Debian $r->{row}",
				   valid => JSON::PP::true };
		push @builds, { id => $bid, checkout_id => $bid, origin => $origin,
				architecture => $r->{arch} // 'x86_64',
				comment => ($r->{release} // $r->{row}), valid => $r->{error} ? JSON::PP::false : JSON::PP::true };
		for my $c (@{$r->{cases}}) {
			(my $path = "perfcheck.$c->{id}") =~ s{[/:]}{.}g;
			$path =~ s/[^A-Za-z0-9_.-]/_/g;
			push @tests, { id => "$bid:$path", build_id => $bid, origin => $origin, path => $path,
				       status => $ST{$c->{status}}, start_time => $now,
				       environment => { comment => "QEMU $r->{accel}" },
				       misc => { perfcheck_status => $c->{status} },
				       ($c->{reason} ? (comment => $c->{reason}) : ()) };
		}
	}
	return JSON::PP->new->pretty->canonical->encode({ version => { major => 4, minor => 3 },
		checkouts => \@checkouts, builds => \@builds, tests => \@tests });
}

# Writes summary.md, results.json, junit.xml (and kcidb.json) into RESULTS.
sub write_all {
	my (%o) = @_;
	my ($results, $res) = @o{qw(results res)};
	_spew("$results/summary.md", markdown($res));
	_spew("$results/results.json", json($res));
	_spew("$results/summary.txt", text($res));
	my $cmp;
	if ($o{baseline}) {
		my $old = load($o{baseline});
		$cmp = PCVM::Compare::diff($old, $res) if @$old;
	}
	_spew("$results/index.html", PCVM::Html::page($res, summary => summary_line($res), compare => $cmp,
						       baseline_name => $o{baseline}));
	junit($results, $res, "$results/junit.xml");
	_spew($o{kcidb}, kcidb($res)) if $o{kcidb};
	if ($ENV{GITHUB_STEP_SUMMARY}) {
		if (open(my $fh, ">>", $ENV{GITHUB_STEP_SUMMARY})) { print $fh markdown($res); close $fh }
	}
}

sub _spew {
	my ($f, $s) = @_;
	open(my $h, '>', $f) or die "$f: $!";
	print $h $s;
	close $h;
}

1;
