import CodecFixtures
@testable import Decoding
import Encoding
import Foundation
import Testing
import TesseraCore

@Suite("PNG image data read by PNGRowReader (ISA-L, and zlib as without the FastInflate trait)")
struct PNGRowReaderTests {
    /// Every file in the corpus whose content is PNG, whatever its extension.
    static let corpusPNGs: [String] = {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let enumerator = FileManager.default.enumerator(atPath: Fixtures.corpus)
        var paths: [String] = []
        while let relative = enumerator?.nextObject() as? String {
            let path = Fixtures.path(relative)
            guard let handle = FileHandle(forReadingAtPath: path) else { continue }
            if (try? handle.read(upToCount: 8)).map(Array.init) == signature { paths.append(path) }
            try? handle.close()
        }
        return paths.sorted()
    }()

    private static let libpng = PNGDecoder(imageDataReader: .libpng)

    /// PNGRowReader with each inflater this build has: ISA-L's (the FastInflate trait, on by
    /// default) and zlib's, which a build without the trait (the static worker) uses. Every test
    /// below holds for both, so the fallback is checked by the default `swift test`.
    static let readers: [PNGDecoder.ImageDataReader] = {
        #if FastInflate
        return [.isal, .zlib]
        #else
        return [.zlib]
        #endif
    }()

    /// Whether PNGRowReader (rather than libpng) streams this file's rows, with every inflater.
    private static func readsItself(_ source: SourceBytes) -> Bool {
        readers.allSatisfy { reader in
            (try? PNGDecoder(imageDataReader: reader).openRows(source, scaleDenominator: 1, options: DecodeOptions())) is PNGRowReader
        }
    }

    /// libpng and PNGRowReader, with each inflater, on the same bytes: the same pixels, info and
    /// alpha, or all refused.
    private static func expectSameAsLibpng(_ source: SourceBytes, _ label: String) {
        let reference = Result { try libpng.decode(source, options: DecodeOptions()) }
        for reader in readers {
            let candidate = Result { try PNGDecoder(imageDataReader: reader).decode(source, options: DecodeOptions()) }
            let label = "\(label) (\(reader))"
            switch (reference, candidate) {
            case (.success(let expected), .success(let actual)):
                #expect(actual.bitmap == expected.bitmap, "\(label): pixels differ from libpng's")
                #expect(actual.info == expected.info, "\(label)")
            case (.failure, .failure(let error)):
                let error = error as? TesseraError
                #expect(error?.file == source.path, "\(label): \(String(describing: error))")
                #expect(error?.reason.hasPrefix("PNG: ") == true, "\(label): \(String(describing: error))")
            case (.success, .failure(let error)):
                Issue.record("\(label): libpng decodes it, PNGRowReader fails: \(error)")
            case (.failure(let error), .success):
                Issue.record("\(label): libpng fails (\(error)), PNGRowReader decodes it")
            }
        }
    }

    @Test("every PNG in the corpus (all of PngSuite) decodes to exactly libpng's pixels, or fails as libpng does")
    func corpusMatchesLibpng() throws {
        #expect(Self.corpusPNGs.count >= 300)
        var covered = 0
        for path in Self.corpusPNGs {
            let source = try SourceBytes(contentsOfFile: path)
            if Self.readsItself(source) { covered += 1 }
            Self.expectSameAsLibpng(source, path)
        }
        // The 8- and 16-bit non-interlaced gray, gray+alpha, RGB and RGBA files: PngSuite's filter,
        // zlib-level, IDAT-splitting and tRNS cases among them.
        #expect(covered >= 150, "only \(covered) files took PNGRowReader's path")
    }

    @Test("rows streamed from the file in small bands equal libpng's whole decode")
    func fileStreamingMatchesLibpng() throws {
        let names = ["basn6a16.png", "oi9n2c16.png", "f04n2c08.png", "tbrn2c08.png", "z09n2c08.png", "basn0g08.png"]
        for name in names {
            let path = Fixtures.path("png/pngsuite/\(name)")
            let expected = try Self.libpng.decode(try SourceBytes(contentsOfFile: path), options: DecodeOptions()).bitmap
            for imageDataReader in Self.readers {
                let reader = try PNGDecoder(imageDataReader: imageDataReader).openRows(fileAt: path, scaleDenominator: 1,
                                                                                      options: DecodeOptions())
                #expect(reader is PNGRowReader, "\(name)")
                var rows = [UInt8](repeating: 0, count: expected.byteCount)
                var done = 0
                while done < reader.height {
                    done += try rows.withUnsafeMutableBytes { buffer in
                        try reader.readRows(into: UnsafeMutableRawBufferPointer(rebasing: buffer[(done * expected.rowStride)...]),
                                            stride: expected.rowStride, count: 3)
                    }
                }
                try reader.finish()
                #expect(rows == expected.pixels, "\(name) (\(imageDataReader))")
                #expect(reader.warnings.isEmpty, "\(name) (\(imageDataReader)): \(reader.warnings)")
            }
        }
    }

