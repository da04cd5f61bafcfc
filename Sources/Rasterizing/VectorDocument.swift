import Foundation
import TesseraCore

/// A PDF or SVG image-set source, read and measured, ready to be rasterised at any scale the way
/// Xcode rasterises a single-scale vector image set: the page size in points times the display
/// scale, with alpha, as straight RGBA8 like the decoders' bitmaps (so the encoders take it).
///
/// A value: it keeps the file's bytes and what was learned from them, and each `render` opens the
/// document afresh, so it crosses tasks freely and renders on several threads at once. Every
/// failure is a `TesseraError` with stage `.rasterize`; hostile files (huge pages, bombs, external
/// references, entity expansion, deep nesting, damage) are refused within `limits`
/// (docs/vectors.md lists each case and what it gives).
public struct VectorDocument: Sendable {
    public let format: VectorFormat
    /// The first page's size in points (an SVG's CSS pixels).
    public let pageSize: PageSize
    /// Pages in the document (always 1 for SVG); only the first is drawn.
    public let pageCount: Int
    /// The colour space the file declares: a PDF's output intent or the first page's ICC-based
    /// colour space (Display P3, sRGB, or another profile by name), `.unspecified` for a PDF in
    /// device RGB, `.sRGB` for SVG (whose colours are sRGB by definition). Renders carry it:
    /// colour values are drawn as the file gives them, not converted (docs/vectors.md).
    public let colorSpace: ColorSpace
    /// The ICC profile `colorSpace` comes from (a PDF's), for encoders to embed so the rendered
    /// values keep their meaning; nil for SVG and device-RGB PDFs (sRGB).
    public let iccProfile: [UInt8]?
    public let limits: VectorLimits
    /// The file the bytes came from, for error messages.
    public let path: String?
    /// Which PDF renderer draws this document.
    public let pdfRenderer: PDFRendererChoice
    /// What a render of it should be reported with: only the first of several pages is drawn, or
    /// MuPDF repaired the file to open it (a broken or missing cross-reference table, which
    /// `mutool draw` and Apple's renderer repair too). Empty for a whole one-page document.
    public let warnings: [String]
    private let bytes: [UInt8]

    /// Reads and measures a document; throws when it is unreadable, too large, or (SVG) refers
    /// to anything outside itself.
    ///
    /// `embeddedImages` measures the raster images an SVG carries in `data:` URLs, each held to
    /// `limits.maxPixels` (`EmbeddedImages`); without it an SVG that embeds any raster image is
    /// refused, since nothing could bound what drawing it takes.
    public init(bytes: [UInt8], format: VectorFormat, limits: VectorLimits = VectorLimits(),
                path: String? = nil, pdfRenderer: PDFRendererChoice = .automatic,
                embeddedImages: (any ImageDimensionsReading)? = nil) throws(TesseraError) {
        guard bytes.count <= limits.maxInputBytes else {
            throw TesseraError(.limitExceeded, file: path, origin: .rasterize,
                               reason: "\(format.displayName) file is \(bytes.count) bytes, over the limit of \(limits.maxInputBytes)")
        }
        guard !bytes.isEmpty else {
            throw TesseraError(.invalidInput, file: path, origin: .rasterize, reason: "\(format.displayName) file is empty")
        }
        self.format = format
        self.limits = limits
        self.path = path
        self.bytes = bytes
        self.pdfRenderer = pdfRenderer.resolved
        switch format {
        case .svg:
            if let reference = ExternalReferences.first(in: bytes) {
                throw TesseraError(.invalidInput, file: path, origin: .rasterize,
                                   reason: "SVG refers to '\(reference)' outside itself; Tessera draws only self-contained SVGs (data: URLs and #fragments), and never reads other files or the network")
            }
            try EmbeddedImages.check(bytes, maxPixels: limits.maxPixels, reader: embeddedImages ?? NoImageDimensions(), path: path)
            pageSize = try SVGProcessRenderer.measure(bytes, limits: limits, path: path)
            pageCount = 1
            colorSpace = .sRGB
            iccProfile = nil
            warnings = []
        case .pdf:
            let page: PageSize, count: Int, profile: [UInt8], repair: String?
            switch self.pdfRenderer {
            case .inProcess:
                #if PDFRasterizing
                let description = try PDFRenderer.describe(bytes, limits: limits, path: path)
                (page, count, profile, repair) = (description.page, description.pageCount, description.iccProfile,
                                                  description.repair)
                #else
                throw TesseraError(.configuration, file: path, origin: .rasterize, reason: Self.pdfUnavailableReason)
                #endif
            case .separateProcess, .automatic:
                (page, count, repair) = try PDFProcessRenderer.describe(bytes, limits: limits, path: path)
                // Debian's mutool is built without colour management: values are drawn as given.
                profile = []
            }
            guard count <= limits.maxPageCount else {
                throw TesseraError(.limitExceeded, file: path, origin: .rasterize,
                                   reason: "PDF has \(count) pages, over the limit of \(limits.maxPageCount) (an image set draws only the first)")
            }
            guard page.width.isFinite, page.height.isFinite, page.width > 0, page.height > 0 else {
                throw TesseraError(.invalidInput, file: path, origin: .rasterize,
                                   reason: "PDF first page is \(page.width)×\(page.height) pt; it needs a positive size")
            }
            pageSize = page
            pageCount = count
            colorSpace = profile.isEmpty ? .unspecified : ICCProfile.colorSpace(of: profile)
            iccProfile = profile.isEmpty ? nil : profile
            var said: [String] = []
            if count > 1 { said.append("PDF has \(count) pages; only the first is drawn, as Xcode does") }
            if let repair { said.append(Self.repairWarning(repair)) }
            warnings = said
        }
    }

