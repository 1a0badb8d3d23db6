# SPDX-License-Identifier: GPL-2.0
# What changed between two matrix runs (vm/report --compare OLD NEW): cases
# that newly fail, were fixed, newly skip or are flaky, probe feature
# verdicts and behaviour verdicts that moved (supported -> missing and
# proven -> broken are regressions), and rows whose wall time changed more
# than twice.
package PCVM::Compare;
use strict;
use warnings;

my %BAD = map { ($_ => 1) } qw(fail error not-run);

sub _by_row { my ($res) = @_; return { map { ($_->{row} => $_) } @$res } }

# Returns { new_fail, fixed, new_skip, flaky, features, slower, faster, gone_rows, new_rows }
# (each a list of hashes) and { regression => 0|1 }.
sub diff {
	my ($old, $new) = @_;
	my ($o, $n) = (_by_row($old), _by_row($new));
	my %d = map { ($_ => []) } qw(new_fail fixed new_skip flaky features wall gone_rows new_rows);
	for my $row (map { $_->{row} } @$new) {
		my $nr = $n->{$row};
		my $or = $o->{$row};
		if (!$or) { push @{$d{new_rows}}, { row => $row }; }
		my %os = $or ? map { ($_->{id} => $_) } @{$or->{cases}} : ();
		for my $c (@{$nr->{cases}}) {
			my $oc = $os{$c->{id}};
			my $was = $oc ? $oc->{status} : 'absent';
			my %e = (row => $row, id => $c->{id}, was => $was, now => $c->{status},
				 reason => $c->{reason} // '');
			if ($BAD{$c->{status}} && !$BAD{$was}) { push @{$d{new_fail}}, \%e }
			elsif ($BAD{$was} && $c->{status} eq 'pass') { push @{$d{fixed}}, \%e }
			elsif ($c->{status} eq 'skip' && $was eq 'pass') { push @{$d{new_skip}}, \%e }
			push @{$d{flaky}}, \%e if $c->{status} eq 'flaky';
		}
		next unless $or;
		my ($of, $nf) = ($or->{features} // {}, $nr->{features} // {});
		for my $f (sort keys %$nf) {
			my $was = $of->{$f} // 'absent';
			next if $was eq $nf->{$f};
			push @{$d{features}}, { row => $row, feature => $f, was => $was, now => $nf->{$f},
						regression => ($was eq 'supported') ? 1 : 0 };
		}
		# what the behaviour checks showed: a feature proven before and broken now regressed
		my ($ob, $nb) = ($or->{behaviour} // {}, $nr->{behaviour} // {});
		for my $f (sort keys %$nb) {
			my $was = ref $ob->{$f} eq 'HASH' ? ($ob->{$f}{verdict} // '?') : 'absent';
			my $now = ref $nb->{$f} eq 'HASH' ? ($nb->{$f}{verdict} // '?') : '?';
			next if $was eq $now;
			push @{$d{features}}, { row => $row, feature => "$f (behaviour)", was => $was, now => $now,
						regression => ($was eq 'proven' && $now eq 'broken') ? 1 : 0 };
		}
		my ($ow, $nw) = ($or->{wall_s}, $nr->{wall_s});
		if ($ow && $nw && ($nw > 2 * $ow || $ow > 2 * $nw)) {
			push @{$d{wall}}, { row => $row, was => $ow, now => $nw };
		}
	}
	push @{$d{gone_rows}}, map { { row => $_->{row} } } grep { !$n->{$_->{row}} } @$old;
	$d{regression} = (@{$d{new_fail}} || grep { $_->{regression} } @{$d{features}}) ? 1 : 0;
	return \%d;
}

sub text {
	my ($d, $oldname, $newname) = @_;
	my $s = "compare $oldname -> $newname\n";
	my @sec = (
		[new_fail => 'new failures', sub { "$_[0]{row}  $_[0]{id}: $_[0]{was} -> $_[0]{now}"
			. ($_[0]{reason} ne '' ? " ($_[0]{reason})" : '') }],
		[fixed => 'fixed', sub { "$_[0]{row}  $_[0]{id}: $_[0]{was} -> pass" }],
		[new_skip => 'newly skipped', sub { "$_[0]{row}  $_[0]{id}: $_[0]{reason}" }],
		[flaky => 'flaky', sub { "$_[0]{row}  $_[0]{id}: $_[0]{reason}" }],
		[features => 'feature verdicts that moved', sub { "$_[0]{row}  $_[0]{feature}: $_[0]{was} -> $_[0]{now}"
			. ($_[0]{regression} ? '  REGRESSION' : '') }],
		[wall => 'row wall time more than 2x apart', sub { sprintf('%s  %.1fs -> %.1fs', $_[0]{row}, $_[0]{was}, $_[0]{now}) }],
		[new_rows => 'rows only in the new run', sub { $_[0]{row} }],
		[gone_rows => 'rows only in the old run', sub { $_[0]{row} }],
	);
	for my $sec (@sec) {
		my ($k, $title, $fmt) = @$sec;
		my @l = @{$d->{$k}};
		$s .= sprintf("%s: %d\n", $title, scalar @l);
		$s .= join('', map { '  ' . $fmt->($_) . "\n" } @l);
	}
	$s .= $d->{regression} ? "verdict: REGRESSION (a new failure, or a feature no longer supported or no longer working)\n"
			       : "verdict: no regression\n";
	return $s;
}

1;
