#!/bin/sh
# On purge (deb) or erase (rpm passes 0), remove the files this package's
# programs made in {{.Home}}, by name, and the folder if that empties it.
# Anything else an admin put there stays.
case "$1" in
purge | 0)
	rm -f{{range .HomeFiles}} {{$.Home}}/{{.}}{{end}}
	rmdir {{.Home}} 2>/dev/null || true
	;;
esac
exit 0
