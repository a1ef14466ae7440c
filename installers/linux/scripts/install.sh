#!/bin/sh
# Install ctrld from this archive and provision it, for machines without a
# package manager. The token comes from CTRLD_PROVISION_TOKEN or the
# settings file {{.SettingsFile}}. Exits with ctrld-install's code.
#   sudo CTRLD_PROVISION_TOKEN=... ./install.sh
#   PREFIX=/opt/ctrld ./install.sh    (default PREFIX: /usr/local)
set -u
prefix=${PREFIX:-/usr/local}
here=$(cd "$(dirname "$0")" && pwd) || exit 69
mkdir -p "$prefix/bin" {{.Home}} || exit 69
chmod 700 {{.Home}} || exit 69
for f in {{.Ctrld}} {{.Wrapper}}; do
	# Copy then rename, so a running binary is replaced, not overwritten.
	cp "$here/$f" "$prefix/bin/.$f.new" &&
		chmod 755 "$prefix/bin/.$f.new" &&
		mv -f "$prefix/bin/.$f.new" "$prefix/bin/$f" || exit 62
done
exec "$prefix/bin/{{.Wrapper}}" start
