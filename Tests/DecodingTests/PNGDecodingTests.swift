import CodecFixtures
import Decoding
import Testing
import TesseraCore

@Suite("PNG decoding")
struct PNGDecodingTests {
    static let valid = Fixtures.pngSuiteValid
    static let corrupt = Fixtures.files(in: "png/pngsuite", withExtension: "png").filter { $0.hasPrefix("x") }

    @Test("every valid PngSuite file decodes to its header's size")
    func validSuiteDecodes() throws {
        #expect(Self.valid.count == 161)
        for name in Self.valid {
            let image = try Fixtures.decode("png/pngsuite/\(name)")
            let info = try PNGDecoder().probe(try Fixtures.source("png/pngsuite/\(name)"))
            #expect(image.bitmap.width == info.width && image.bitmap.height == info.height, "\(name)")
            #expect(image.bitmap.format == .rgba8)
        }
    }

    @Test("every corrupt PngSuite file is rejected with an error naming the file and PNG")
    func corruptSuiteRejected() throws {
        #expect(Self.corrupt.count == 14)
        for name in Self.corrupt {
            let error = try #require(failure { try Fixtures.decode("png/pngsuite/\(name)") }, "\(name) decoded")
            #expect(error.file?.hasSuffix(name) == true)
            #expect(error.kind == .invalidInput || error.kind == .limitExceeded, "\(name): \(error)")
            // Six have damaged signatures, so they are not recognised as PNG at all.
            #expect(error.reason.hasPrefix("PNG: ") || error.reason.hasPrefix("unrecognised image"), "\(name): \(error)")
        }
    }

    @Test("each interlaced basi image decodes to exactly the pixels of its basn twin")
    func interlacedMatchesTwin() throws {
        let interlaced = Self.valid.filter { $0.hasPrefix("basi") }
        #expect(interlaced.count == 15)
        for name in interlaced {
            let twin = "basn" + name.dropFirst(4)
            let a = try Fixtures.decode("png/pngsuite/\(name)").bitmap
            let b = try Fixtures.decode("png/pngsuite/\(twin)").bitmap
            #expect(a.pixels == b.pixels, "\(name) vs \(twin)")
        }
    }

    @Test("tRNS and alpha are reported and palette colours expanded")
    func transparencyAndPalette() throws {
        let palette = try Fixtures.decode("png/pngsuite/tbbn3p08.png")
        #expect(palette.info.colorModel == "palette")
        #expect(palette.info.hasAlpha)
        #expect(palette.bitmap.alpha == .straight)
        let opaque = try Fixtures.decode("png/pngsuite/basn2c08.png")
        #expect(opaque.bitmap.alpha == .opaque)
        #expect(opaque.bitmap.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 })
    }

    @Test("16-bit samples are scaled to 8 bits with rounding, not truncation")
    func sixteenBitRounds() throws {
        // basn0g16 is a 16-bit gray ramp; libpng's scale gives round(v * 255 / 65535).
        let image = try Fixtures.decode("png/pngsuite/basn0g16.png")
        #expect(image.info.bitDepth == 16)
        let gray = try Fixtures.decode("png/pngsuite/basn0g08.png")
        #expect(gray.bitmap.width == image.bitmap.width)
        #expect(image.bitmap.pixels.enumerated().allSatisfy { $0.offset % 4 == 3 ? $0.element == 255 : true })
    }

    @Test("regression files: invalid ones fail, ancillary-chunk faults still decode")
    func bugfixes() throws {
        for name in Fixtures.files(in: "png/bugfixes", withExtension: "png") {
            let path = "png/bugfixes/\(name)"
            if name.hasPrefix("x_") {
                #expect(throws: TesseraError.self, "\(name) should be rejected") { try Fixtures.decode(path) }
            } else {
                let image = try Fixtures.decode(path)
                #expect(image.bitmap.width > 0, "\(name)")
            }
        }
    }

    @Test("broken PNGs from Pillow give a clear error, never a partial image")
    func brokenPNGs() throws {
        for name in Fixtures.files(in: "still/pillow/broken", withExtension: "png") {
            let error = try #require(failure { try Fixtures.decode("still/pillow/broken/\(name)") }, "\(name) decoded")
            #expect(error.description.contains(name))
            #expect(error.reason.hasPrefix("PNG: "), "\(error)")
        }
    }

    @Test("images over the pixel limit are refused with the limit in the message")
    func pixelLimit() throws {
        let source = try Fixtures.source("png/pngsuite/basn2c08.png")
        let error = try #require(failure { try ImageDecoders.decode(source, options: DecodeOptions(maxPixels: 1000)) })
        #expect(error.kind == .limitExceeded)
        #expect(error.reason.contains("32×32 = 1024 pixels, over the limit of 1000"))
    }

    @Test("streaming rows in bands gives the same pixels as decoding whole")
    func rowStreamingMatchesWhole() throws {
        let source = try Fixtures.source("png/pngsuite/basn6a08.png")
        let whole = try PNGDecoder().decode(source, options: DecodeOptions()).bitmap
        let reader = try PNGDecoder().openRows(source, scaleDenominator: 1, options: DecodeOptions())
        var rows = [UInt8](repeating: 0, count: whole.byteCount)
        var done = 0
        let stride = whole.rowStride
        while done < reader.height {
            let filled = try rows.withUnsafeMutableBytes { buffer in
                try reader.readRows(into: UnsafeMutableRawBufferPointer(rebasing: buffer[(done * stride)...]),
                                    stride: stride, count: 7)
            }
            done += filled
        }
        try reader.finish()
        #expect(rows == whole.pixels)
        #expect(throws: TesseraError.self) {
            _ = try PNGDecoder().openRows(try Fixtures.source("png/pngsuite/basi6a08.png"), scaleDenominator: 1,
                                          options: DecodeOptions())
        }
    }
}

@Suite("16-bit PNG")
struct SixteenBitPNGTests {
    @Test("every 16-bit sample value becomes round(v × 255 / 65535)")
    func everyValueRounds() throws {
        let samples = (0...65535).map { UInt16($0) }
        let png = SixteenBitPNG.gray(width: 256, height: 256, samples: samples)
        let image = try ImageDecoders.decode(SourceBytes(bytes: png, path: "ramp16.png"))
        #expect(image.info.bitDepth == 16)
        for (index, value) in samples.enumerated() {
            let expected = UInt8((Int(value) * 255 + 32767) / 65535)
            if image.bitmap.pixels[index * 4] != expected {
                Issue.record("sample \(value) gave \(image.bitmap.pixels[index * 4]), expected \(expected)")
                return
            }
        }
    }

    @Test("a 16-bit image made from an 8-bit one (v × 257) decodes to the 8-bit values exactly")
    func agreesWithEightBitSibling() throws {
        let eight = try Fixtures.decode("png/pngsuite/basn0g08.png").bitmap
        let samples = stride(from: 0, to: eight.pixels.count, by: 4).map { UInt16(eight.pixels[$0]) * 257 }
        let png = SixteenBitPNG.gray(width: eight.width, height: eight.height, samples: samples)
        let sixteen = try ImageDecoders.decode(SourceBytes(bytes: png, path: "g16.png")).bitmap
        #expect(sixteen.pixels == eight.pixels)
    }
}
