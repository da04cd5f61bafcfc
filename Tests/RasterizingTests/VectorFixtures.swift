import Decoding
import Foundation
import Rasterizing
import TesseraCore

/// Paths into `Tests/Fixtures/vectors` (real image-set sources, SOURCES.md), found from this file.
enum VectorFixtures {
    static let folder: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/vectors").path

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(name)")))
    }

    static func document(_ name: String, limits: VectorLimits = VectorLimits()) throws -> VectorDocument {
        let format: VectorFormat = name.hasSuffix(".pdf") ? .pdf : .svg
        return try VectorDocument(bytes: try bytes(name), format: format, limits: limits, path: name)
    }

    /// A reference renderer's PNG, decoded by Tessera's own PNG decoder.
    static func reference(_ name: String) throws -> Bitmap {
        try ImageDecoders.decode(try SourceBytes(contentsOfFile: "\(folder)/reference/\(name)")).bitmap
    }
}