    @Test("every filter on every pixel size, 8 and 16 bits, tRNS and one-byte IDATs give libpng's pixels")
    func handMadeFiltersMatchLibpng() throws {
        var state: UInt64 = 7
        for (colorType, bitDepth) in [(0, 8), (0, 16), (2, 8), (2, 16), (4, 8), (4, 16), (6, 8), (6, 16)] {
            var png = HandMadePNG(width: 23, height: 17, colorType: UInt8(colorType), bitDepth: UInt8(bitDepth), samples: [])
            png.samples = (0..<png.rowBytes * png.height).map { index in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                // Smooth in x and y with some noise, so every predictor is exercised near its ties.
                return UInt8(truncatingIfNeeded: index / 3 + Int(state >> 61))
            }
            png.filters = [0, 1, 2, 3, 4, 4, 3, 1]
            if colorType == 0 || colorType == 2 {
                // Make the first pixel the tRNS colour, so some pixels turn transparent.
                png.transparency = Array(png.samples.prefix(png.bytesPerPixel))
                if bitDepth == 8 { png.transparency = png.transparency!.flatMap { [0, $0] } }
            }
            for piece in [Int.max, 1, 100] {
                png.idatPiece = piece
                let source = SourceBytes(bytes: png.bytes(), path: "hand-\(colorType)-\(bitDepth)-\(piece).png")
                #expect(Self.readsItself(source))
                Self.expectSameAsLibpng(source, source.path)
            }
        }
    }

    @Test("Huffman-coded photos and noise, larger than the inflate window, give libpng's pixels")
    func encodedImagesMatchLibpng() throws {
        let images = [try Generated.noise(width: 700, height: 180, seed: 3),
                      try Generated.gradient(width: 900, height: 300, opaque: true),
                      try Generated.gradient(width: 640, height: 400)]
        for (index, image) in images.enumerated() {
            for level in [1, 7] {
                let bytes = try PNGEncoder(compressionLevel: level).encode(image, iccProfile: nil)
                let source = SourceBytes(bytes: bytes, path: "encoded-\(index)-\(level).png")
                #expect(Self.readsItself(source))
                Self.expectSameAsLibpng(source, source.path)
                for reader in Self.readers {
                    #expect(try PNGDecoder(imageDataReader: reader).decode(source, options: DecodeOptions()).bitmap.pixels == image.pixels)
                }
            }
        }
    }

    /// A small RGB image with every filter, whose chunks the damage tests below alter.
    private static func sample(height: Int = 9) -> HandMadePNG {
        var png = HandMadePNG(width: 11, height: height, colorType: 2, bitDepth: 8, samples: [])
        png.samples = (0..<png.rowBytes * height).map { UInt8(truncatingIfNeeded: $0 * 7) }
        png.filters = [0, 1, 2, 3, 4]
        return png
    }

