# SPDX-License-Identifier: GPL-2.0
# results/index.html: the matrix as one static, self-contained page (no
# network, no script, no framework): the kernels, the kernel x test and
# kernel x feature tables as colored cells, each test cell linking to that
# case's TAP log (ROW/tap/SUITE.NAME.tap) with its reason on hover and as a
# numbered footnote, and the comparison with a baseline run when given.
package PCVM::Html;
use strict;
use warnings;
use PCVM::Result;

sub esc {
	my ($s) = @_;
	$s //= '';
	$s =~ s/&/&amp;/g;
	$s =~ s/</&lt;/g;
	$s =~ s/>/&gt;/g;
	$s =~ s/"/&quot;/g;
	return $s;
}

my %LABEL = (pass => 'pass', fail => 'FAIL', skip => 'skip', error => 'ERROR', 'not-run' => 'not run',
	     flaky => 'FLAKY');

my $CSS = <<'CSS';
body { font: 14px/1.4 sans-serif; margin: 1em 2em; color: #222; }
table { border-collapse: collapse; margin: .5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
th { background: #eee; position: sticky; top: 0; }
td.c { text-align: center; min-width: 4em; }
td.c a { color: inherit; text-decoration: none; display: block; }
.pass, .yes { background: #c8e6c9; }
.fail, .error, .not-run { background: #ef9a9a; font-weight: bold; }
.skip, .unknown { background: #fff3c4; }
.flaky { background: #ffcc80; font-weight: bold; }
.no { background: #e0e0e0; }
.absent { background: #fff; color: #999; }
.reg { color: #b71c1c; font-weight: bold; }
code { font-size: 12px; }
ol.notes { font-size: 12px; color: #555; }
CSS

# The file of a case's log, relative to the results directory.
sub _log_of {
	my ($row, $id) = @_;
	my ($suite, $name) = $id =~ m{^([^/]+)/([^:]+)} or return "$row/console.log";
	$name = 'perf-test' if $suite eq 'perf-test';
	return "$row/tap/$suite.$name.tap";
}

sub page {
	my ($res, %o) = @_;
	my @k = map { $_->{row} } @$res;
	my (@ids, %seen, %cell, @notes, %note);
	for my $r (@$res) {
		for my $c (@{$r->{cases}}) {
			push @ids, $c->{id} unless $seen{$c->{id}}++;
			my $n;
			if (defined $c->{reason} && $c->{status} ne 'pass') {
				$n = $note{$c->{reason}} //= do { push @notes, $c->{reason}; scalar @notes };
			}
			$cell{$c->{id}}{$r->{row}} = { %$c, note => $n };
		}
	}
	my $h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      . "<title>perfcheck kernel matrix</title>\n<style>\n$CSS</style></head><body>\n"
	      . "<h1>perfcheck kernel matrix</h1>\n<p id=\"summary\">" . esc($o{summary}) . "</p>\n";
	if ($o{compare}) {
		$h .= compare_html($o{compare}, $o{baseline_name});
	}
	$h .= "<h2>Kernels</h2>\n<table id=\"kernels\"><tr><th>row</th><th>release</th><th>state</th>"
	    . "<th>package</th><th>first test (s)</th><th>wall (s)</th><th>log</th></tr>\n";
	for my $r (@$res) {
		my $bad = $r->{failed} ? 'fail' : 'pass';
		$h .= "<tr><td>" . esc($r->{row}) . "</td><td>" . esc($r->{release} // '-') . "</td>"
		    . "<td class=\"$bad\">" . esc($r->{state} . (@{$r->{splats} // []} ? ' + splat' : '')) . "</td>"
		    . "<td>" . esc(join(' ', grep { defined } $r->{package}, $r->{version})) . "</td>"
		    . "<td>" . esc($r->{first_test_s} // '-') . "</td><td>" . esc($r->{wall_s} // '-') . "</td>"
		    . "<td><a href=\"" . esc("$r->{row}/console.log") . "\">console</a> "
		    . "<a href=\"" . esc("$r->{row}/artifacts/") . "\">artifacts</a></td></tr>\n";
	}
	$h .= "</table>\n<h2>kernel x test</h2>\n<table id=\"tests\"><tr><th>test</th>"
	    . join('', map { "<th>" . esc($_) . "</th>" } @k) . "</tr>\n";
	for my $id (@ids) {
		$h .= "<tr><td><code>" . esc($id) . "</code></td>";
		for my $row (@k) {
			my $c = $cell{$id}{$row};
			if (!$c) { $h .= "<td class=\"c absent\">-</td>"; next; }
			my $title = $c->{reason} ? " title=\"" . esc($c->{reason}) . "\"" : '';
			my $txt = $LABEL{$c->{status}} // $c->{status};
			$txt .= "<sup>$c->{note}</sup>" if $c->{note};
			$h .= "<td class=\"c $c->{status}\"$title><a href=\"" . esc(_log_of($row, $id)) . "\">$txt</a></td>";
		}
		$h .= "</tr>\n";
	}
	$h .= "</table>\n<ol class=\"notes\" id=\"notes\">\n" . join('', map { "<li>" . esc($_) . "</li>\n" } @notes) . "</ol>\n";
	my (@f, %fs);
	for my $r (@$res) { for (sort keys %{$r->{features} // {}}) { push @f, $_ unless $fs{$_}++ } }
	$h .= "<h2>kernel x feature</h2>\n<table id=\"features\"><tr><th>feature</th>"
	    . join('', map { "<th>" . esc($_) . "</th>" } @k) . "</tr>\n";
	for my $f (@f) {
		$h .= "<tr><td>" . esc($f) . "</td>";
		for my $r (@$res) {
			my ($text, $cls, $title) = @{PCVM::Result::feature_cell($r, $f)};
			$h .= "<td class=\"c $cls\"" . ($title ? " title=\"" . esc($title) . "\"" : '') . ">"
			    . esc($text) . "</td>";
		}
		$h .= "</tr>\n";
	}
	$h .= "</table>\n</body></html>\n";
	return $h;
}

sub compare_html {
	my ($d, $name) = @_;
	my $h = "<h2>compared with " . esc($name // 'the baseline') . "</h2>\n<p id=\"verdict\" class=\""
	      . ($d->{regression} ? 'reg' : '') . "\">"
	      . ($d->{regression} ? 'REGRESSION: a new failure or a feature no longer supported' : 'no regression')
	      . "</p>\n<table id=\"compare\"><tr><th>change</th><th>row</th><th>what</th><th>was</th><th>now</th></tr>\n";
	my @sec = ([new_fail => 'new failure'], [fixed => 'fixed'], [new_skip => 'newly skipped'],
		   [flaky => 'flaky'], [features => 'feature'], [wall => 'wall time']);
	for my $s (@sec) {
		for my $e (@{$d->{$s->[0]}}) {
			my $what = $e->{id} // $e->{feature} // 'row wall time (s)';
			my $cls = ($s->[0] eq 'new_fail' || $e->{regression}) ? ' class="reg"' : '';
			$h .= "<tr$cls><td>$s->[1]</td><td>" . esc($e->{row}) . "</td><td><code>" . esc($what)
			    . "</code></td><td>" . esc($e->{was}) . "</td><td>" . esc($e->{now}) . "</td></tr>\n";
		}
	}
	return "$h</table>\n";
}

1;
