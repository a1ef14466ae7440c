#!/bin/sh
# Before the files go, stop and uninstall ctrld's service. deb passes
# "remove" (not "upgrade"); rpm passes 0 when the last version is erased.
case "$1" in
remove | 0)
	{{.Bin}}/{{.Ctrld}} uninstall >/dev/null 2>&1 </dev/null ||
		echo "ctrld: the service could not be uninstalled; run: {{.Bin}}/{{.Ctrld}} uninstall"
	;;
esac
exit 0
