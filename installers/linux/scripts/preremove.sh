#!/bin/sh
# Before the files go, have ctrld-install uninstall ctrld's service and
# delete the wrapper's own records: the same uninstall on every OS. deb
# passes "remove" (not "upgrade"); rpm passes 0 when the last version is
# erased.
case "$1" in
remove | 0)
	{{.Bin}}/{{.Wrapper}} uninstall --ctrld {{.Bin}}/{{.Ctrld}} >/dev/null 2>&1 </dev/null ||
		echo "ctrld: the service could not be uninstalled; run: {{.Bin}}/{{.Ctrld}} uninstall"
	;;
esac
exit 0
