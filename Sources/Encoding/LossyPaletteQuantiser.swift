#if LossyPalette
import CImageQuant
#endif
import TesseraCore

/// Straight RGBA → at most 256 RGBA palette entries and one index a pixel, through libimagequant.
enum LossyPaletteQuantiser {
    struct Palette {
        /// RGBA quadruples, the entries with alpha below 255 first (so tRNS stays short).
        var entries: [UInt8]
        var indices: [UInt8]
        /// libimagequant's own estimate of the quality reached, 0–100.
        var quality: Int
        var count: Int { entries.count / 4 }
    }

    enum Outcome {
        case palette(Palette)
        /// libimagequant could not reach the floor; its best quality, when it told.
        case belowFloor(Int?)
    }

    /// "libimagequant 2.17.0", or "none" in a build without it.
    static var libraryVersion: String {
        #if LossyPalette
        // The header's string: Debian's 2.17.0 still answers 21600 from liq_version().
        return "libimagequant \(LIQ_VERSION_STRING)"
        #else
        return "none"
        #endif
    }

    static func quantise(rgba: [UInt8], width: Int, height: Int, options: PNGPalette) throws(TesseraError) -> Outcome {
        #if LossyPalette
        guard let attributes = liq_attr_create() else { throw failure("cannot allocate its settings") }
        defer { liq_attr_destroy(attributes) }
        guard liq_set_quality(attributes, Int32(options.quality.lowerBound), Int32(options.quality.upperBound)) == LIQ_OK,
              liq_set_speed(attributes, Int32(options.speed)) == LIQ_OK else { throw failure("refused the settings") }
        // Same bytes on every run and machine: see the shim.
        tessera_liq_single_thread()
        return try rgba.withUnsafeBufferPointer { pixels throws(TesseraError) -> Outcome in
            guard let image = liq_image_create_rgba(attributes, pixels.baseAddress!, Int32(width), Int32(height), 0) else {
                throw failure("cannot take a \(width)×\(height) image")
            }
            defer { liq_image_destroy(image) }
            var result: OpaquePointer?
            let status = liq_image_quantize(image, attributes, &result)
            if status == LIQ_QUALITY_TOO_LOW { return .belowFloor(nil) }
            guard status == LIQ_OK, let result else { throw failure("quantisation failed (error \(status.rawValue))") }
            defer { liq_result_destroy(result) }
            // Floyd–Steinberg at full strength, as pngquant does by default; fixed, so bytes are stable.
            guard liq_set_dithering_level(result, 1.0) == LIQ_OK else { throw failure("refused the dithering level") }
            var indices = [UInt8](repeating: 0, count: width * height)
            let remapped = indices.withUnsafeMutableBytes {
                liq_write_remapped_image(result, image, $0.baseAddress!, $0.count)
            }
            guard remapped == LIQ_OK, let palette = liq_get_palette(result) else {
                throw failure("remapping failed (error \(remapped.rawValue))")
            }
            let colors = withUnsafeBytes(of: palette.pointee.entries) { raw in
                Array(raw.prefix(Int(palette.pointee.count) * 4))
            }
            return .palette(transparentFirst(colors, indices: indices,
                                             quality: Int(liq_get_quantization_quality(result))))
        }
        #else
        throw TesseraError(.configuration, origin: .encode, reason: "PNG palette: \(PNGPalette.unavailableReason ?? "")")
        #endif
    }

    /// Reorders the palette so entries with alpha below 255 come first (stable otherwise), and
    /// the indices with it: tRNS then lists only those.
    static func transparentFirst(_ colors: [UInt8], indices: [UInt8], quality: Int) -> Palette {
        let count = colors.count / 4
        let order = (0..<count).filter { colors[$0 * 4 + 3] < 255 } + (0..<count).filter { colors[$0 * 4 + 3] == 255 }
        var newIndex = [UInt8](repeating: 0, count: 256)
        for (position, old) in order.enumerated() { newIndex[old] = UInt8(position) }
        let entries = order.flatMap { colors[($0 * 4)..<($0 * 4 + 4)] }
        return Palette(entries: entries, indices: indices.map { newIndex[Int($0)] }, quality: quality)
    }

    private static func failure(_ reason: String) -> TesseraError {
        TesseraError(.internalFailure, origin: .encode, reason: "PNG palette: libimagequant \(reason)")
    }
}
