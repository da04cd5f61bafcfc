import CodecFixtures
import Dispatch
import Decoding
@testable import Encoding
import Testing
import TesseraCore

/// Lossy palettes through libimagequant: only in a build with the `LossyPalette` trait
/// (`swift test --traits LossyPalette`); without it, the refusal is what is tested.
@Suite("PNG lossy palettes")
struct PNGPaletteTests {
    @Test("palette off leaves the PNG bytes and the cache-key options exactly as before")
    func offChangesNothing() throws {
        let photo = try Fixtures.decode("still/pillow/jpeg/flower.jpg").bitmap
        let plain = try PNGEncoder().encode(photo, iccProfile: nil)
        let off = try PNGEncoder(palette: PNGPalette(mode: .off, quality: 10...20, speed: 9)).encode(photo, iccProfile: nil)
        #expect(plain == off)
        #expect(try StableJSON.compact(PNGEncoder(palette: PNGPalette(mode: .off, quality: 10...20))) == StableJSON.compact(PNGEncoder()))
    }

    @Test("quality ranges: MIN-MAX within 0–100, MIN ≤ MAX; anything else is refused")
    func qualityParsing() {
        #expect(PNGPalette.quality(parsing: "65-90") == 65...90)
        #expect(PNGPalette.quality(parsing: "0-100") == 0...100)
        for bad in ["90-65", "80", "-5-10", "50-101", "a-b", "", "1-2-3"] {
            #expect(PNGPalette.quality(parsing: bad) == nil, "\(bad)")
        }
    }

    #if LossyPalette
    /// RGBA pixels of a decoded PNG, and how many distinct colours they hold.
    private func decodePNG(_ bytes: [UInt8]) throws -> Bitmap {
        try ImageDecoders.decode(SourceBytes(bytes: bytes, path: "indexed.png")).bitmap
    }

    private func distinctColors(_ bitmap: Bitmap) -> Int {
        var seen = Set<UInt32>()
        for index in stride(from: 0, to: bitmap.pixels.count, by: 4) {
            let p = bitmap.pixels
            seen.insert(UInt32(p[index]) << 24 | UInt32(p[index + 1]) << 16 | UInt32(p[index + 2]) << 8 | UInt32(p[index + 3]))
        }
        return seen.count
    }

    /// Colour type and bit depth from IHDR.
    private func header(_ bytes: [UInt8]) -> (bitDepth: UInt8, colorType: UInt8) { (bytes[24], bytes[25]) }

    @Test("on a photo: an indexed PNG of at most 256 colours, decoded by Tessera within the quality's error, smaller than truecolour")
    func photoBecomesIndexed() throws {
        for file in ["still/pillow/jpeg/flower.jpg", "still/sdwebimage/TestImage.jpg"] {
            let photo = try Fixtures.decode(file).bitmap
            let truecolour = try PNGEncoder().encode(photo, iccProfile: nil)
            var notes: [String] = []
            let indexed = try PNGEncoder(palette: PNGPalette(mode: .lossy, quality: 65...90)).encode(photo, iccProfile: nil, notes: &notes)
            #expect(notes.isEmpty)
            #expect(header(indexed) == (8, 3), "\(file)")
            let back = try decodePNG(indexed)
            #expect(back.width == photo.width && back.height == photo.height)
            #expect(distinctColors(back) <= 256)
            // libimagequant's quality 65 allows a mean squared error of about 16 (0–255 scale) a
            // channel before dithering; 30 dB (MSE 65) leaves room for the dither's noise.
            #expect(psnr(back, photo) > 30, "\(file): \(psnr(back, photo)) dB")
            #expect(indexed.count < truecolour.count * 2 / 3, "\(file): \(indexed.count) vs \(truecolour.count)")
        }
    }

    @Test("a higher quality range gives a closer image")
    func qualityOrdersError() throws {
        let photo = try Fixtures.decode("still/pillow/jpeg/flower.jpg").bitmap
        let low = try decodePNG(PNGEncoder(palette: PNGPalette(mode: .lossy, quality: 0...30)).encode(photo, iccProfile: nil))
        let high = try decodePNG(PNGEncoder(palette: PNGPalette(mode: .lossy, quality: 80...100)).encode(photo, iccProfile: nil))
        #expect(psnr(high, photo) > psnr(low, photo) + 2, "\(psnr(high, photo)) vs \(psnr(low, photo))")
        #expect(distinctColors(low) < distinctColors(high))
    }

    @Test("deterministic: two runs, and four at once on other threads, give the same bytes")
    func deterministic() throws {
        let photo = try Fixtures.decode("still/sdwebimage/TestImage.jpg").bitmap
        let encoder = PNGEncoder(palette: PNGPalette(mode: .lossy, quality: 65...90))
        let first = try encoder.encode(photo, iccProfile: nil)
        #expect(try encoder.encode(photo, iccProfile: nil) == first)
        let results = Results()
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            results.set(index, try? encoder.encode(photo, iccProfile: nil))
        }
        for index in 0..<4 { #expect(results.get(index) == first, "thread \(index)") }
    }