    private static func refused(_ bytes: [UInt8], _ name: String, saying words: String) {
        let source = SourceBytes(bytes: bytes, path: name)
        #expect(readsItself(source), "\(name)")
        for reader in readers {
            let error = failure { try PNGDecoder(imageDataReader: reader).decode(source, options: DecodeOptions()) }
            #expect(error?.file == name, "\(name) (\(reader)): \(String(describing: error))")
            #expect(error?.kind == .invalidInput, "\(name) (\(reader))")
            #expect(error?.reason.hasPrefix("PNG: ") == true && error?.reason.contains(words) == true,
                    "\(name) (\(reader)): \(String(describing: error))")
        }
        #expect(failure { try libpng.decode(source, options: DecodeOptions()) } != nil, "\(name): libpng decodes it")
    }

    @Test("a file truncated anywhere from its image data on is refused as truncated")
    func truncatedFilesRefused() throws {
        let bytes = Self.sample().bytes()
        let idat = 8 + 25  // after the signature and IHDR
        #expect(Array(bytes[idat + 4..<idat + 8]) == Array("IDAT".utf8))
        for cut in [idat + 8, idat + 40, bytes.count - 24, bytes.count - 14, bytes.count - 1] {
            Self.refused(Array(bytes.prefix(cut)), "truncated-\(cut).png", saying: "the file is truncated")
        }
    }

    @Test("a damaged IDAT CRC, a bad filter byte and missing rows are refused, naming the reason")
    func damagedImageDataRefused() throws {
        let png = Self.sample()
        var badCRC = png.bytes()
        badCRC[badCRC.count - 12 - 1] ^= 0xff  // the IDAT's CRC, just before IEND
        Self.refused(badCRC, "bad-crc.png", saying: "IDAT: CRC error")

        var rows = png.filteredRows()
        rows[3 * (png.rowBytes + 1)] = 5  // row 3's filter type
        Self.refused(png.bytes(imageData: HandMadePNG.zlibStored(rows)), "bad-filter.png",
                     saying: "bad adaptive filter value")

        var short = png
        short.height = 12  // the header promises more rows than the data holds
        Self.refused(short.bytes(imageData: HandMadePNG.zlibStored(png.filteredRows())), "short.png",
                     saying: "Not enough image data")

        var stream = HandMadePNG.zlibStored(png.filteredRows())
        stream[stream.count - 1] ^= 1  // the Adler-32
        Self.refused(png.bytes(imageData: stream), "adler.png", saying: "IDAT: incorrect data check")
    }

    @Test("a damaged ancillary chunk after the image data is a warning; the pixels are kept")
    func damagedAncillaryChunkWarns() throws {
        var bytes = Self.sample().bytes()
        var text = HandMadePNG.chunk("tEXt", Array("Comment\0hello".utf8))
        text[text.count - 1] ^= 0xff
        bytes.insert(contentsOf: text, at: bytes.count - 12)
        let source = SourceBytes(bytes: bytes, path: "text-crc.png")
        for reader in Self.readers {
            let image = try PNGDecoder(imageDataReader: reader).decode(source, options: DecodeOptions())
            #expect(image.bitmap == (try Self.libpng.decode(source, options: DecodeOptions())).bitmap)
            #expect(image.warnings.contains("tEXt: CRC error"), "\(reader): \(image.warnings)")
        }
    }

    @Test("a file cut at every byte from its image data on is refused; one with any IDAT byte flipped fails or decodes as libpng does")
    func everyCutAndFlip() throws {
        let image = try Generated.noise(width: 40, height: 30, seed: 11)
        let bytes = try PNGEncoder(compressionLevel: 6).encode(image, iccProfile: nil)
        let idat = 8 + 25
        #expect(Array(bytes[idat + 4..<idat + 8]) == Array("IDAT".utf8))
        for cut in idat + 8..<bytes.count {
            let source = SourceBytes(bytes: Array(bytes.prefix(cut)), path: "cut-\(cut).png")
            for reader in Self.readers {
                let error = failure { try PNGDecoder(imageDataReader: reader).decode(source, options: DecodeOptions()) }
                #expect(error?.file == source.path && error?.reason.hasPrefix("PNG: ") == true,
                        "\(cut) (\(reader)): \(String(describing: error))")
            }
        }
        let length = Int(bytes[idat]) << 24 | Int(bytes[idat + 1]) << 16 | Int(bytes[idat + 2]) << 8 | Int(bytes[idat + 3])
        var state: UInt64 = 5
        for _ in 0..<300 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let offset = Int(state >> 33) % length
            var damaged = bytes
            damaged[idat + 8 + offset] ^= UInt8(truncatingIfNeeded: 1 << (state >> 20 & 7))
            // A fresh CRC, so the damage reaches the inflater rather than the CRC check.
            let chunk = HandMadePNG.chunk("IDAT", Array(damaged[idat + 8..<idat + 8 + length]))
            damaged.replaceSubrange(idat..<idat + 12 + length, with: chunk)
            Self.expectSameAsLibpng(SourceBytes(bytes: damaged, path: "flip-\(offset).png"), "flip at \(offset)")
        }
    }
}
