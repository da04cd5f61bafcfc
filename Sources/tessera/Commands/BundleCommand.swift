import Pipeline
import ArgumentParser
import BuildOptions
import Delivery
import Dispatch
import Foundation
import Packing
import TesseraCore

/// `tessera bundle ls|extract|verify FILE`.
struct BundleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "List, extract or verify a Tessera bundle (docs/bundle-format.md).",
        subcommands: [Create.self, List.self, Extract.self, Verify.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create",
            abstract: "Pack every file under a folder into one bundle (xz per entry where it pays, compressed on all cores).")
        @Argument(help: "The bundle to write.") var file: String
        @Argument(help: "The folder to pack; entries are named by their path under it, in sorted order.") var folder: String
        @Option(name: Pack.minSaving.long, help: Pack.minSaving.argumentHelp, transform: Pack.minSaving.argument)
        var minSaving = Pack.minSaving.defaultValue
        @Option(name: Pack.xzLevel.long, help: Pack.xzLevel.argumentHelp, transform: Pack.xzLevel.argument)
        var xzLevel = Pack.xzLevel.defaultValue
        @Option(name: Pack.compress.long, help: Pack.compress.argumentHelp, transform: Pack.compress.argument)
        var compress = Pack.compress.defaultValue
        // `--level` before it was named as the pipeline's `pack: xz-level`.
        @Option(name: Pack.xzLevel.deprecatedName(), help: .private, transform: Pack.xzLevel.argument)
        var level: UInt32?

        /// The pack stage's compression options as a pipeline's `pack:` with the same values would make them.
        var section: PackStageOptions {
            var section = PackStageOptions()
            section.set(Pack.minSaving, minSaving)
            section.set(Pack.compress, compress)
            section.set(Pack.xzLevel, level ?? xzLevel)
            return section
        }

        func run() throws {
            if level != nil { printError("warning: \(Pack.xzLevel.deprecation(of: "--level"))") }
            do {
                let written = try FolderBundler.bundle(
                    folder: folder, into: file,
                    compressor: section.compressor)
                print("\(written.index.entries.count) entries, \(written.bytes) bytes: \(file)")
            } catch {
                throw fail(error)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ls", abstract: "List a bundle's entries from its index.",
            discussion: "One line per entry, tab-separated: name, size, storage (stored, or xz and its compressed size), payload offset, SHA-256, traits (appearance, idiom, scale, rendering intent...).")
        @Argument(help: "The bundle file.") var file: String
        @OptionGroup var result: ResultOutput

        /// One entry of `bundle ls --json`.
        struct Listed: Encodable {
            let name: String
            let bytes: Int
            let storage: String
            let storedBytes: Int
            let offset: Int
            let sha256: String
            let traits: String
        }

        func run() throws {
            var entries: [Listed] = []
            do {
                let bundle = try BundleFile(path: file)
                for entry in bundle.index.entries {
                    entries.append(Listed(name: entry.name, bytes: Int(entry.uncompressedSize),
                                          storage: entry.compression == .xz ? "xz" : "stored", storedBytes: Int(entry.payloadLength),
                                          offset: Int(entry.payloadOffset), sha256: entry.sha256.hex, traits: try bundle.traits(of: entry)))
                }
            } catch { throw fail(error) }
            try result.emit(entries, under: "entries") {
                entries.map {
                    "\($0.name)\t\($0.bytes)\t\($0.storage == "xz" ? "xz \($0.storedBytes)" : "stored")\t@\($0.offset)\t\($0.sha256)\t\($0.traits)\n"
                }.joined()
            }
        }
    }

    struct Extract: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "extract",
            abstract: "Extract every entry into a folder (written whole into a temporary folder, then renamed).")
        @Argument(help: "The bundle file.") var file: String
        @Argument(help: "The folder to create; it must not exist.") var folder: String

        func run() throws {
            do {
                guard !FileManager.default.fileExists(atPath: folder) else {
                    throw TesseraError(.configuration, file: folder, origin: .bundle, reason: "the folder already exists")
                }
                let count = try BundleExtractor.extract(try BundleFile(path: file), into: folder)
                print("\(count) entries into \(folder)")
            } catch let error as TesseraError {
                throw fail(error)
            }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Check everything extract checks (index, names, ranges, every entry's SHA-256) plus every record's CRCs, writing nothing; exit 1 on damage.")
        @Argument(help: "The bundle files (a build's bundles/**/*.tsb, say).") var files: [String]
        @OptionGroup var result: ResultOutput

        /// `bundle verify --json`: each file's records and problems, and how many are damaged.
        struct Report: Encodable {
            struct File: Encodable {
                let path: String
                let records: Int
                let problems: [String]
                let intact: Bool
            }
            let files: [File]
            let damaged: Int
        }

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one bundle file") }
        }

        func run() throws {
            let checked = files.map { file in
                let outcome = BundleVerifier.verify(path: file)
                return Report.File(path: file, records: outcome.records, problems: outcome.problems, intact: outcome.isIntact)
            }
            let report = Report(files: checked, damaged: checked.count { !$0.intact })
            // One file reads as before; several say which each line is about.
            let prefix = { (file: Report.File) in files.count > 1 ? "\(file.path): " : "" }
            if !result.json {
                for file in checked { for problem in file.problems { printError("\(prefix(file))damaged: \(problem)") } }
            }
            try result.emit(report) {
                checked.map { "\(prefix($0))\($0.records) records, \($0.problems.count) problems\n" }.joined()
                    + (files.count > 1 ? "\(files.count) bundles, \(report.damaged) damaged\n" : "")
            }
            if report.damaged > 0 { throw ExitCode(1) }
        }
    }
}

private typealias Pack = OptionTable.Pack
