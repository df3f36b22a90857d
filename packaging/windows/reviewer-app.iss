; Inno Setup script: the Windows installer of the review desk.
;
; On Windows, with Python 3.11+, the dev extra installed and Inno Setup 6 on PATH:
;   pyinstaller --noconfirm --clean packaging\reviewer-app.spec     (dist\reviewer-app\)
;   iscc /DAppVersion=0.1.0 packaging\windows\reviewer-app.iss       (dist\installer\)
; The icon (resources\icons\reviewer-app.ico) is made by packaging/make_icon.py.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif
#define AppName "Review desk"
#define AppExe "reviewer-app.exe"
#define Root "..\.."

[Setup]
AppId={{6B0C5C52-1F3E-4C5D-9B8E-2F6A0D7E4A11}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=reviewer-app
DefaultDirName={autopf}\Review desk
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
OutputDir={#Root}\dist\installer
OutputBaseFilename=reviewer-app-{#AppVersion}-setup
SetupIconFile={#Root}\resources\icons\reviewer-app.ico
UninstallDisplayIcon={app}\{#AppExe}
Compression=lzma2
SolidCompression=yes
WizardStyle=modern
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
; per-user or per-machine, as the person installing chooses (IT departments: /ALLUSERS)
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog commandline

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"
Name: "german"; MessagesFile: "compiler:Languages\German.isl"
Name: "spanish"; MessagesFile: "compiler:Languages\Spanish.isl"

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#Root}\dist\reviewer-app\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{autoprograms}\{#AppName} (demo)"; Filename: "{app}\{#AppExe}"; Parameters: "--demo"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
