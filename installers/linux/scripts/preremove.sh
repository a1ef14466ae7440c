#!/bin/sh
# Before the files go, have ctrld-install uninstall ctrld's service and
# delete the wrapper's own records: the same uninstall on every OS. deb
# passes "remove" (not "upgrade"); rpm passes 0 when the last version is
# erased. ctrld-install bounds ctrld's own uninstall (offline it can wait
# minutes) and then, on systemd and sysv alike, makes sure the daemon is
# stopped, the init system no longer knows its service in any state and
# resolv.conf is restored, all within 30 s, so the removal always goes on.
case "$1" in
remove | 0)
	echo "ctrld: stopping and uninstalling the ctrld service (at most 30 s)"
	{{.Bin}}/{{.Wrapper}} uninstall --ctrld {{.Bin}}/{{.Ctrld}} >/dev/null 2>&1 </dev/null ||
		echo "ctrld: ctrld reported an error while uninstalling; its daemon was stopped anyway"
	;;
esac
exit 0
