#!/bin/sh
# Jamf Pro extension attribute: the last ctrld provisioning result on this
# Mac, e.g. "provisioning failed: stage=listener code=LISTENER_BIND_FAILED
# (exit 41)". Empty when ctrld-install never ran. ctrld-install validates
# the recorded line before printing it, so only the fixed line can appear.
wrapper=${CTRLD_INSTALL:-/Library/ControlD/ctrld-install}
[ -x "$wrapper" ] || exit 0
line=$("$wrapper" last 2>/dev/null) || exit 0
[ -n "$line" ] && printf '<result>%s</result>\n' "$line"
exit 0
