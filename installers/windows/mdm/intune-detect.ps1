# Intune detection / remediation-detection script for ctrld.
# Prints the last provisioning result line and exits 0 only when it says
# "provisioning complete (exit 0)"; prints nothing and exits 1 when
# ctrld-install never recorded a result. Kept minimal on purpose:
# ctrld-install validates the record, so only the fixed line is printed.
$wrapper = if ($env:CTRLD_INSTALL) { $env:CTRLD_INSTALL } else { Join-Path $env:ProgramFiles 'ControlD\ctrld-install.exe' }
if (-not (Test-Path -LiteralPath $wrapper)) { exit 1 }
$line = & $wrapper last 2>$null
if ($LASTEXITCODE -ne 0 -or -not $line) { exit 1 }
Write-Output $line
if ($line -eq 'provisioning complete (exit 0)') { exit 0 }
exit 1
