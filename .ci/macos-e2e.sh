#!/bin/sh
# Installs the demo pkg from `go run mage.go dist` on a real Mac, as an MDM
# would: a managed-preferences plist carries a test token, the demo ctrld
# fails at the listener once and then succeeds. Run from the repository
# root by CI's macOS job (needs sudo).
set -eu

token=org-v1-canary-0d3f9a7c2b
prefs="/Library/Managed Preferences/com.controld.ctrld.plist"
# The pkg installs both binaries here (contract.MacBinDir).
bin=/Library/ControlD
scenario="$bin/fake-ctrld.scenario"
pkg=$(ls dist/ctrld-*.pkg)

fail() {
  echo "macos-e2e: $*" >&2
  exit 1
}

# run_installer runs Installer and keeps the install.log lines it added
# in /tmp/ctrld-install.log.
run_installer() {
  start=$(($(sudo cat /var/log/install.log | wc -l) + 1))
  status=0
  sudo installer -pkg "$pkg" -target / || status=$?
  sudo tail -n +"$start" /var/log/install.log | tee /tmp/ctrld-install.log >/dev/null
  return "$status"
}

sudo mkdir -p "/Library/Managed Preferences" "$bin"
sudo tee "$prefs" >/dev/null <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0"><dict><key>ProvisionToken</key><string>$token</string></dict></plist>
PLIST

echo "start.fail=listener,LISTENER_BIND_FAILED,41" | sudo tee "$scenario" >/dev/null
if run_installer; then
  fail "installer succeeded although ctrld failed"
fi
failed="provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)"
grep -F "$failed" /tmp/ctrld-install.log || fail "install.log lacks: $failed"
[ "$(sudo "$bin/ctrld-install" last)" = "$failed" ] || fail "ctrld-install last disagrees"

sudo rm -f "$scenario"
run_installer || fail "installer failed with a working ctrld"
grep -F "provisioning complete (exit 0)" /tmp/ctrld-install.log || fail "install.log lacks the success line"
[ "$(sudo "$bin/ctrld-install" last)" = "provisioning complete (exit 0)" ] || fail "ctrld-install last disagrees"
pkgutil --pkg-info com.controld.ctrld || fail "no receipt"
if sudo grep -F "$token" /var/log/install.log; then
  fail "the token is in install.log"
fi

sudo "$bin/ctrld" uninstall
sudo rm -f "$bin/ctrld" "$bin/ctrld-install" "$prefs"
sudo pkgutil --forget com.controld.ctrld
if pkgutil --pkg-info com.controld.ctrld 2>/dev/null; then
  fail "receipt left after uninstall"
fi
echo "macos-e2e: ok"
