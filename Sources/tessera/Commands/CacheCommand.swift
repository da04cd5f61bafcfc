import ArgumentParser
import BuildCache
import Foundation
import TesseraCore

/// `tessera cache stats|prune`: looks after the local build cache.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or trim the local build cache.",
        subcommands: [Stats.self, Prune.self])

    struct Location: ParsableArguments {
        @Option(name: .customLong("cache"), help: ArgumentHelp(
            "The cache folder (default: $TESSERA_CACHE_DIR, else ~/.cache/tessera).", valueName: "dir"))
        var folder: String?

        var cacheFolder: CacheFolder { folder.map(CacheFolder.init(path:)) ?? CacheFolder.defaultLocation() }
    }

    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Count the cache's entries and blobs and their size.")

        @OptionGroup var location: Location
        @OptionGroup var result: ResultOutput

        /// `cache stats --json`.
        struct Report: Encodable {
            let path: String
            let entries, packs, plans, blobs, bytes: Int
            let entriesByStage: [String: Int]
        }

        func run() throws {
            let folder = location.cacheFolder
            let statistics = CacheMaintenance(folder: folder).statistics()
            let report = Report(path: folder.path, entries: statistics.entries, packs: statistics.packs, plans: statistics.plans,
                                blobs: statistics.blobs, bytes: statistics.bytes, entriesByStage: statistics.entriesByStage)
            try result.emit(report) {
                ["cache:   \(folder.path)", "entries: \(statistics.entries)", "packs:   \(statistics.packs)",
                 "plans:   \(statistics.plans)", "blobs:   \(statistics.blobs)", "size:    \(ByteCount(bytes: statistics.bytes))"]
                    .map { $0 + "\n" }.joined()
                    + statistics.entriesByStage.sorted(by: { $0.key < $1.key }).map { "  \($0.key): \($0.value)\n" }.joined()
            }
        }
    }

    struct Prune: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove least recently used entries until the cache fits a size.")

        @OptionGroup var location: Location

        @Option(help: "The most the cache may hold afterwards, e.g. 500MB, 2GiB.")
        var maxSize: ByteCount

        func run() throws {
            let result = CacheMaintenance(folder: location.cacheFolder).prune(maxBytes: maxSize.bytes)
            print("removed \(result.removedEntries) entries and \(result.removedBlobs) blobs: "
                + "\(ByteCount(bytes: result.bytesBefore)) → \(ByteCount(bytes: result.bytesAfter))")
        }
    }
}
