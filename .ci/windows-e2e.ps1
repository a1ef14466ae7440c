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
# The record folder: ControlD\records under the native Program Files,
# where only administrators can create anything. $oldData is where
# releases before kept it, where any user can create things; it is read
# nowhere now, and the attacks below play there.
$records = Join-Path $env:ProgramFiles 'ControlD\records'
$oldData = Join-Path $env:ProgramData 'ControlD'
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

# Accounts that may own and change the record folder, and the rights that
# change what a folder holds or who may (write, append, extended
# attributes, delete child, attributes, delete, DACL, owner, generic all
# and write).
$trusted = 'NT AUTHORITY\SYSTEM', 'BUILTIN\Administrators', 'NT SERVICE\TrustedInstaller'
$writeRights = 0x000D0156 -bor 0x50000000

# Assert-Ours fails unless the record folder is a real folder, owned by
# SYSTEM, Administrators or TrustedInstaller, that no one else may
# change, and the attacker can write neither in it nor beside it.
function Assert-Ours {
    $item = Get-Item $records -Force
    if ($item.Attributes -band [IO.FileAttributes]::ReparsePoint) { Fail "$records is a reparse point" }
    $acl = Get-Acl $records
    if ($trusted -notcontains $acl.Owner) { Fail "$records is owned by $($acl.Owner)" }
    foreach ($rule in $acl.Access) {
        $who = $rule.IdentityReference.Value
        $inheritOnly = ([int]$rule.PropagationFlags -band [int][Security.AccessControl.PropagationFlags]::InheritOnly) -ne 0
        if ($trusted -contains $who -or $inheritOnly -or $rule.AccessControlType -ne 'Allow') { continue }
        if ([int64][int]$rule.FileSystemRights -band $writeRights) { Fail "$who may change $($records): $($rule.FileSystemRights)" }
    }
    foreach ($place in $records, (Split-Path $records)) {
        if ((Invoke-AsAttacker "echo x> `"$place\planted.txt`"") -eq 0) { Fail "the standard user can write in $place" }
    }
}

# 1. ctrld fails at the listener: 1603, rollback, the line kept.
New-Item -ItemType Directory -Force $dir | Out-Null
Set-Content -Path $scenario -Value 'start.fail=listener,LISTENER_BIND_FAILED,41' -Encoding ascii
$code = Invoke-Msiexec @('/i', "`"$msi`"", '/qn', "PROVISION_TOKEN=$token", '/l*v', 'fail.log')
if ($code -ne 1603) { Fail "msiexec exited $code on a failing ctrld, want 1603" }
if (Test-Path (Join-Path $dir 'ctrld-install.exe')) { Fail 'the rollback left ctrld-install.exe' }
$failed = 'provisioning failed: stage=listener code=LISTENER_BIND_FAILED (exit 41)'
$last = Get-Content (Join-Path $records 'ctrld-install-last-result') -Raw
if (-not $last.Contains($failed)) { Fail "last result: $last" }
$entry = Find-Event 41
if (-not $entry.Contains($failed)) { Fail "event 41: $entry" }
Assert-NoToken 'fail.log'

# install-msi runs msiexec itself and exits with the stage code.
& $wrapper install-msi $msi "PROVISION_TOKEN=$token"
if ($LASTEXITCODE -ne 41) { Fail "install-msi exited $LASTEXITCODE, want 41" }

# 2. ctrld succeeds: installed, the record, the event, a record folder
# only administrators can change.
Remove-Item $scenario
$code = Invoke-Msiexec @('/i', "`"$msi`"", '/qn', "PROVISION_TOKEN=$token", '/l*v', 'ok.log')
if ($code -ne 0) { Fail "msiexec exited $code on a working ctrld" }
$line = & (Join-Path $dir 'ctrld-install.exe') last
if ($line -ne 'provisioning complete (exit 0)') { Fail "ctrld-install last: $line" }
$entry = Find-Event 100
if (-not $entry.Contains('provisioning complete (exit 0)')) { Fail "event 100: $entry" }
icacls $records | Write-Host
Assert-Ours
Assert-NoToken 'ok.log'
# The evidence copy and install-msi's verbose log: SYSTEM and
# Administrators only.
foreach ($private in 'ctrld-install-msiexec.log', 'ctrld-install-evidence.json') {
    $path = Join-Path $records $private
    if (Test-Path $path) { Assert-Private $path }
    elseif ($private -like '*.log') { Fail "install-msi left no log at $path" }
}

# 3. Uninstall leaves nothing of ours.
$code = Invoke-Msiexec @('/x', "`"$msi`"", '/qn')
if ($code -ne 0) { Fail "uninstall exited $code" }
if (Test-Path (Join-Path $dir 'ctrld.exe')) { Fail 'uninstall left ctrld.exe' }
if (Test-Path $records) { Fail "uninstall left $records" }

# Install-Over runs a working install while the attacker holds what they
# prepared at the old place, and checks the record is ours.
function Install-Over($what, $log) {
    $code = Invoke-Msiexec @('/i', "`"$msi`"", '/qn', "PROVISION_TOKEN=$token", '/l*v', $log)
    if ($code -ne 0) { Fail "msiexec exited $code over $what, want 0" }
    Assert-Complete $what
    Assert-Ours
    Assert-NoToken $log
}

# Assert-Complete fails unless `ctrld-install last` and the record itself
# say the install succeeded.
function Assert-Complete($what) {
    $line = & (Join-Path $dir 'ctrld-install.exe') last
    if ($line -ne 'provisioning complete (exit 0)') { Fail "ctrld-install last over $($what): $line" }
    $recorded = Get-Content (Join-Path $records 'ctrld-install-last-result') -Raw
    if ($recorded.Trim() -ne 'provisioning complete (exit 0)') { Fail "the record over $($what): $recorded" }
}

function Remove-Install {
    $code = Invoke-Msiexec @('/x', "`"$msi`"", '/qn')
    if ($code -ne 0) { Fail "uninstall exited $code" }
    if (Test-Path $records) { Fail "uninstall left $records" }
    if (Test-Path -LiteralPath $oldData) { Remove-Item -LiteralPath $oldData -Recurse -Force }
}

# The attacks run as the standard user in a process of their own that
# holds what it made at the old place while the install runs: it says
# "ready" when it holds it, and lets go on "go". Its exit code is 0 when
# it did all it set out to, 3 when it could write into the record folder.
$attackDir = Join-Path $env:SystemDrive 'ctrld-attack'
New-Item -ItemType Directory -Force $attackDir | Out-Null
icacls $attackDir /grant "$($attacker):(OI)(CI)M" | Out-Null
$attackScript = Join-Path $attackDir 'attack.ps1'
Set-Content -Path $attackScript -Encoding ascii -Value @'
param([string]$Mode, [string]$Old, [string]$Records, [string]$Line, [string]$Signal)
$ErrorActionPreference = 'Stop'
# Add-Type compiles in the temp folder, which must be the user's own.
$env:TMP = $env:TEMP = Split-Path $Signal
Add-Type -TypeDefinition @"
using System;
using System.Runtime.InteropServices;
public static class Attack {
    [DllImport("kernel32.dll", SetLastError = true, CharSet = CharSet.Unicode)]
    public static extern IntPtr CreateFileW(string name, uint access, uint share, IntPtr security, uint disposition, uint flags, IntPtr template);
    // With a null DACL: everyone full control.
    [DllImport("advapi32.dll")]
    public static extern uint SetSecurityInfo(IntPtr handle, int type, uint info, IntPtr owner, IntPtr group, IntPtr dacl, IntPtr sacl);
}
"@
$writeDAC = 0x00040000; $readControl = 0x00020000; $shareAll = 7; $openExisting = 3
$backupSemantics = 0x02000000; $fileObject = 1; $daclInformation = 4
function Wait-Go {
    Set-Content "$Signal.ready" 'ready'
    while (-not (Test-Path "$Signal.go")) { Start-Sleep -Milliseconds 200 }
}
if ($Mode -eq 'handle') {
    # The folder made first, and a WRITE_DAC handle kept on it.
    New-Item -ItemType Directory $Old | Out-Null
    $h = [Attack]::CreateFileW($Old, $writeDAC -bor $readControl, $shareAll, [IntPtr]::Zero, $openExisting, $backupSemantics, [IntPtr]::Zero)
    if ($h -eq [IntPtr](-1)) { exit 2 }
    Wait-Go
    # Through the kept handle: write access back, and a forged record.
    if ([Attack]::SetSecurityInfo($h, $fileObject, $daclInformation, [IntPtr]::Zero, [IntPtr]::Zero, [IntPtr]::Zero, [IntPtr]::Zero) -ne 0) { exit 2 }
    Set-Content (Join-Path $Old 'ctrld-install-last-result') $Line
} else {
    # A file named like the old folder, held open without delete sharing.
    $held = [IO.File]::Open($Old, 'CreateNew', 'ReadWrite', 'None')
    Wait-Go
    $held.Close()
}
try { Set-Content (Join-Path $Records 'ctrld-install-last-result') $Line; exit 3 } catch { exit 0 }
'@

function Start-Attack($mode) {
    $signal = Join-Path $attackDir $mode
    Remove-Item "$signal.*" -Force -ErrorAction SilentlyContinue
    $arguments = '-NoProfile', '-ExecutionPolicy', 'Bypass', '-File', "`"$attackScript`"", '-Mode', $mode,
        '-Old', "`"$oldData`"", '-Records', "`"$records`"", '-Line', "`"$failed`"", '-Signal', "`"$signal`""
    $p = Start-Process powershell.exe -ArgumentList $arguments -Credential $credential -LoadUserProfile -WorkingDirectory $attackDir -PassThru -WindowStyle Hidden
    $null = $p.Handle # keeps the exit code readable once it exits
    for ($i = 0; $i -lt 240 -and -not (Test-Path "$signal.ready"); $i++) {
        if ($p.HasExited) { Fail "the $mode attack exited $($p.ExitCode) before it was ready" }
        Start-Sleep -Milliseconds 500
    }
    if (-not (Test-Path "$signal.ready")) { Fail "the $mode attack never got ready" }
    return $p
}

function Stop-Attack($p, $mode) {
    Set-Content (Join-Path $attackDir "$mode.go") 'go'
    if (-not $p.WaitForExit(120000)) { Fail "the $mode attack did not finish" }
    if ($p.ExitCode -eq 3) { Fail "the standard user wrote into $records" }
    if ($p.ExitCode -ne 0) { Fail "the $mode attack failed: exit $($p.ExitCode)" }
}

# 4. A standard user made the old folder first and keeps a WRITE_DAC
# handle on it through the install; then uses it to get write access and
# forge a record there. The install succeeds, and the record it reports
# is the wrapper's.
if (Test-Path -LiteralPath $oldData) { Remove-Item -LiteralPath $oldData -Recurse -Force }
$attack = Start-Attack 'handle'
if ((Get-Acl $oldData).Owner -notlike "*\$attacker") { Fail "the planted folder is owned by $((Get-Acl $oldData).Owner)" }
Install-Over 'a folder a standard user made and keeps a WRITE_DAC handle on' 'attack-handle.log'
Stop-Attack $attack 'handle'
if (-not (Get-Content (Join-Path $oldData 'ctrld-install-last-result') -Raw).Contains($failed)) { Fail 'the attacker could not forge a record at the old place' }
Assert-Complete 'a forged record at the old place'
Remove-Install

# 5. A standard user holds a file named ControlD at the old place, open
# without delete sharing, through the install: it succeeds all the same.
$attack = Start-Attack 'file'
if (-not (Test-Path -LiteralPath $oldData -PathType Leaf)) { Fail "$oldData is not the attacker's file" }
Install-Over 'a file named ControlD a standard user holds open' 'attack-file.log'
Stop-Attack $attack 'file'
Assert-Complete 'a file named ControlD at the old place'
Remove-Install

Remove-Item -Recurse -Force $attackDir
net user $attacker /delete | Out-Null
Write-Host 'windows-e2e: ok'
