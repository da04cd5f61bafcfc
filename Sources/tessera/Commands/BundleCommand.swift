import ArgumentParser
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
        @Option(help: "Use xz only when it saves at least this fraction.") var minSaving: Double = 0.05
        @Option(help: "xz preset, 0–9.") var level: UInt32 = 6

        func run() throws {
            do {
                guard let enumerator = FileManager.default.enumerator(atPath: folder) else {
                    throw TesseraError(.io, file: folder, stage: "bundle", reason: "cannot list the folder")
                }
                var names: [String] = []
                while let next = enumerator.nextObject() as? String {
                    var isFolder: ObjCBool = false
                    if FileManager.default.fileExists(atPath: "\(folder)/\(next)", isDirectory: &isFolder), !isFolder.boolValue {
                        names.append(next)
                    }
                }
                names.sort()
                let writer = try BundleWriter(path: file, minimumSaving: minSaving, compressionLevel: level)
                // Compress a window of files in parallel, write them in order: same bytes, both cores busy.
                let window = 32
                for start in stride(from: 0, to: names.count, by: window) {
                    let slice = Array(names[start..<min(names.count, start + window)])
                    let results = ParallelCompression.run(slice.map { "\(folder)/\($0)" }, level: level)
                    for (name, result) in zip(slice, results) {
                        let (contents, compressed) = try result.get()
                        let kind: BundleRecord.Kind = ImageFormat(fileExtension: URL(fileURLWithPath: name).pathExtension) != nil
                            ? .image : .data
                        try writer.add(name: name, kind: kind, traits: "", contents: contents, compressed: compressed)
                    }
                }
                let (size, index) = try writer.finish()
                print("\(index.entries.count) entries, \(size) bytes: \(file)")
            } catch let error as TesseraError {
                throw fail(error)
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "ls", abstract: "List a bundle's entries from its index.")
        @Argument(help: "The bundle file.") var file: String

        func run() throws {
            do {
                let bundle = try BundleFile(path: file)
                for entry in bundle.index.entries {
                    print("\(entry.name)\t\(entry.uncompressedSize)\t\(entry.compression == .xz ? "xz \(entry.payloadLength)" : "stored")\t@\(entry.payloadOffset)\t\(entry.sha256.hex)")
                }
            } catch { throw fail(error) }
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
                    throw TesseraError(.configuration, file: folder, stage: "bundle", reason: "the folder already exists")
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
        @Argument(help: "The bundle file.") var file: String

        func run() throws {
            let result = BundleVerifier.verify(path: file)
            for problem in result.problems { printError("damaged: \(problem)") }
            print("\(result.records) records, \(result.problems.count) problems")
            if !result.isIntact { throw ExitCode(1) }
        }
    }
}

/// Reads and xz-compresses files on every core, keeping results in input order.
enum ParallelCompression {
    static func run(_ paths: [String], level: UInt32) -> [Result<([UInt8], [UInt8]), TesseraError>] {
        let results = ResultBox(count: paths.count)
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let result = Result { () throws(TesseraError) -> ([UInt8], [UInt8]) in
                guard let data = FileManager.default.contents(atPath: paths[index]) else {
                    throw TesseraError(.io, file: paths[index], stage: "bundle", reason: "cannot read")
                }
                let bytes = Array(data)
                return (bytes, try XZ.compress(bytes, level: level))
            }
            results.set(index, result)
        }
        return results.values
    }

    private final class ResultBox: @unchecked Sendable {
        // @unchecked: each slot is written by exactly one iteration, and read only after all have finished.
        private let slots: UnsafeMutableBufferPointer<Result<([UInt8], [UInt8]), TesseraError>?>
        init(count: Int) {
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil)
        }
        deinit {
            slots.deinitialize()
            slots.deallocate()
        }
        func set(_ index: Int, _ value: Result<([UInt8], [UInt8]), TesseraError>) { slots[index] = value }
        var values: [Result<([UInt8], [UInt8]), TesseraError>] { slots.map { $0! } }
    }
}
