import Decoding
import Delivery
import Foundation
import Rasterizing
import Slicing
import TesseraCore

/// What one device gets from an input folder or catalog, variant by variant, and why.
public struct SliceReport: Sendable, Codable {
    public var device: DeviceClass
    /// The same rows a build's `slices/<device>.json` lists, with `source` in place of `path`.
    public var assets: [SliceRow]
    public var problems: [String]
    public var hasErrors: Bool

    /// Reads `input` (an `.xcassets` catalog or a folder) and applies the selection rule for `device`.
    /// `rasterizes`: PDF and SVG entries are drawn at the device's scale (`render`), as in a
    /// pipeline with a `rasterize` stage; otherwise they are used as they are.
    public static func make(input: String, device: DeviceClass, rasterizes: Bool = false) throws(TesseraError) -> SliceReport {
        let renders = rasterizes ? RasterizeStage.renderedFormats : []
        var trimmed = input
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        let read: AssetCatalogReader.Result
        if trimmed.hasSuffix(".xcassets") {
            let parent = (trimmed as NSString).deletingLastPathComponent
            read = AssetCatalogReader().read(catalogPath: trimmed, relativeTo: parent.isEmpty ? "." : parent)
        } else {
            read = try FolderCatalogReader().read(root: trimmed)
        }
        let root = trimmed.hasSuffix(".xcassets") ? (trimmed as NSString).deletingLastPathComponent : trimmed
        var rows: [SliceRow] = []
        for asset in read.assets {
            for decision in VariantSelector.select(asset, for: device, renders: renders) {
                let path = root.isEmpty ? decision.entry.file : "\(root)/\(decision.entry.file)"
                var row = SliceRow(asset, decision)
                row.source = decision.entry.file
                if decision.action == .render, let scale = decision.targetScale {
                    measureRender(&row, decision: decision, path: path, scale: scale)
                } else {
                    measure(&row, decision: decision, path: path)
                }
                rows.append(row)
            }
        }
        return SliceReport(device: device, assets: rows, problems: read.problems.map(\.description),
                           hasErrors: read.problems.contains { $0.isError })
    }

    /// A render is sized by the page, which the renderer reads; it is made, so it has no hash yet.
    private static func measureRender(_ row: inout SliceRow, decision: SliceDecision, path: String, scale: Int) {
        let format = VectorFormat(rawValue: (decision.entry.format ?? .svg).rawValue) ?? .svg
        if let data = FileManager.default.contents(atPath: path),
           let document = try? VectorDocument(bytes: [UInt8](data), format: format, path: path, embeddedImages: HeaderDimensions()),
           let size = try? document.pixelSize(at: .factor(Double(scale) / Double(decision.entry.traits.scale?.factor ?? 1))) {
            (row.width, row.height) = (size.width, size.height)
        }
    }

    /// The header alone sizes a row; only a file used as it is gets read whole, for its hash.
    private static func measure(_ row: inout SliceRow, decision: SliceDecision, path: String) {
        guard let source = try? ImageSource(fileAt: path), case .success(let header) = source.header else { return }
        let info = header.info
        if decision.action == .downscale, let points = decision.slotPoints, let to = decision.targetScale {
            let side = Int((points * Double(to)).rounded())
            (row.width, row.height) = (side, side)
        } else if decision.action == .downscale, let from = decision.entry.traits.scale, let to = decision.targetScale {
            let size = VariantGeometry.size(masterWidth: info.uprightWidth, masterHeight: info.uprightHeight,
                                            masterScale: from.factor, targetScale: to)
            (row.width, row.height) = (size.width, size.height)
        } else {
            (row.width, row.height) = (info.uprightWidth, info.uprightHeight)
            row.bytes = source.fileSize
            row.sha256 = try? source.contentHash()
        }
    }
}
