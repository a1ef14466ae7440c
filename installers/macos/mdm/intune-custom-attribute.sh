#!/bin/sh
# Microsoft Intune custom attribute for macOS (Devices > macOS > Custom
# attributes, data type String): the last ctrld provisioning result on this
# Mac, e.g. "provisioning failed: stage=listener code=LISTENER_BIND_FAILED
# (exit 41)". Intune keeps what the script prints on stdout, so it prints
# the bare line, and nothing when ctrld-install never ran or its record is
# not valid. ctrld-install validates the recorded line before printing it,
# so only the fixed line can appear.
wrapper=${CTRLD_INSTALL:-/Library/ControlD/ctrld-install}
[ -x "$wrapper" ] || exit 0
line=$("$wrapper" last 2>/dev/null) || exit 0
[ -n "$line" ] && printf '%s\n' "$line"
exit 0
