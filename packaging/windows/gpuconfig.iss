; Inno Setup script: the Windows installer around the PyInstaller folder (dist\gpuconfig).
;
;   python -m PyInstaller --noconfirm --distpath dist --workpath build\pyinstaller packaging\gpuconfig.spec
;   iscc /DAppVersion=0.1.0 /DNumericVersion=0.1.0.0 packaging\windows\gpuconfig.iss
;
; Writes dist\gpuconfig-<version>-windows-x64-setup.exe: a Start-menu entry (and an optional desktop
; icon), an uninstaller listed in Settings > Apps, and the version in the setup program's own
; VERSIONINFO. The app's executables carry theirs from the spec (packaging/version_info.py).
; .github/workflows/windows.yml passes AppVersion from gpuconfig/__init__.py.

#ifndef AppVersion
  #error Pass the version: iscc /DAppVersion=X.Y.Z packaging\windows\gpuconfig.iss
#endif
; VERSIONINFO takes numbers only (0.2.0rc1 is 0.2.0.0): python packaging\version_info.py --numeric
#ifndef NumericVersion
  #define NumericVersion AppVersion
#endif
#define AppName "gpuconfig"
#define Root SourcePath + "..\.."

[Setup]
; Never change AppId: Windows recognises upgrades and the uninstaller by it.
AppId={{6D1F5C1E-9B7A-4C53-8E0B-2B6C3F1A7D42}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=gpuconfig developers
AppComments=Plan, check and set up machines that run PyTorch
VersionInfoVersion={#NumericVersion}
VersionInfoProductName={#AppName}
VersionInfoDescription={#AppName} setup
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
; Installs for all users (asks for administrator rights) or, chosen in the first dialog, for this user only.
PrivilegesRequired=admin
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
; Windows 10 1809 or later: what Qt 6 supports.
MinVersion=10.0.17763
WizardStyle=modern
SetupIconFile={#Root}\resources\icons\gpuconfig.ico
UninstallDisplayIcon={app}\gpuconfig.exe
UninstallDisplayName={#AppName} {#AppVersion}
OutputDir={#Root}\dist
OutputBaseFilename=gpuconfig-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
LicenseFile={#Root}\LICENSE

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
#if FileExists(CompilerPath + "Languages\ChineseSimplified.isl")
Name: "chinesesimplified"; MessagesFile: "compiler:Languages\ChineseSimplified.isl"
#endif

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#Root}\dist\gpuconfig\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[InstallDelete]
; An upgrade replaces the whole folder: files a newer version no longer ships must not linger.
Type: filesandordirs; Name: "{app}\_internal"

[Icons]
Name: "{group}\{#AppName}"; Filename: "{app}\gpuconfig.exe"; Comment: "Plan, check and set up machines that run PyTorch"
Name: "{group}\{#AppName} self-test"; Filename: "{cmd}"; Parameters: "/k ""{app}\gpuconfig-cli.exe"" --self-test"; Comment: "Check this installation: every tab, the catalog, an estimate and a CPU benchmark"
Name: "{group}\{cm:UninstallProgram,{#AppName}}"; Filename: "{uninstallexe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\gpuconfig.exe"; Tasks: desktopicon

[Run]
Filename: "{app}\gpuconfig.exe"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

; The user's own data (%LOCALAPPDATA%\gpuconfig: saved builds, prices, probe runs) is theirs: the
; uninstaller leaves it.
