import ArgumentParser
import Foundation
import TesseraCore

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
        version: ReleaseVersion.description,
        subcommands: [RunCommand.self, SliceCommand.self, InspectCommand.self, ConvertCommand.self, DownscaleCommand.self,
                      TimingCommand.self, BundleCommand.self, QueryCommand.self, ReportCommand.self, ServeCommand.self, PublishCommand.self,
                      ChannelCommand.self, KeysCommand.self, SignCommand.self, CacheCommand.self, MergeCommand.self, InitCommand.self, VersionCommand.self])

    /// Runs the command line, first catching a misspelled subcommand: the argument parser only
    /// says "Unexpected argument", so say which command was probably meant.
    static func main() async {
        AllocatorSettings.apply(environment: ProcessInfo.processInfo.environment)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let message = UnknownSubcommand.message(for: arguments, known: subcommandNames) {
            printError("error: \(message)")
            printError("Usage: tessera <subcommand>; see 'tessera --help'.")
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        await main(nil)
    }

    static var subcommandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    }
}
