import Decoding
import Foundation
import TesseraCore

/// What the codec modules' test targets share (DecodingTests, EncodingTests, DownscalingTests,
/// ReadyBitmapsTests, FrameTimingTests): paths into `Tests/Fixtures/corpus`, found from this file's location so tests run from any clone.
package enum Fixtures {
    package static let corpus: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/corpus").path

    package static func path(_ relative: String) -> String { "\(corpus)/\(relative)" }

    package static func source(_ relative: String) throws -> SourceBytes {
        try SourceBytes(contentsOfFile: path(relative))
    }

    /// File names in a corpus folder, sorted.
    package static func files(in folder: String, withExtension ext: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path(folder))) ?? []
        return names.filter { $0.hasSuffix(".\(ext)") }.sorted()
    }

    /// PngSuite's valid images (the corrupt ones' names start with `x`).
    package static let pngSuiteValid = files(in: "png/pngsuite", withExtension: "png").filter { !$0.hasPrefix("x") }

    package static func decode(_ relative: String) throws -> DecodedImage {
        try ImageDecoders.decode(try source(relative))
    }
}

/// Test images made in code.
package enum Generated {
    /// A smooth RGBA gradient with a soft alpha ramp: easy to compress, every channel varies.
    package static func gradient(width: Int, height: Int, opaque: Bool = false) throws -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let index = (y * width + x) * 4
                pixels[index] = UInt8(x * 255 / max(1, width - 1))
                pixels[index + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[index + 2] = UInt8((x + y) * 255 / max(1, width + height - 2))
                pixels[index + 3] = opaque ? 255 : UInt8(64 + (x * 191) / max(1, width - 1))
            }
        }
        return try Bitmap(width: width, height: height, format: .rgba8, alpha: opaque ? .opaque : .straight,
                          pixels: pixels)
    }

    /// Pseudo-random noise from a fixed seed.
    package static func noise(width: Int, height: Int, seed: UInt64) throws -> Bitmap {
        var state = seed
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in pixels.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            pixels[index] = UInt8(truncatingIfNeeded: state >> 56)
        }
        return try Bitmap(width: width, height: height, format: .rgba8, alpha: .straight, pixels: pixels)
    }
}

/// Peak signal-to-noise ratio over the RGB channels, in dB.
package func psnr(_ a: Bitmap, _ b: Bitmap) -> Double {
    precondition(a.width == b.width && a.height == b.height)
    var squared = 0.0
    var count = 0
    for y in 0..<a.height {
        let rowA = Array(a.row(y)), rowB = Array(b.row(y))
        for x in 0..<a.width {
            for channel in 0..<3 {
                let difference = Double(rowA[x * 4 + channel]) - Double(rowB[x * 4 + channel])
                squared += difference * difference
                count += 1
            }
        }
    }
    let mse = squared / Double(count)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// Mean absolute difference per channel value.
package func meanAbsoluteDifference(_ a: Bitmap, _ b: Bitmap) -> Double {
    precondition(a.pixels.count == b.pixels.count)
    var total = 0
    for index in a.pixels.indices { total += abs(Int(a.pixels[index]) - Int(b.pixels[index])) }
    return Double(total) / Double(a.pixels.count)
}

/// The `TesseraError` a throwing call fails with, or nil when it succeeds (or throws something else).
package func failure(of body: () throws -> Any) -> TesseraError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? TesseraError
    }
}
