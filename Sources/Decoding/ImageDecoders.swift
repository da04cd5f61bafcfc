import TesseraCore

/// Chooses a decoder by the file's magic bytes, never by its extension.
public enum ImageDecoders {
    /// The decoder for a format, when Tessera has one.
    public static func decoder(for format: ImageFormat) -> (any ImageDecoder)? {
        switch format {
        case .png: PNGDecoder()
        case .jpeg: JPEGDecoder()
        case .webp: WebPDecoder()
        case .gif: GIFDecoder()
        case .heic: HEICDecoder()
        case .pdf, .svg: nil
        }
    }

    /// Identifies the content of `source`; throws a clear error for anything unrecognised.
    public static func format(of source: SourceBytes) throws(TesseraError) -> ImageFormat {
        guard let format = ImageFormat.sniff(source.prefix) else {
            let head = source.prefix.prefix(8).map { hex($0) }.joined(separator: " ")
            let what = source.count == 0 ? "the file is empty" : "content starting \(head) is not PNG, JPEG, WebP, GIF or HEIC"
            throw TesseraError(.invalidInput, file: source.path, origin: .decode, reason: "unrecognised image: \(what)")
        }
        return format
    }

    /// A warning when the extension names another format than the content: the content wins.
    public static func extensionMismatch(of source: SourceBytes, format: ImageFormat) -> String? {
        extensionMismatch(path: source.path, format: format)
    }

    /// A warning when the extension of `path` names another format than `format`, the content's.
    public static func extensionMismatch(path: String, format: ImageFormat) -> String? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."),
              let named = ImageFormat(fileExtension: String(name[name.index(after: dot)...])),
              named != format else { return nil }
        return "the extension says \(named.displayName) but the content is \(format.displayName); decoded as \(format.displayName)"
    }

    /// The decoder for `source`'s content.
    public static func decoder(for source: SourceBytes) throws(TesseraError) -> any ImageDecoder {
        let format = try format(of: source)
        guard let decoder = decoder(for: format) else {
            throw TesseraError(.invalidInput, file: source.path, origin: .decode,
                               reason: "\(format.displayName) is recognised but Tessera cannot decode it yet")
        }
        return decoder
    }

    /// Decodes `source` with the decoder its content calls for, adding any extension-mismatch warning.
    public static func decode(_ source: SourceBytes, options: DecodeOptions = DecodeOptions()) throws(TesseraError) -> DecodedImage {
        let decoder = try decoder(for: source)
        var image = try decoder.decode(source, options: options)
        if options.appliesOrientation, !image.orientationApplied, image.info.orientation != .up {
            image.bitmap = try image.bitmap.applying(image.info.orientation)
            image.orientationApplied = true
        }
        if let mismatch = extensionMismatch(of: source, format: decoder.format) { image.warnings.insert(mismatch, at: 0) }
        return image
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }
}
