import ArgumentParser
import BuiltInPipelines
import Foundation
import TesseraCore

/// `tessera init [NAME]`: writes a built-in pipeline into the current folder to edit, so a team
/// starts from the settings Tessera ships instead of from an empty file.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a built-in pipeline to a file you can edit (then: tessera run FILE ...).",
        discussion: "Built-in pipelines: \(BuiltInPipelines.names). `tessera run NAME` runs one unchanged.")

    @Argument(help: "The built-in pipeline to start from.")
    var name = "app-thinning"

    @Option(name: .shortAndLong, help: "The file to write (default: NAME.yml in the current folder).")
    var output: String?

    @Flag(help: "Replace the file if it exists.")
    var force = false

    func run() throws {
        guard let text = BuiltInPipelines.text(named: name) else {
            printError("error: no built-in pipeline '\(name)' (built in: \(BuiltInPipelines.names))")
            throw ExitCode.validationFailure
        }
        let path = output ?? "\(name).yml"
        if !force, FileManager.default.fileExists(atPath: path) {
            printError("error: \(path): already exists; pass --force to replace it, or -o to write elsewhere")
            throw ExitCode(2)
        }
        do {
            try AtomicFile.write(Array(text.utf8), to: path)
        } catch {
            throw fail(error)
        }
        print("Wrote \(path). Run it with: tessera run \(path) --input YOUR_ASSETS --output build")
    }
}
