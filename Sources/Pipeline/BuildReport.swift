import Foundation
import TesseraCore

/// `report.json`: how the build went, for CI to read. Holds no timings, so it is reproducible too.
public struct BuildReport: Sendable, Codable, Equatable {
    public var pipeline: String
    public var succeeded: Bool
    public var cancelled: Bool
    /// Variant files written (and listed in the manifest).
    public var variantsWritten: Int
    /// Variant files planned.
    public var variantsPlanned: Int
    public var failures: [BuildProblem]
    public var warnings: [BuildProblem]

    func write(to path: String) throws(TesseraError) {
        try AtomicFile.write(try StableJSON.encode(self), to: path)
    }
}