    @Test("translucent artwork: tRNS covers only the translucent entries, listed first; alpha comes back within error")
    func translucentArtwork() throws {
        let art = try Generated.gradient(width: 96, height: 64)
        let bytes = try PNGEncoder(palette: PNGPalette(mode: .lossy, quality: 60...100)).encode(art, iccProfile: nil)
        #expect(header(bytes).colorType == 3)
        let chunks = PNGChunks(bytes)
        let plte = try #require(chunks.data("PLTE")), trns = try #require(chunks.data("tRNS"))
        #expect(trns.count <= plte.count / 3 && trns.allSatisfy { $0 < 255 })
        #expect(chunks.types == ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"])
        let back = try decodePNG(bytes)
        let alphaError = stride(from: 3, to: art.pixels.count, by: 4).map { abs(Int(back.pixels[$0]) - Int(art.pixels[$0])) }
        #expect(Double(alphaError.reduce(0, +)) / Double(alphaError.count) < 4)
    }

    @Test("a few colours: exact pixels at the smallest bit depth (1, 2 or 4 bits), ICC before PLTE")
    func fewColoursExact() throws {
        for (colours, depth) in [(2, UInt8(1)), (3, 2), (11, 4)] {
            var pixels: [UInt8] = []
            for index in 0..<(37 * 23) {
                let c = UInt8((index / 7) % colours * 20)
                pixels += [c, 255 - c, c / 2, 255]
            }
            let image = try Bitmap(width: 37, height: 23, format: .rgba8, alpha: .opaque, pixels: pixels)
            let icc = [UInt8](repeating: 7, count: 300)
            let bytes = try PNGEncoder(palette: PNGPalette(mode: .lossy, quality: 90...100)).encode(image, iccProfile: icc)
            #expect(header(bytes) == (depth, 3), "\(colours) colours")
            #expect(PNGChunks(bytes).types == ["IHDR", "iCCP", "PLTE", "IDAT", "IEND"])
            #expect(try decodePNG(bytes).pixels == pixels, "\(colours) colours")
        }
    }

    @Test("a quality floor out of reach writes the truecolour bytes and says so")
    func floorOutOfReachFallsBack() throws {
        let noise = try Generated.noise(width: 64, height: 64, seed: 3)
        var notes: [String] = []
        let bytes = try PNGEncoder(palette: PNGPalette(mode: .lossy, quality: 99...100)).encode(noise, iccProfile: nil, notes: &notes)
        #expect(bytes == (try PNGEncoder().encode(noise, iccProfile: nil)))
        #expect(notes.count == 1 && notes[0].contains("could not reach quality 99") && notes[0].contains("truecolour"))
    }

    @Test("the cache key names the palette options and libimagequant's version")
    func keyNamesOptions() throws {
        let key = String(decoding: try StableJSON.compact(PNGPalette(mode: .lossy, quality: 65...90, speed: 4)), as: UTF8.self)
        #expect(key.contains(#""mode":"lossy""#) && key.contains(#""quality":[65,90]"#) && key.contains(#""speed":4"#))
        #expect(key.contains(#""library":"\#(LossyPaletteQuantiser.libraryVersion)""#))
        #expect(LossyPaletteQuantiser.libraryVersion.hasPrefix("libimagequant 2."))
        #expect(try StableJSON.compact(PNGPalette(mode: .lossy, quality: 65...91, speed: 4)) != StableJSON.compact(PNGPalette(mode: .lossy, quality: 65...90, speed: 4)))
    }
    #else
    @Test("built without libimagequant, a lossy palette is refused with the reason, never silently written truecolour")
    func unavailableIsRefused() throws {
        #expect(!PNGPalette.isAvailable)
        let photo = try Fixtures.decode("still/pillow/jpeg/hopper.jpg").bitmap
        let error = try #require(failure { try PNGEncoder(palette: PNGPalette(mode: .lossy)).encode(photo, iccProfile: nil) })
        #expect(error.kind == .configuration && error.reason.contains("--traits LossyPalette"))
    }
    #endif
}

/// Results written from several threads.
private final class Results: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private let lock = SemaphoreLock()
    private var values: [Int: [UInt8]] = [:]
    func set(_ index: Int, _ value: [UInt8]?) { lock.locked { values[index] = value } }
    func get(_ index: Int) -> [UInt8]? { lock.locked { values[index] } }
}

/// A lock made of a semaphore.
private final class SemaphoreLock: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 1)
    func locked<T>(_ body: () -> T) -> T {
        semaphore.wait()
        defer { semaphore.signal() }
        return body()
    }
}

/// The chunks of a PNG file, in order.
struct PNGChunks {
    private(set) var types: [String] = []
    private var payloads: [String: [UInt8]] = [:]

    init(_ bytes: [UInt8]) {
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            types.append(type)
            if payloads[type] == nil { payloads[type] = Array(bytes[(offset + 8)..<(offset + 8 + length)]) }
            offset += 12 + length
        }
    }

    func data(_ type: String) -> [UInt8]? { payloads[type] }
}
