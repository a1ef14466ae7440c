#!/bin/sh
# After the files land, provision ctrld through ctrld-install, which prints
# the one result line and exits with its code: a failure leaves a deb
# half-configured (fix, then `dpkg --configure -a`) and makes rpm warn.
# deb passes "configure" (and the old version on upgrade); rpm passes 1
# (install) or 2 (upgrade). The ctrld to run is named: on a move between
# lines rpm runs this before the other line's binary is gone.
case "$1" in
configure | 1 | 2) ;;
*) exit 0 ;;
esac
if ! {{.Bin}}/{{.Wrapper}} configured; then
	echo "ctrld: installed, not provisioned: no token in {{.SettingsFile}} or {{.TokenEnv}}"
	exit 0
fi
exec {{.Bin}}/{{.Wrapper}} start --ctrld {{.Bin}}/{{.Ctrld}}
