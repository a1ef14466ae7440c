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

# A local standard user, the attacker of the steps below: they run
# commands through Start-Process -Credential, with no admin rights.
$attacker = 'ctrldattacker'
# 14 characters: net user asks for a confirmation beyond that.
$password = 'Ct1!' + [guid]::NewGuid().ToString('N').Substring(0, 10)
net user $attacker $password /add /comment:"ctrld-install CI" | Out-Null
if ($LASTEXITCODE -ne 0) { Fail "could not create the standard user $attacker" }
$credential = New-Object System.Management.Automation.PSCredential($attacker, (ConvertTo-SecureString $password -AsPlainText -Force))

# Invoke-AsAttacker runs a cmd.exe command line as the standard user and
# returns its exit code.
function Invoke-AsAttacker($commandLine) {
    $p = Start-Process cmd.exe -ArgumentList '/c', $commandLine -Credential $credential -WorkingDirectory $env:SystemRoot -Wait -PassThru -WindowStyle Hidden
    return $p.ExitCode
}

# Assert-Private fails unless only SYSTEM and Administrators may read the
# file (a protected DACL), and the attacker cannot.
function Assert-Private($path) {
    $acl = Get-Acl $path
    if (-not $acl.AreAccessRulesProtected) { Fail "$path inherits its DACL" }
    foreach ($rule in $acl.Access) {
        $who = $rule.IdentityReference.Value
        if ($who -ne 'NT AUTHORITY\SYSTEM' -and $who -ne 'BUILTIN\Administrators') { Fail "$who may access $($path): $($rule.FileSystemRights)" }
    }
    if ((Invoke-AsAttacker "type `"$path`" > nul") -eq 0) { Fail "the standard user can read $path" }
}

# Assert-Ours fails unless the record folder is a real folder with the
# protected DACL, owned by SYSTEM or Administrators, that users cannot
# write.
function Assert-Ours {
    $item = Get-Item $data -Force
    if ($item.Attributes -band [IO.FileAttributes]::ReparsePoint) { Fail "$data is a reparse point" }
    $acl = Get-Acl $data
    if (-not $acl.AreAccessRulesProtected) { Fail "$data inherits its DACL" }
    if ($acl.Owner -ne 'NT AUTHORITY\SYSTEM' -and $acl.Owner -ne 'BUILTIN\Administrators') { Fail "$data is owned by $($acl.Owner)" }
    if ((Invoke-AsAttacker "echo x> `"$data\planted.txt`"") -eq 0) { Fail "the standard user can write in $data" }
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
# The evidence copy and install-msi's verbose log: SYSTEM and
# Administrators only.
foreach ($private in 'ctrld-install-msiexec.log', 'ctrld-install-evidence.json') {
    $path = Join-Path $data $private
    if (Test-Path $path) { Assert-Private $path }
    elseif ($private -like '*.log') { Fail "install-msi left no log at $path" }
}

# 3. Uninstall leaves nothing of ours.
$code = Invoke-Msiexec @('/x', "`"$msi`"", '/qn')
if ($code -ne 0) { Fail "uninstall exited $code" }
if (Test-Path (Join-Path $dir 'ctrld.exe')) { Fail 'uninstall left ctrld.exe' }

# Install-Over runs a working install after the attacker prepared the
# record folder's path, and checks the wrapper took the path back.
function Install-Over($what, $log) {
    $code = Invoke-Msiexec @('/i', "`"$msi`"", '/qn', "PROVISION_TOKEN=$token", '/l*v', $log)
    if ($code -ne 0) { Fail "msiexec exited $code over $what, want 0" }
    $line = & (Join-Path $dir 'ctrld-install.exe') last
    if ($line -ne 'provisioning complete (exit 0)') { Fail "ctrld-install last over $($what): $line" }
    Assert-Ours
    Assert-NoToken $log
}

function Remove-Install {
    $code = Invoke-Msiexec @('/x', "`"$msi`"", '/qn')
    if ($code -ne 0) { Fail "uninstall exited $code" }
    if (Test-Path $data) { Remove-Item -Recurse -Force $data }
}

# 4. A standard user made the folder first, with a record of their own
# in it: the install still succeeds, in a folder that is ours.
if (Test-Path $data) { Remove-Item -Recurse -Force $data }
if ((Invoke-AsAttacker "mkdir `"$data`" && echo $failed> `"$data\ctrld-install-last-result`"") -ne 0) { Fail 'the standard user could not create the folder' }
if ((Get-Acl $data).Owner -notlike "*\$attacker") { Fail "the planted folder is owned by $((Get-Acl $data).Owner)" }
Install-Over 'a folder a standard user made' 'attack-folder.log'
if (-not (Get-ChildItem $env:ProgramData -Filter 'ControlD.untrusted-*' -Force)) { Fail "the user's folder was not moved aside" }
Remove-Install

# 5. A standard user made a junction there, to a folder of theirs:
# removed as a link, nothing written through it.
$target = Join-Path $env:PUBLIC 'ctrld-junction-target'
if ((Invoke-AsAttacker "mkdir `"$target`" && mklink /J `"$data`" `"$target`"") -ne 0) { Fail 'the standard user could not create the junction' }
if (-not ((Get-Item $data -Force).Attributes -band [IO.FileAttributes]::ReparsePoint)) { Fail "$data is not a junction" }
Install-Over 'a junction a standard user made' 'attack-junction.log'
if (Get-ChildItem $target -Force) { Fail "the wrapper wrote through the junction into $target" }
Remove-Install

Get-ChildItem $env:ProgramData -Filter 'ControlD.untrusted-*' -Force | Remove-Item -Recurse -Force
Remove-Item -Recurse -Force $target
net user $attacker /delete | Out-Null
Write-Host 'windows-e2e: ok'
