@testable import BuildCache
import Foundation
import TesseraCore
import REAPIMessages

/// Reads a remote cache's store folder (nginx WebDAV's `ac/` and `cas/`) as a REAPI server
/// holds it: every `/ac/` entry an `ActionResult`.
enum StoredRecords {
    /// The Tessera record of the entry `name`: inline, or the CAS blob it names.
    static func record(in store: String, name: String) -> [UInt8]? {
        guard let bytes = FileManager.default.contents(atPath: "\(store)/ac/\(name)").map({ [UInt8]($0) }) else { return nil }
        switch RemoteActionRecord.read(bytes).record {
        case .inline(let record): return record
        case .blob(let hash, _): return FileManager.default.contents(atPath: "\(store)/cas/\(hash.hex)").map { [UInt8]($0) }
        case .legacy, .damaged: return nil
        }
    }

    /// Why the entry `name` is not what a REAPI cache accepts and serves: nil when it parses as
    /// an `ActionResult` whose every output file is inline or a blob of its size in `cas/` (what
    /// bazel-remote checks before it serves an entry).
    static func problem(in store: String, name: String) -> String? {
        guard let bytes = FileManager.default.contents(atPath: "\(store)/ac/\(name)"),
              let result = try? Build_Bazel_Remote_Execution_V2_ActionResult(serializedBytes: bytes) else {
            return "\(name): not an ActionResult"
        }
        guard !result.outputFiles.isEmpty else { return "\(name): no output files" }
        for file in result.outputFiles where file.contents.isEmpty && file.digest.sizeBytes > 0 {
            let blob = "\(store)/cas/\(file.digest.hash)"
            guard let size = (try? FileManager.default.attributesOfItem(atPath: blob))?[.size] as? Int,
                  Int64(size) == file.digest.sizeBytes else {
                return "\(name): \(file.path)'s blob \(file.digest.hash) is not in cas/"
            }
        }
        return nil
    }
}
