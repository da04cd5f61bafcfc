import Foundation
import TesseraCore

/// The folders a run reads and writes, checked before anything is planned, and the leftovers of
/// an earlier run that was killed, removed.
public enum RunFolders {
    /// Throws a configuration error (exit status 2) naming the path when the input folder is
    /// missing or not a folder, or when the output path exists and is not a folder.
    public static func check(input: String, output: String) throws(TesseraError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isFolder), isFolder.boolValue else {
            throw TesseraError(.configuration, file: input,
                               reason: "the input folder does not exist or is not a folder (--input)")
        }
        if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), !isFolder.boolValue {
            throw TesseraError(.configuration, file: output,
                               reason: "the output path is a file, not a folder (--output)")
        }
    }

    /// Removes temporary files an interrupted run (kill -9, power loss) left under the output
    /// folder, before this run writes its own; returns their paths. Only names `AtomicFileWriter`
    /// makes are touched.
    @discardableResult
    public static func removeLeftovers(output: String) -> [String] {
        StaleTemporaryFiles.sweep(under: output)
    }
}
