import Foundation
import SwiftProtobuf
import TesseraCore
import REAPIMessages

/// A Tessera record (an `ActionEntry`, a plan record, a result pack) as a REAPI `ActionResult`,
/// the only thing a REAPI cache accepts under `/ac/` (bazel-remote answers 400 to anything else
/// and re-encodes what it accepts, adding metadata).
///
/// The record is the output file `.tessera/record`; the job's own files are output files too,
/// with their paths and digests, so the entry reads like any build tool's. The record and the
/// small outputs travel inline, in their output files' `contents` (REAPI's own inlining): a job's
/// upload is then one request, its hit one request, and a server that checks an entry's outputs
/// before serving it (bazel-remote's validated `/ac/` reads) takes an inline file as present.
/// Larger outputs are CAS blobs, uploaded before the entry.
enum RemoteActionRecord {
    static let recordPath = ".tessera/record"
    /// The output file holding the entry's MAC (`EntryAuthentication`), when it has one.
    static let macPath = ".tessera/mac"

    /// One of the job's files as listed in the entry.
    struct Output: Sendable {
        var path: String
        var sha256: ContentHash
        var size: Int
        /// The bytes, when they travel inline.
        var contents: [UInt8]?
    }

    /// What an `/ac/` answer held.
    enum Record: Equatable {
        /// The record, carried inline and matching its digest.
        case inline([UInt8])
        /// The record is the CAS blob with this digest.
        case blob(ContentHash, size: Int)
        /// Not an ActionResult naming a Tessera record: an entry of an older Tessera, which was
        /// the framed record itself.
        case legacy
        /// Bytes carried inline that do not match the digest they are under: a damaged entry.
        /// (Read as a reference to a CAS blob, it asked for one nobody stored and was a silent
        /// miss: a server that damaged every entry gave a cold build without a word, issue 39.)
        case damaged
    }

    struct Reading: Equatable {
        var record: Record
        /// Inline output bytes that match their digests, by digest.
        var contents: [ContentHash: [UInt8]] = [:]
        /// The MAC the entry carries (`macPath`), if any.
        var mac: [UInt8]?
    }

    /// The `ActionResult` bytes for `record`, listing `outputs` besides it.
    static func encode(record: [UInt8], outputs: [Output]) -> [UInt8] {
        var result = Build_Bazel_Remote_Execution_V2_ActionResult()
        result.outputFiles = [file(Output(path: recordPath, sha256: ContentHash.of(record), size: record.count,
                                          contents: record))] + outputs.map(file)
        // Deterministic: the same record gives the same bytes (fields in number order, no maps).
        return (try? result.serializedBytes() as [UInt8]) ?? []
    }

    static func read(_ bytes: [UInt8]) -> Reading {
        guard let result = try? Build_Bazel_Remote_Execution_V2_ActionResult(serializedBytes: bytes),
              let named = result.outputFiles.first(where: { $0.path == recordPath }),
              let hash = ContentHash(hex: named.digest.hash), named.digest.sizeBytes >= 0 else { return Reading(record: .legacy) }
        var contents: [ContentHash: [UInt8]] = [:]
        let mac = result.outputFiles.first { $0.path == macPath }.map { [UInt8]($0.contents) }
        for file in result.outputFiles where file.path != recordPath && file.path != macPath
            && (!file.contents.isEmpty || file.digest.sizeBytes == 0) {
            let data = [UInt8](file.contents)
            guard let digest = ContentHash(hex: file.digest.hash), Int64(data.count) == file.digest.sizeBytes,
                  ContentHash.of(data) == digest else { continue }
            contents[digest] = data
        }
        // The record inline in its output file, or (as an earlier Tessera wrote it) in stdout_raw.
        let candidates = [[UInt8](named.contents), [UInt8](result.stdoutRaw)].filter { !$0.isEmpty }
        for inline in candidates where inline.count == Int(named.digest.sizeBytes) && ContentHash.of(inline) == hash {
            return Reading(record: .inline(inline), contents: contents, mac: mac)
        }
        guard candidates.isEmpty || named.digest.sizeBytes == 0 else { return Reading(record: .damaged) }
        return Reading(record: .blob(hash, size: Int(named.digest.sizeBytes)), contents: contents, mac: mac)
    }

    private static func file(_ output: Output) -> Build_Bazel_Remote_Execution_V2_OutputFile {
        var file = Build_Bazel_Remote_Execution_V2_OutputFile()
        file.path = output.path
        file.digest.hash = output.sha256.hex
        file.digest.sizeBytes = Int64(output.size)
        if let contents = output.contents { file.contents = Data(contents) }
        return file
    }
}
