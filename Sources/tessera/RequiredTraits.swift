// The build side is behind the CommandLineTool trait, off by default so that an app adding the
// package for TesseraClient resolves none of it (Package.swift). A build of the command that
// forgot it says how, rather than failing on modules it cannot find.
#if !CommandLineTool
#error("the tessera command needs the CommandLineTool trait: `make samples`, or `swift build --traits CommandLineTool,FastInflate`")
#endif
