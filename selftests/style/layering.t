#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# Data flows one way: read from the built objects (nm), not from the sources.
#   selftests/style/layering.t [BUILD]     (BUILD: $PERFCHECK_BUILD, else build)
#
# A product object is any .o under BUILD/obj/{lib,reader,recorder,probes,
# stat,emulate,cli}.  An object "uses" another when one of its undefined
# symbols is a global the other defines.  Two rules:
#   - no two product objects use each other (A uses B and B uses A);
#   - nothing under lib/ uses an object of reader/ recorder/ probes/ stat/
#     emulate/ cli/ (the library is below every command).
# Objects whose source is gone (a stale build) are left out.
# A violation fails naming both objects and every symbol each one takes
# from the other.  The first test plants such a pair (two objects compiled
# here) and checks the analysis finds it, so the rules cannot pass by
# finding nothing.
use strict;
use warnings;
use File::Find;
use File::Temp qw(tempdir);
use Test::More;

my @PRODUCT = qw(lib reader recorder probes stat emulate cli);
my @ABOVE_LIB = qw(reader recorder probes stat emulate cli);

# nm of each object: the globals it defines and the symbols it leaves undefined
sub read_objects {
	my (@objs) = @_;
	my (%def, %und);

	for my $o (@objs) {
		open(my $nm, '-|', 'nm', '-P', $o) or die "nm $o: $!";
		while (<$nm>) {
			my ($sym, $type) = split;
			next unless defined $type;
			if ($type eq 'U') {
				$und{$o}{$sym} = 1;
			} elsif ($type =~ /^[A-TV-Z]$/) {
				$def{$sym} //= $o;
			}
		}
		close($nm) or die "nm $o failed\n";
	}
	return (\%def, \%und);
}

# uses{A}{B} = [symbols A takes from B]
sub uses_of {
	my ($def, $und) = @_;
	my %uses;

	for my $a (keys %$und) {
		for my $sym (keys %{$und->{$a}}) {
			my $b = $def->{$sym};
			push @{$uses{$a}{$b}}, $sym if defined $b && $b ne $a;
		}
	}
	for my $a (keys %uses) {
		@$_ = sort @$_ for values %{$uses{$a}};
	}
	return \%uses;
}

sub name_of {
	my ($obj, $root) = @_;
	(my $n = $obj) =~ s{^\Q$root\E/}{};
	return $n;
}

# "A <-> B: A uses x, y of B; B uses z of A" for every pair using each other
sub mutual_pairs {
	my ($uses, $root) = @_;
	my @out;

	for my $a (sort keys %$uses) {
		for my $b (sort keys %{$uses->{$a}}) {
			next unless $a lt $b && $uses->{$b} && $uses->{$b}{$a};
			my ($na, $nb) = (name_of($a, $root), name_of($b, $root));
			push @out, "$na <-> $nb: $na uses " . join(', ', @{$uses->{$a}{$b}}) .
				" of $nb; $nb uses " . join(', ', @{$uses->{$b}{$a}}) . " of $na";
		}
	}
	return @out;
}

# "lib/X.o -> reader/Y.o: sym, ..." for lib objects using anything above lib/
sub lib_upward {
	my ($uses, $root) = @_;
	my $above = join('|', @ABOVE_LIB);
	my @out;

	for my $a (sort keys %$uses) {
		my $na = name_of($a, $root);
		next unless $na =~ m{^lib/};
		for my $b (sort keys %{$uses->{$a}}) {
			my $nb = name_of($b, $root);
			push @out, "$na -> $nb: " . join(', ', @{$uses->{$a}{$b}})
				if $nb =~ m{^(?:$above)/};
		}
	}
	return @out;
}

sub analyse {
	my ($root, @objs) = @_;
	my ($def, $und) = read_objects(@objs);
	my $uses = uses_of($def, $und);

	return ([mutual_pairs($uses, $root)], [lib_upward($uses, $root)]);
}

# -- the analysis finds a planted violation
{
	my $cc = $ENV{CC} || 'cc';
	my $tmp = tempdir('layering.XXXXXX', TMPDIR => 1, CLEANUP => 1);
	my %src = (
		'lib/a.c' => "int b_fn(void); int a_fn(void) { return b_fn(); }\n",
		'reader/b.c' => "int a_fn(void); int b_fn(void) { return a_fn() + 1; }\n",
	);
	my @objs;
	for my $f (sort keys %src) {
		my $dir = "$tmp/" . ($f =~ s{/[^/]*$}{}r);
		mkdir $dir;
		open(my $fh, '>', "$tmp/$f") or die;
		print $fh $src{$f};
		close $fh;
		(my $o = "$tmp/$f") =~ s/\.c$/.o/;
		system($cc, '-c', '-o', $o, "$tmp/$f") == 0 or BAIL_OUT("$cc cannot compile the planted pair");
		push @objs, $o;
	}
	my ($pairs, $up) = analyse($tmp, @objs);
	is_deeply($pairs, ['lib/a.o <-> reader/b.o: lib/a.o uses b_fn of reader/b.o; reader/b.o uses a_fn of lib/a.o'],
		  'a planted pair of objects using each other is found, with both symbols');
	is_deeply($up, ['lib/a.o -> reader/b.o: b_fn'], 'a planted lib/ object using reader/ is found');
}

# -- the product
my $build = shift // $ENV{PERFCHECK_BUILD} // 'build';
my $root = "$build/obj";
my @objs;
find({ wanted => sub { push @objs, $File::Find::name if /\.o$/ }, no_chdir => 1 },
     grep { -d } map { "$root/$_" } @PRODUCT);
# an object left from a source since removed is not the product
my $src = $ENV{PERFCHECK_SRCDIR} // '.';
@objs = sort grep { my $c = name_of($_, $root) =~ s/\.o$/.c/r; -f "$src/$c" } @objs;
# ~150 objects today: fewer than 50 means the build is not where we look
cmp_ok(scalar @objs, '>=', 50, "the product's objects are found under $root")
	or diag("build first (make), or name the build directory: $0 BUILD");
my ($pairs, $up) = analyse($root, @objs);
ok(!@$pairs, 'no two product objects use each other\'s symbols') or diag(join("\n", @$pairs));
ok(!@$up, 'no lib/ object uses a symbol of reader/ recorder/ probes/ stat/ emulate/ cli/')
	or diag(join("\n", @$up));
done_testing();
