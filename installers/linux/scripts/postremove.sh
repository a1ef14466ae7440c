#!/bin/sh
# Once the files are gone, remove what ctrld itself left: its sockets and
# pid file in /run and the /etc/rc?.d links its uninstall keeps. On purge
# (deb) or erase (rpm passes 0), also remove ctrld's logs and the files
# this package's programs made in {{.Home}}, by name, and the folder if
# that empties it. Anything else an admin put there stays.
case "$1" in
remove | purge | 0)
	rm -f{{range .RunFiles}} {{.}}{{end}} \
		/etc/rc[0-6S].d/[SK][0-9][0-9]{{.Ctrld}}
	;;
esac
case "$1" in
purge | 0)
	rm -f{{range .Logs}} {{.}}{{end}}
	rm -f{{range .HomeFiles}} {{$.Home}}/{{.}}{{end}}
	rmdir {{.Home}} 2>/dev/null || true
	;;
esac
exit 0
