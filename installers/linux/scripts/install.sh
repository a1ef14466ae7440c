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
self=$(id -u) || exit 69

# Refuse a $PREFIX/bin, or a binary in it, that a user other than root
# (and us) could replace. These are the wrapper's rules for the ctrld it
# runs (CheckReplaceable in wrapper/internal/safefile), kept identical:
# every folder from / down is a folder owned by a trusted uid, an entry in
# a group- or world-writable folder is refused unless the folder is sticky
# and the entry is a trusted uid's, the file is a regular file owned by a
# trusted uid and not group- or world-writable, and symbolic links are
# followed (at most 32), with the folders of both link and target checked.
# $PREFIX/bin itself is checked as the folder the binaries will be in.
refuse() {
	echo "install.sh: refusing to install into $bin: $1; use a PREFIX only root can write to" >&2
	exit 62
}
trusted() { [ "$1" -eq 0 ] || [ "$1" -eq "$self" ]; }
writable() { case $1 in ?????w* | ????????w*) return 0 ;; esac; return 1; }
sticky() { case $1 in ?????????[tT]*) return 0 ;; esac; return 1; }
# node sets mode and owner of a path itself, not following a link.
node() {
	# ls's fields are wanted split; set -f keeps them from globbing.
	# shellcheck disable=SC2046
	set -- $(ls -ldn -- "$1" 2>/dev/null)
	[ $# -ge 3 ] || return 1
	mode=$1 owner=$3
}
check_dir() {
	case $mode in d*) ;; *) refuse "$1 is not a directory" ;; esac
	trusted "$owner" || refuse "directory $1 is owned by uid $owner"
}
# check_entry dir dir-mode entry-owner
check_entry() {
	writable "$2" || return 0
	sticky "$2" && trusted "$3" && return 0
	refuse "directory $1 is group- or world-writable"
}
check_file() {
	case $mode in -*) ;; *) refuse "$1 is not a regular file" ;; esac
	trusted "$owner" || refuse "$1 is owned by uid $owner"
	! writable "$mode" || refuse "$1 is group- or world-writable"
}
# clean drops empty, "." and ".." parts, as Go's filepath.Clean does.
clean() {
	out='' old_ifs=$IFS IFS=/
	for part in $1; do
		case $part in
		'' | .) ;;
		..) out=${out%/*} ;;
		*) out=$out/$part ;;
		esac
	done
	IFS=$old_ifs
	path=${out:-/}
}
# walk checks path from / down; at a symbolic link it sets next to the
# path to walk instead. The last part is a file, or with "dir" a folder
# the binaries go in (so an entry of ours, a trusted uid's).
walk() {
	next=
	clean "$1"
	node / || refuse "/ cannot be read"
	check_dir /
	cur=/ curmode=$mode at=/ rest=${path#/}
	while [ -n "$rest" ]; do
		name=${rest%%/*}
		case $rest in */*) rest=${rest#*/} ;; *) rest= ;; esac
		at=${cur%/}/$name
		node "$at" || refuse "$at is missing"
		check_entry "$cur" "$curmode" "$owner"
		case $mode in l*)
			link=$(readlink -- "$at") || refuse "link $at cannot be read"
			case $link in /*) ;; *) link=${cur%/}/$link ;; esac
			next=$link${rest:+/$rest}
			return
			;;
		esac
		[ -n "$rest" ] || break
		check_dir "$at"
		cur=$at curmode=$mode
	done
	if [ "$2" = dir ]; then
		check_dir "$at"
		check_entry "$at" "$mode" 0
	else
		check_file "$at"
	fi
}
check_replaceable() {
	next=$1 links=0
	while [ -n "$next" ]; do
		[ "$links" -le 32 ] || refuse "too many symbolic links on the way to $1"
		walk "$next" "$2"
		links=$((links + 1))
	done
}

here=$(cd -P -- "$(dirname -- "$0")" && pwd -P) || exit 69
case $bin in /*) ;; *) refuse "$bin is not an absolute path" ;; esac
mkdir -p "$bin" || exit 69
check_replaceable "$bin" dir
for f in {{.Ctrld}} {{.Wrapper}}; do
	if [ -e "$bin/$f" ] || [ -L "$bin/$f" ]; then
		check_replaceable "$bin/$f" file
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
