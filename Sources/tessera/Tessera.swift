import ArgumentParser

/// The `tessera` command: a thin layer over the Pipeline module and the stages.
@main
struct Tessera: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "Decode, slice and package app images the way Xcode and the App Store do, on Linux, in CI.",
        discussion: """
        Exit status: 0 when everything was built, 1 when any asset failed (the rest are still built \
        and reported), 2 for a pipeline or configuration error, 64 for a command-line usage error, \
        130 when interrupted.
        """,
        version: "0.1.0",
        subcommands: [RunCommand.self, SliceCommand.self, InspectCommand.self, ConvertCommand.self, DownscaleCommand.self,
                      TimingCommand.self, BundleCommand.self, QueryCommand.self,
                      VersionCommand.self])
}
