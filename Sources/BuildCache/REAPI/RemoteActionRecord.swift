import Foundation
import SwiftProtobuf
import TesseraCore

/// A Tessera record (an `ActionEntry`, a plan record, a result pack) as a REAPI `ActionResult`,
/// the only thing a REAPI cache accepts under `/ac/` (bazel-remote answers 400 to anything else
/// and re-encodes what it accepts, adding metadata).
///
/// The record itself is a CAS blob, named by the output file `.tessera/record`; the job's own
/// files are output files too, with their paths and digests, so the entry reads like any build
/// tool's. A copy of the record also travels in `stdout_raw`, so a hit costs one request when the
/// server keeps it; a server that moves or drops it costs one more (the CAS blob).
enum RemoteActionRecord {
    static let recordPath = ".tessera/record"

    /// What an `/ac/` answer held.
    enum Reading: Equatable {
        /// The record, carried inline and matching its digest.
        case record([UInt8])
        /// The record is the CAS blob with this digest.
        case blob(ContentHash, size: Int)
        /// Not an ActionResult naming a Tessera record: an entry of an older Tessera, which was
        /// the framed record itself.
        case legacy
    }

    /// The `ActionResult` bytes for `record`, listing `outputs` (path, SHA-256, size) besides it.
    static func encode(record: [UInt8], outputs: [(path: String, sha256: ContentHash, size: Int)]) -> [UInt8] {
        var result = Build_Bazel_Remote_Execution_V2_ActionResult()
        result.outputFiles = [file(recordPath, ContentHash.of(record), record.count)]
            + outputs.map { file($0.path, $0.sha256, $0.size) }
        result.stdoutRaw = Data(record)
        // Deterministic: the same record gives the same bytes (fields in number order, no maps).
        return (try? result.serializedBytes() as [UInt8]) ?? []
    }

    static func read(_ bytes: [UInt8]) -> Reading {
        guard let result = try? Build_Bazel_Remote_Execution_V2_ActionResult(serializedBytes: bytes),
              let named = result.outputFiles.first(where: { $0.path == recordPath }),
              let hash = ContentHash(hex: named.digest.hash), named.digest.sizeBytes >= 0 else { return .legacy }
        let inline = [UInt8](result.stdoutRaw)
        if inline.count == Int(named.digest.sizeBytes), ContentHash.of(inline) == hash { return .record(inline) }
        return .blob(hash, size: Int(named.digest.sizeBytes))
    }

    private static func file(_ path: String, _ hash: ContentHash, _ size: Int) -> Build_Bazel_Remote_Execution_V2_OutputFile {
        var file = Build_Bazel_Remote_Execution_V2_OutputFile()
        file.path = path
        file.digest.hash = hash.hex
        file.digest.sizeBytes = Int64(size)
        return file
    }
}