    /// The warning for a PDF MuPDF repaired to open: what was broken, and that it was drawn anyway.
    static func repairWarning(_ repair: String) -> String {
        "PDF is damaged (\(repair)): MuPDF repaired it, rebuilding its cross-reference table, and drew it, as `mutool draw` "
            + "and Apple's renderer do; save it again from its editor to mend the file"
    }

    /// The pixel size a render at `scale` has; throws when it is over `limits.maxPixels`.
    public func pixelSize(at scale: RenderScale) throws(TesseraError) -> (width: Int, height: Int) {
        try scale.pixelSize(of: pageSize, format: format, limits: limits, path: path)
    }

    /// Bytes the bitmap of a render at `scale` occupies: what a scheduler budgets with.
    public func byteCount(at scale: RenderScale) throws(TesseraError) -> Int {
        let size = try pixelSize(at: scale)
        return size.width * size.height * PixelFormat.rgba8.bytesPerPixel
    }

    /// Draws the first page at `scale` into a new straight-alpha RGBA8 bitmap in `colorSpace`.
    public func render(scale: RenderScale) throws(TesseraError) -> Bitmap {
        let size = try pixelSize(at: scale)
        switch format {
        case .svg:
            return try SVGProcessRenderer.render(bytes, width: size.width, height: size.height, limits: limits, path: path)
        case .pdf:
            switch pdfRenderer {
            case .inProcess:
                #if PDFRasterizing
                return try PDFRenderer.render(bytes, width: size.width, height: size.height, colorSpace: colorSpace,
                                              limits: limits, path: path)
                #else
                throw TesseraError(.configuration, file: path, origin: .rasterize, reason: Self.pdfUnavailableReason)
                #endif
            case .separateProcess, .automatic:
                var bitmap = try PDFProcessRenderer.render(bytes, width: size.width, height: size.height, limits: limits, path: path)
                bitmap.colorSpace = colorSpace
                return bitmap
            }
        }
    }

    /// Whether this build renders PDF: in process with the `PDFRasterizing` trait (MuPDF,
    /// AGPL-3.0-or-later), else through Debian's `mutool` run as a separate process.
    public static var rendersPDF: Bool {
        #if PDFRasterizing
        true
        #else
        PDFProcessRenderer.isAvailable
        #endif
    }

    /// The renderers in this build, for `tessera version`.
    public static var libraryVersions: [String] {
        var versions = [SVGProcessRenderer.version]
        #if PDFRasterizing
        versions.append(PDFRenderer.libraryVersion)
        #endif
        if let tool = PDFProcessRenderer.version { versions.append("\(tool) (separate process)") }
        return versions
    }

    /// The PDF renderer documents made now would use (`in-process` or `process`), for cache keys.
    public static var activePDFRenderer: String { PDFRendererChoice.automatic.resolved.rawValue }

    static var pdfUnavailableReason: String { PDFProcessRenderer.unavailableReason }
}

/// Which renderer draws PDFs: MuPDF linked in (the `PDFRasterizing` trait, faster by a process
/// start per render) or Debian's `mutool` as a separate process (the default build).
/// `TESSERA_PDF_RENDERER=process` makes `automatic` choose the separate process in any build.
public enum PDFRendererChoice: String, Sendable {
    case automatic, inProcess = "in-process", separateProcess = "process"

    var resolved: PDFRendererChoice {
        guard self == .automatic else { return self }
        if ProcessInfo.processInfo.environment["TESSERA_PDF_RENDERER"] == "process" { return .separateProcess }
        #if PDFRasterizing
        return .inProcess
        #else
        return .separateProcess
        #endif
    }
}

/// Measures nothing: without the decoders, no embedded image can be bounded.
private struct NoImageDimensions: ImageDimensionsReading {
    func dimensions(of bytes: [UInt8]) -> (width: Int, height: Int)? { nil }
}
