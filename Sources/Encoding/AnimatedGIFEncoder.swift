import CGIF
import TesseraCore

/// Animated GIF through giflib. Each frame is quantised on its own (`PaletteQuantiser`) and
/// written whole with a local colour table; delays are centiseconds (milliseconds rounded to the
/// nearest 10, exact for GIF sources); plays become the NETSCAPE2.0 loop field (N plays → N − 1,
/// forever → 0, once → no loop block).
public final class AnimatedGIFEncoder: AnimatedImageEncoder {
    private let file: UnsafeMutablePointer<GifFileType>
    private let output: Output
    private let width: Int
    private let height: Int
    private var closed = false

    private final class Output {
        var bytes: [UInt8] = []
    }

    public init(width: Int, height: Int, plays: AnimationPlays) throws(TesseraError) {
        guard width <= 65535, height <= 65535 else { throw Self.failure("GIF is limited to 65535×65535") }
        self.width = width
        self.height = height
        output = Output()
        var error: Int32 = 0
        let write: OutputFunc = { file, bytes, length in
            guard let file, let bytes, let context = file.pointee.UserData else { return 0 }
            Unmanaged<Output>.fromOpaque(context).takeUnretainedValue()
                .bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
            return length
        }
        guard let file = EGifOpen(Unmanaged.passUnretained(output).toOpaque(), write, &error) else {
            throw Self.failure(GIFFailure.describe(error))
        }
        self.file = file
        EGifSetGifVersion(file, true)
        guard EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, nil) == GIF_OK else {
            throw Self.failure(GIFFailure.describe(file.pointee.Error))
        }
        if case .times(let count) = plays, count == 1 { return }
        let loopField = switch plays {
        case .forever: 0
        case .times(let count): min(65535, max(0, count - 1))
        }
        var application = Array("NETSCAPE2.0".utf8)
        var loop: [UInt8] = [1, UInt8(loopField & 0xff), UInt8(loopField >> 8)]
        let ok = EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE) == GIF_OK
            && EGifPutExtensionBlock(file, 11, &application) == GIF_OK
            && EGifPutExtensionBlock(file, 3, &loop) == GIF_OK
            && EGifPutExtensionTrailer(file) == GIF_OK
        guard ok else { throw Self.failure(GIFFailure.describe(file.pointee.Error)) }
    }

    deinit {
        if !closed {
            var error: Int32 = 0
            EGifCloseFile(file, &error)
        }
    }

    public func add(_ frame: Bitmap, durationMs: Int) throws(TesseraError) {
        guard frame.width == width, frame.height == height else {
            throw Self.failure("frame is \(frame.width)×\(frame.height), the animation \(width)×\(height)")
        }
        let rgba = PixelPacking.straightRGBA(frame)
        var quantised = PaletteQuantiser.quantise(rgba: rgba, pixelCount: width * height)
        // giflib wants a power-of-two colour table.
        var size = 2
        while size < quantised.palette.count / 3 { size *= 2 }
        quantised.palette += [UInt8](repeating: 0, count: size * 3 - quantised.palette.count)
        guard let map = GifMakeMapObject(Int32(size), nil) else { throw Self.failure("out of memory") }
        defer { GifFreeMapObject(map) }
        for index in 0..<size {
            map.pointee.Colors[index] = GifColorType(Red: quantised.palette[index * 3], Green: quantised.palette[index * 3 + 1],
                                                    Blue: quantised.palette[index * 3 + 2])
        }
        let delay = (max(0, durationMs) + 5) / 10
        let transparent = quantised.transparentIndex
        // Disposal 2 (restore to background) when the frame has transparency, so the previous
        // frame does not show through; 1 (keep) otherwise.
        var control: [UInt8] = [UInt8((transparent != nil ? 2 : 1) << 2 | (transparent != nil ? 1 : 0)),
                                UInt8(delay & 0xff), UInt8(delay >> 8), UInt8(transparent ?? 0)]
        guard EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, 4, &control) == GIF_OK,
              EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, map) == GIF_OK else {
            throw Self.failure(GIFFailure.describe(file.pointee.Error))
        }
        var row = [GifPixelType](repeating: 0, count: width)
        for y in 0..<height {
            for x in 0..<width { row[x] = quantised.indices[y * width + x] }
            guard EGifPutLine(file, &row, Int32(width)) == GIF_OK else {
                throw Self.failure(GIFFailure.describe(file.pointee.Error))
            }
        }
    }

    public func finish() throws(TesseraError) -> [UInt8] {
        var error: Int32 = 0
        closed = true
        guard EGifCloseFile(file, &error) == GIF_OK else { throw Self.failure(GIFFailure.describe(error)) }
        return output.bytes
    }

    private static func failure(_ text: String) -> TesseraError {
        TesseraError(.internalFailure, origin: .encode, reason: "animated GIF: \(text)")
    }
}

enum GIFFailure {
    static func describe(_ code: Int32) -> String {
        guard let text = GifErrorString(code) else { return "error \(code)" }
        return String(cString: text).lowercased()
    }
}
