# watch-entry.pl DIR NAME LOG: records, inside a guest, every inotify event on the directory entry
# DIR/NAME, one line each: the events' names and the entry's permission bits when the event was
# read ("gone" when it no longer exists). Runs on the guest's perl-base alone (x86_64 syscall
# numbers); prints "watching" once the watch is in place. A file's mode changes only through
# chmod, which the kernel reports as ATTRIB, so a log without ATTRIB whose CREATE lines read 0600
# shows a file that never had another mode.
use strict;
use warnings;

my ($dir, $name, $log) = @ARGV;
my %events = (
    0x2 => "MODIFY", 0x4 => "ATTRIB", 0x8 => "CLOSE_WRITE", 0x40 => "MOVED_FROM",
    0x80 => "MOVED_TO", 0x100 => "CREATE", 0x200 => "DELETE", 0x4000 => "OVERFLOW");
my $mask = 0x2 | 0x4 | 0x8 | 0x40 | 0x80 | 0x100 | 0x200;

my $fd = syscall(294, 0);    # inotify_init1(0)
die "inotify_init1: $!\n" if $fd < 0;
my $path = "$dir";
die "inotify_add_watch $dir: $!\n" if syscall(254, $fd, $path, $mask) < 0;
open(my $in, "<&=", $fd) or die "inotify fd: $!\n";
open(my $out, ">>", $log) or die "$log: $!\n";
select($out);
$| = 1;
print "watching\n";

while (1) {
    my $n = sysread($in, my $buf, 65536);
    last unless $n;
    for (my $off = 0; $off < $n;) {
        my ($wd, $m, $cookie, $len) = unpack("iIII", substr($buf, $off, 16));
        my $entry = unpack("Z*", substr($buf, $off + 16, $len));
        $off += 16 + $len;
        next unless ($m & 0x4000) || $entry eq $name;
        my @st = lstat("$dir/$name");
        my $mode = @st ? sprintf("%04o", $st[2] & 07777) : "gone";
        print join("|", map { $events{$_} } grep { $m & $_ } sort { $a <=> $b } keys %events), " $mode\n";
    }
}
