# Installs the demo MSI from `go run mage.go dist` on real Windows, as
# Intune would: the demo ctrld fails at the listener once (msiexec must
# return 1603 and roll back), then succeeds. Run from the repository root
# by CI's Windows jobs (elevated).
$ErrorActionPreference = 'Stop'

$token = 'org-v1-canary-0d3f9a7c2b'
# Windows Installer's and Go's names for this machine's architecture: the
# MSI is ctrld-<version>-<arch>[-DEMO].msi, its wrapper is staged in
# build\bin\windows-<goarch>.
$arch = @{ 'AMD64' = 'x64'; 'ARM64' = 'arm64'; 'x86' = 'x86' }[$env:PROCESSOR_ARCHITECTURE]
$goarch = @{ 'AMD64' = 'amd64'; 'ARM64' = 'arm64'; 'x86' = '386' }[$env:PROCESSOR_ARCHITECTURE]
$msi = (Get-ChildItem "dist\ctrld-*-$arch.msi", "dist\ctrld-*-$arch-DEMO.msi" | Select-Object -First 1).FullName
if (-not $msi) { Write-Host "windows-e2e: no $arch MSI in dist"; exit 1 }
Write-Host "windows-e2e: installing $msi"
$wrapper = (Resolve-Path "build\bin\windows-$goarch\ctrld-install.exe").Path
$dir = Join-Path $env:ProgramFiles 'ControlD'
$data = Join-Path $env:ProgramData 'ControlD'
$scenario = Join-Path $dir 'fake-ctrld.scenario'

function Fail($message) {
    Write-Host "windows-e2e: $message"
    exit 1
}

function Invoke-Msiexec($arguments) {
    return (Start-Process msiexec.exe -ArgumentList $arguments -Wait -PassThru).ExitCode
}

# The wrapper writes the event during the install, before the MSI registers
# its event source (and a rollback unregisters it), so the event is found
# by its provider name and read from its XML, not its formatted message.
function Find-Event($id) {
    $events = Get-WinEvent -FilterHashtable @{ LogName = 'Application'; Id = $id } -MaxEvents 100 -ErrorAction SilentlyContinue
    $entry = $events | Where-Object { $_.ProviderName -eq 'ctrld-install' } | Select-Object -First 1
    if (-not $entry) { Fail "no ctrld-install event $id in the Application log" }
    return $entry.ToXml()
}

function Assert-NoToken($path) {
    if (Select-String -Path $path -SimpleMatch $token -Quiet) { Fail "the token is in $path" }
}

# 1. ctrld fails at the listener: 1603, rollback, the line kept.
New-Item -ItemType Directory -Force $dir | Out-Null
Set-Content -Path $scenario -Value 'start.fail=listener,LISTENER_BIND_FAILED,41' -Encoding ascii
$code = Invoke-Msiexec @('/i', "`"$msi`"", '/qn', "PROVISION_TOKEN=$token", '/l*v', 'fail.log')
if ($code -ne 1603) { Fail "msiexec exited $code on a failing ctrld, want 1603" }
if (Test-Path (Join-Path $dir 'ctrld-install.exe')) { Fail 'the rollback left ctrld-install.exe' }
$failed = 'provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)'
$last = Get-Content (Join-Path $data 'ctrld-install-last-result') -Raw
if (-not $last.Contains($failed)) { Fail "last result: $last" }
$entry = Find-Event 41
if (-not $entry.Contains($failed)) { Fail "event 41: $entry" }
Assert-NoToken 'fail.log'

# install-msi runs msiexec itself and exits with the stage code.
& $wrapper install-msi $msi "PROVISION_TOKEN=$token"
if ($LASTEXITCODE -ne 41) { Fail "install-msi exited $LASTEXITCODE, want 41" }

# 2. ctrld succeeds: installed, the record, the event, a private data folder.
Remove-Item $scenario
$code = Invoke-Msiexec @('/i', "`"$msi`"", '/qn', "PROVISION_TOKEN=$token", '/l*v', 'ok.log')
if ($code -ne 0) { Fail "msiexec exited $code on a working ctrld" }
$line = & (Join-Path $dir 'ctrld-install.exe') last
if ($line -ne 'provisioning complete (exit 0)') { Fail "ctrld-install last: $line" }
$entry = Find-Event 100
if (-not $entry.Contains('provisioning complete (exit 0)')) { Fail "event 100: $entry" }
# The record's folder: SYSTEM and Administrators full control, users read
# at most.
$acl = icacls $data
$acl | Write-Host
foreach ($who in 'NT AUTHORITY\SYSTEM', 'BUILTIN\Administrators') {
    if (-not ($acl | Select-String -SimpleMatch "$($who):" | Select-String -SimpleMatch '(F)')) { Fail "$who lacks full control of $data" }
}
foreach ($line in $acl | Select-String 'Users:|Everyone:') {
    if ($line.Line -notmatch '\((RX|R)\)\s*$') { Fail "users may change $($data): $($line.Line)" }
}
Assert-NoToken 'ok.log'

# 3. Uninstall leaves nothing of ours.
$code = Invoke-Msiexec @('/x', "`"$msi`"", '/qn')
if ($code -ne 0) { Fail "uninstall exited $code" }
if (Test-Path (Join-Path $dir 'ctrld.exe')) { Fail 'uninstall left ctrld.exe' }
Write-Host 'windows-e2e: ok'
