import TesseraCore

/// `ImageDimensionsReading` by the decoders' own header probes: what the rasteriser uses to bound
/// the images an SVG embeds, with the same format detection as a top-level image.
public struct HeaderDimensions: ImageDimensionsReading {
    public init() {}

    public func dimensions(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        let source = SourceBytes(bytes: bytes, path: "embedded image")
        guard let decoder = try? ImageDecoders.decoder(for: source), let info = try? decoder.probe(source) else { return nil }
        return (info.width, info.height)
    }
}
