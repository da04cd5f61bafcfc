import Foundation
import TesseraCore

/// The after-build step of a shard: its partial manifest, written once the shard's files are on
/// disk (a shard runs no manifest job, which is what flushes the variant files in a whole build):
/// the files this process wrote under the output folder are flushed (`DurableWrites`) first.
enum ShardManifestStep {
    static func run(_ partial: PartialManifest, shard: Shard, succeeded: Bool, outputFolder: String) throws(TesseraError) {
        var partial = partial
        partial.succeeded = succeeded && DurableWrites.flush(under: outputFolder)
        try partial.write(to: "\(outputFolder)/\(PartialManifest.fileName(shard))")
    }
}
