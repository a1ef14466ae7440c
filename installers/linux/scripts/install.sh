#!/bin/sh
# Install ctrld from this archive and provision it, for machines without a
# package manager. The token comes from a root-only file named with
# --token-file, or the settings file {{.SettingsFile}}; arguments go to
# "ctrld-install start". Exits with ctrld-install's code.
#   sudo ./install.sh --token-file /root/ctrld-token
#   sudo PREFIX=/opt/ctrld ./install.sh    (default PREFIX: /usr/local)
# A token in a command line (sudo VAR=token ...) is readable by every
# local user for as long as the install runs: use a file.
set -u
# Our own PATH and no CDPATH: a caller's settings must not choose which
# cp runs as root, nor which folder "cd" lands in.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
unset CDPATH
prefix=${PREFIX:-/usr/local}
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P) || exit 69
mkdir -p "$prefix/bin" {{.Home}} || exit 69
chmod 700 {{.Home}} || exit 69
for f in {{.Ctrld}} {{.Wrapper}}; do
	# Copy then rename, so a running binary is replaced, not overwritten.
	cp "$here/$f" "$prefix/bin/.$f.new" &&
		chmod 755 "$prefix/bin/.$f.new" &&
		mv -f "$prefix/bin/.$f.new" "$prefix/bin/$f" || exit 62
done
exec "$prefix/bin/{{.Wrapper}}" start "$@"
