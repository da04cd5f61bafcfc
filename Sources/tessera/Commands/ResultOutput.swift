import ArgumentParser
import Foundation
import TesseraCore

/// Where a command's result goes and in what shape: `--json` and `-o FILE`, declared once for
/// every command that prints a result (inspect, timing, slice, query, bundle ls/verify, cache
/// stats, channel ls, version), so each means the same everywhere.
///
/// Every `--json` result is one object whose `version` field is the version of that command's
/// JSON shape (1 for all today; docs/cli-json.md): a list is under a named key (`files`,
/// `channels`, `entries`), never a bare array, so a field can be added without breaking a reader.
struct ResultOutput: ParsableArguments {
    @Flag(help: "Print one JSON object with a version field (docs/cli-json.md) instead of text.")
    var json = false

    @Option(name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Write the result to FILE (replaced atomically) instead of standard output.", valueName: "FILE"))
    var output: String?

    /// Emits `payload` as JSON (its keys beside `version`, or under `key`), or `text()` as text.
    func emit<Payload: Encodable>(_ payload: Payload, under key: String? = nil, text: () -> String) throws {
        let bytes: [UInt8]
        if json {
            do { bytes = try StableJSON.encode(VersionedJSON(payload, under: key)) } catch { throw fail(error) }
        } else {
            bytes = Array(text().utf8)
        }
        guard let output else {
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        do { try AtomicFile.write(bytes, to: output) } catch { throw fail(error) }
    }
}
