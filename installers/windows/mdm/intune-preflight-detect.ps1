# Intune remediation detection script: would ctrld provisioning succeed on
# this device now? Runs ctrld-install preflight, which changes nothing,
# ends within 15 s and never prints the token. Prints its one line and
# exits 0 when it says "preflight: ready (exit 0)"; prints the line that
# names the predicted code and exits 1 otherwise. Nothing goes to stderr.
$wrapper = if ($env:CTRLD_INSTALL) { $env:CTRLD_INSTALL } else { Join-Path $env:ProgramFiles 'ControlD\ctrld-install.exe' }
if (-not (Test-Path -LiteralPath $wrapper)) { Write-Output 'preflight: ctrld-install is not installed'; exit 1 }
$line = & $wrapper preflight 2>$null | Select-Object -First 1
if (-not ("$line".StartsWith('preflight: '))) { Write-Output 'preflight: no answer from ctrld-install'; exit 1 }
Write-Output $line
if ($line -eq 'preflight: ready (exit 0)') { exit 0 }
exit 1
