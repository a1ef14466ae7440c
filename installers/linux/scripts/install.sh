#!/bin/sh
# Install ctrld from this archive and provision it, for machines without a
# package manager. The token comes from a root-only file named with
# --token-file, or the settings file {{.SettingsFile}}; arguments go to
# "ctrld-install start". Exits with ctrld-install's code.
#   sudo ./install.sh --token-file /root/ctrld-token
#   sudo PREFIX=/opt/ctrld ./install.sh    (default PREFIX: /usr/local)
# A token in a command line (sudo VAR=token ...) is readable by every
# local user for as long as the install runs: use a file.
set -uf
# Our own PATH, umask and no CDPATH: a caller's settings must not choose
# which cp runs as root, the modes of what it creates, nor which folder
# "cd" lands in.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export PATH
umask 022
unset CDPATH
prefix=${PREFIX:-/usr/local}
bin=$prefix/bin
here=$(cd -P -- "$(dirname -- "$0")" && pwd -P) || exit 69

# The bundled ctrld-install judges, with the rules it applies to the ctrld
# it runs, whether a user other than root (and us) could replace
# $PREFIX/bin or a binary in it, and names the folder as the kernel
# resolves it: that folder, not $PREFIX, is what gets the binaries. It
# says why it refuses, and its exit code is ours.
refuse() {
	code=$?
	echo "install.sh: refusing to install into $bin; use a PREFIX only root can write to" >&2
	exit "$code"
}
check() { "$here/{{.Wrapper}}" check-path "$@" || refuse; }
case $bin in /*) mkdir -p "$bin" || exit 69 ;; esac
bin=$(check --dir "$bin") || exit
for f in {{.Ctrld}} {{.Wrapper}}; do
	if [ -e "$bin/$f" ] || [ -L "$bin/$f" ]; then
		check "$bin/$f" >/dev/null
	fi
done
(umask 077 && mkdir -p {{.Home}}) || exit 69
chmod 700 {{.Home}} || exit 69
for f in {{.Ctrld}} {{.Wrapper}}; do
	# Copy then rename, so a running binary is replaced, not overwritten.
	cp "$here/$f" "$bin/.$f.new" &&
		chmod 755 "$bin/.$f.new" &&
		mv -f "$bin/.$f.new" "$bin/$f" || exit 62
done
exec "$bin/{{.Wrapper}}" start "$@"
