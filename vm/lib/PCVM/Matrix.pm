# SPDX-License-Identifier: GPL-2.0
# The kernel matrix file (vm/kernels) and getting each row's kernel: Debian
# packages through tools/debfetch, extracted once into the cache.
package PCVM::Matrix;
use strict;
use warnings;
use File::Path qw(make_path remove_tree);
use File::Basename qw(basename);

# Rows in file order: { name, kind => deb|host|file, arch => x86_64|aarch64, ... }
sub load {
	my ($path) = @_;
	open(my $fh, '<', $path) or die "vm: cannot read the matrix file $path: $!\n";
	my @rows;
	while (my $line = <$fh>) {
		next if $line =~ /^\s*(#|$)/;
		my @f = split ' ', $line;
		my ($name, $kind) = @f;
		die "vm: $path:$.: a row needs NAME and KIND\n" unless defined $kind;
		my %row = (name => $name, kind => $kind, line => $.);
		if ($kind eq 'deb') {
			die "vm: $path:$.: deb rows have 7 fields (8 with ARCH)\n" unless @f == 7 || @f == 8;
			@row{qw(suite regex pin vmlinuz_glob config)} = @f[2 .. 6];
			$row{pin} = '' if $row{pin} eq '-';
			$row{arch} = arch_name($f[7] // 'amd64')
				// die "vm: $path:$.: unknown ARCH '$f[7]' (amd64, arm64)\n";
		} elsif ($kind eq 'file') {
			die "vm: $path:$.: file rows need a path\n" unless @f >= 3;
			@row{qw(image config_file)} = @f[2, 3];
		} elsif ($kind ne 'host') {
			die "vm: $path:$.: unknown kind '$kind' (deb, host, file)\n";
		}
		$row{arch} //= host_arch();
		push @rows, \%row;
	}
	return @rows;
}

# Debian's architecture name -> the machine name uname and results use.
sub arch_name {
	my ($deb_arch) = @_;
	return { amd64 => 'x86_64', arm64 => 'aarch64' }->{$deb_arch};
}

sub deb_arch { my ($arch) = @_; return $arch eq 'aarch64' ? 'arm64' : 'amd64' }

sub host_arch { chomp(my $m = `uname -m`); return $m || 'x86_64' }

sub _run {
	my (@cmd) = @_;
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		open(STDERR, '>&', \*STDOUT);
		exec @cmd or exit 127;
	}
	local $/;
	my $out = <$fh> // '';
	close $fh;
	return ($? >> 8, $out);
}

sub _debfetch {
	my ($src, $suite, $regex, $pin, $arch) = @_;
	my $errf = "/tmp/pcvm-debfetch.$$." . int(rand(1e9));
	my @cmd = ("$src/tools/debfetch", '-q', '--arch', deb_arch($arch // 'x86_64'),
		   ($pin ? ('--pin', $pin) : ()), $suite, $regex);
	my $pid = open(my $fh, '-|') // die "fork: $!";
	if (!$pid) {
		open(STDERR, '>', $errf);
		exec @cmd or exit 127;
	}
	my $deb = do { local $/; <$fh> } // '';
	close $fh;
	my $rc = $? >> 8;
	my $err = '';
	if (open(my $e, '<', $errf)) { local $/; $err = <$e> // ''; close $e; }
	unlink $errf;
	chomp $deb;
	chomp $err;
	return ($rc, $deb, $err);
}

sub _field {
	my ($deb, $field) = @_;
	my ($rc, $out) = _run('dpkg-deb', '-f', $deb, $field);
	chomp $out;
	return $rc ? '' : $out;
}

# Extracts the paths matching GLOB (a tar wildcard) from DEB into DIR;
# returns the first matching file, or undef.
sub _extract {
	my ($deb, $glob, $dir) = @_;
	make_path($dir);
	system("dpkg-deb --fsys-tarfile '$deb' | tar -x -C '$dir' --wildcards './$glob' 2>/dev/null");
	my @hit = grep { -f } glob("$dir/$glob");
	return $hit[0];
}

# Resolves a row to a bootable kernel; never dies: an error is returned in
# {error} so that the other rows still run.
sub fetch {
	my ($row, $src, $cache) = @_;
	my %k = (name => $row->{name}, kind => $row->{kind}, arch => $row->{arch});
	if ($row->{kind} eq 'host') {
		chomp(my $rel = `uname -r`);
		%k = (%k, release => $rel, package => 'running kernel', version => $rel);
		$k{config} = "/boot/config-$rel" if -r "/boot/config-$rel";
		if (!$k{config} && -r '/proc/config.gz') {
			# IKCONFIG_PROC kernels carry their own config
			make_path("$cache/kernels");
			my $f = "$cache/kernels/host-$rel.config";
			$k{config} = $f if system("gzip -dc /proc/config.gz > '$f.$$' && mv '$f.$$' '$f'") == 0;
		}
		return \%k;
	}
	if ($row->{kind} eq 'file') {
		return { %k, error => "kernel image $row->{image} not found" } unless -r $row->{image};
		%k = (%k, vmlinuz => $row->{image}, package => $row->{image}, version => 'local');
		$k{config} = $row->{config_file} if $row->{config_file} && -r $row->{config_file};
		return \%k;
	}
	my ($rc, $deb, $err) = _debfetch($src, $row->{suite}, $row->{regex}, $row->{pin}, $row->{arch});
	return { %k, error => "kernel package: " . ($err || "debfetch exit $rc") }
		if $rc || !-s $deb;
	my ($pkg, $ver) = (_field($deb, 'Package'), _field($deb, 'Version'));
	%k = (%k, package => $pkg, version => $ver, suite => $row->{suite}, deb => basename($deb));
	$k{pin} = $row->{pin} if $row->{pin};
	if ($row->{pin} && "$pkg=$ver" ne $row->{pin}) {
		$k{pin_note} = "pinned $row->{pin} is gone from $row->{suite}; used the newest match $pkg=$ver";
	}
	my $dir = "$cache/kernels/${pkg}_$ver";
	if (!-f "$dir/.complete") {
		remove_tree("$dir.tmp");
		my $vmlinuz = _extract($deb, $row->{vmlinuz_glob}, "$dir.tmp/pkg");
		return { %k, error => "no $row->{vmlinuz_glob} in $pkg $ver" } unless $vmlinuz;
		rename($vmlinuz, "$dir.tmp/vmlinuz") or return { %k, error => "rename: $!" };
		my $cfg = _config($row, $deb, $src, "$dir.tmp/pkg");
		rename($cfg, "$dir.tmp/config") if $cfg;
		remove_tree("$dir.tmp/pkg");
		if (open(my $c, ">", "$dir.tmp/.complete")) { close $c }
		remove_tree($dir);
		rename("$dir.tmp", $dir) or return { %k, error => "rename $dir: $!" };
	}
	$k{vmlinuz} = "$dir/vmlinuz";
	$k{config} = "$dir/config" if -f "$dir/config";
	return \%k;
}

sub _config {
	my ($row, $deb, $src, $dir) = @_;
	my $spec = $row->{config};
	return undef if !$spec || $spec eq '-';
	return _extract($deb, $spec, $dir) unless $spec =~ /^([^:]+):(.+)$/;
	my ($prefix, $glob) = ($1, $2);
	# the dependency named PREFIX..., at the exact version the kernel wants
	for my $dep (split /\s*,\s*/, _field($deb, 'Depends')) {
		next unless $dep =~ /^(\Q$prefix\E\S*)\s*\(=\s*([^)\s]+)\)/;
		my ($rc, $cdeb) = _debfetch($src, $row->{suite}, "^\Q$1\E\$", "$1=$2", $row->{arch});
		return $rc ? undef : _extract($cdeb, $glob, "$dir/config-pkg");
	}
	return undef;
}

1;
