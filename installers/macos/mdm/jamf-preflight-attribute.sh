#!/bin/sh
# Jamf Pro extension attribute: would ctrld provisioning succeed on this
# Mac now? Prints ctrld-install preflight's one line, e.g. "preflight:
# would fail: stage=listener code=LISTENER_BIND_FAILED (exit 41)" or
# "preflight: ready (exit 0)". preflight changes nothing, ends within
# 15 s and never prints the token. Empty when ctrld-install is not
# installed.
wrapper=${CTRLD_INSTALL:-/Library/ControlD/ctrld-install}
[ -x "$wrapper" ] || exit 0
line=$("$wrapper" preflight 2>/dev/null)
case $line in
"preflight: "*) printf '<result>%s</result>\n' "$line" ;;
esac
exit 0
