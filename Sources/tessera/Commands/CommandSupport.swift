import ArgumentParser
import Foundation
import TesseraCore

extension ByteCount: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}

/// Writes a line to standard error.
func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

/// Exits with a specific status after a fatal `TesseraError`: usage and pipeline problems are 2.
func fail(_ error: TesseraError) -> ExitCode {
    printError("error: \(error.description)")
    return ExitCode(error.kind == .configuration ? 2 : 1)
}
