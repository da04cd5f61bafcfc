import ArgumentParser
import CGIF
import CJPEG
import CDeflate
import CLZMA
import CPNG
import CWebP
import Decoding
import Encoding
import Rasterizing

/// `tessera version`: Tessera's version and the system codecs it is linked against, for bug reports.
struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract: "Print Tessera's version and the versions of the system libraries it uses.")

    @OptionGroup var result: ResultOutput

    /// `version --json`: `{"version": 1, "tessera": "0.2.0", "commit": "…", "libraries": [...]}`.
    struct Report: Encodable {
        let tessera: String
        let commit: String?
        let libraries: [String]
    }

    func run() throws {
        var libraries = ["libpng \(String(cString: png_get_libpng_ver(nil)))"]
        let jpeg = Int(LIBJPEG_TURBO_VERSION_NUMBER)
        libraries.append("libjpeg-turbo \(jpeg / 1_000_000).\(jpeg / 1000 % 1000).\(jpeg % 1000)")
        let webp = Int(WebPGetDecoderVersion())
        libraries.append("libwebp \(webp >> 16).\((webp >> 8) & 0xff).\(webp & 0xff)")
        libraries.append("giflib \(GIFLIB_MAJOR).\(GIFLIB_MINOR).\(GIFLIB_RELEASE)")
        libraries.append("libdeflate \(LIBDEFLATE_VERSION_STRING)")
        libraries.append("\(PNGDecoder.inflaterVersion) (PNG masters' image data)")
        libraries.append("liblzma \(String(cString: lzma_version_string()))")
        // librsvg (loaded when the first SVG is met), MuPDF with the PDFRasterizing trait, and
        // Debian's mutool when it is installed (the default build's PDF renderer).
        libraries += VectorDocument.libraryVersions
        if !VectorDocument.rendersPDF { libraries.append("PDF: no renderer (install mupdf-tools, or build with --traits PDFRasterizing)") }
        // Only a build with the LossyPalette trait links it (GPL-3.0-or-later).
        libraries.append(PNGPalette.isAvailable ? "\(PNGPalette.libraryVersion) (png-palette: lossy)"
                                                : "libimagequant: not in this build (png-palette: lossy needs --traits LossyPalette)")
        let report = Report(tessera: ReleaseVersion.number, commit: ReleaseVersion.commit, libraries: libraries)
        try result.emit(report) { (["tessera \(ReleaseVersion.description)"] + libraries).map { $0 + "\n" }.joined() }
    }
}
