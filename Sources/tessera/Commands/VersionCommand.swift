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

    func run() {
        print("tessera \(ReleaseVersion.description)")
        print("libpng \(String(cString: png_get_libpng_ver(nil)))")
        let jpeg = Int(LIBJPEG_TURBO_VERSION_NUMBER)
        print("libjpeg-turbo \(jpeg / 1_000_000).\(jpeg / 1000 % 1000).\(jpeg % 1000)")
        let webp = Int(WebPGetDecoderVersion())
        print("libwebp \(webp >> 16).\((webp >> 8) & 0xff).\(webp & 0xff)")
        print("giflib \(GIFLIB_MAJOR).\(GIFLIB_MINOR).\(GIFLIB_RELEASE)")
        print("libdeflate \(LIBDEFLATE_VERSION_STRING)")
        print("\(PNGDecoder.isalVersion) (PNG masters' image data)")
        print("liblzma \(String(cString: lzma_version_string()))")
        // librsvg (loaded when the first SVG is met), MuPDF with the PDFRasterizing trait, and
        // Debian's mutool when it is installed (the default build's PDF renderer).
        for library in VectorDocument.libraryVersions { print(library) }
        if !VectorDocument.rendersPDF { print("PDF: no renderer (install mupdf-tools, or build with --traits PDFRasterizing)") }
        // Only a build with the LossyPalette trait links it (GPL-3.0-or-later).
        print(PNGPalette.isAvailable ? "\(PNGPalette.libraryVersion) (png-palette: lossy)"
                                     : "libimagequant: not in this build (png-palette: lossy needs --traits LossyPalette)")
    }
}
