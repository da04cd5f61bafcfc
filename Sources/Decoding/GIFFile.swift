import CGIF
import TesseraCore

/// An open giflib decoder over bytes in memory, with the record-level reading both the prober
/// and the frame reader need. giflib reports errors by return code, so no C guard is needed.
final class GIFFile {
    let source: SourceBytes
    let handle: UnsafeMutablePointer<GifFileType>
    private let input: Input

    /// Where the read callback is in the bytes; reached through `GifFileType.UserData`.
    private final class Input {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        var offset = 0
        init(bytes: UnsafePointer<UInt8>, count: Int) {
            self.bytes = bytes
            self.count = count
        }
    }

    /// What the Graphic Control Extension says about the next image.
    struct GraphicControl {
        var disposal = 0
        var delayCentiseconds = 0
        var transparentIndex: Int?
    }

    enum Record {
        case image
        case graphicControl(GraphicControl)
        case loopCount(Int)
        case otherExtension
        case end
    }

    init(_ source: SourceBytes) throws(TesseraError) {
        self.source = source
        input = Input(bytes: source.pointer, count: source.count)
        var error: Int32 = 0
        let read: InputFunc = { file, buffer, length in
            guard let file, let buffer, let context = file.pointee.UserData else { return 0 }
            let input = Unmanaged<Input>.fromOpaque(context).takeUnretainedValue()
            let available = min(Int(length), input.count - input.offset)
            guard available > 0 else { return 0 }
            buffer.update(from: input.bytes + input.offset, count: available)
            input.offset += available
            return Int32(available)
        }
        guard let handle = DGifOpen(Unmanaged.passUnretained(input).toOpaque(), read, &error) else {
            throw TesseraError(.invalidInput, file: source.path, stage: "decode", reason: "GIF: \(Self.describe(error))")
        }
        self.handle = handle
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(handle, &error)
    }

    var canvasWidth: Int { Int(handle.pointee.SWidth) }
    var canvasHeight: Int { Int(handle.pointee.SHeight) }

    func failure(_ text: String) -> TesseraError {
        TesseraError(.invalidInput, file: source.path, stage: "decode", reason: "GIF: \(text)")
    }

    var lastError: String { Self.describe(handle.pointee.Error) }

    static func describe(_ code: Int32) -> String {
        guard let text = GifErrorString(code) else { return "error \(code)" }
        return String(cString: text).lowercased()
    }

    /// Reads the next record. For `.image`, the image descriptor has been read: call
    /// `readLine` for every row or `skipImageData`.
    func nextRecord() throws(TesseraError) -> Record {
        var type = UNDEFINED_RECORD_TYPE
        guard DGifGetRecordType(handle, &type) == GIF_OK else { throw failure(lastError) }
        switch type {
        case IMAGE_DESC_RECORD_TYPE:
            // The header form does not keep a growing list of every image read, as DGifGetImageDesc does.
            guard DGifGetImageHeader(handle) == GIF_OK else { throw failure(lastError) }
            return .image
        case EXTENSION_RECORD_TYPE:
            return try readExtension()
        case TERMINATE_RECORD_TYPE:
            return .end
        default:
            throw failure("unknown block type")
        }
    }

    private func readExtension() throws(TesseraError) -> Record {
        var code: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetExtension(handle, &code, &block) == GIF_OK else { throw failure(lastError) }
        var record = Record.otherExtension
        if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
            let packed = Int(block[1])
            record = .graphicControl(GraphicControl(
                disposal: (packed >> 2) & 0x07,
                delayCentiseconds: Int(block[2]) | Int(block[3]) << 8,
                transparentIndex: packed & 1 == 1 ? Int(block[4]) : nil))
        }
        var isNetscape = false
        if code == APPLICATION_EXT_FUNC_CODE, let block, block[0] == 11 {
            let name = (1...11).map { block[$0] }
            isNetscape = name == Array("NETSCAPE2.0".utf8) || name == Array("ANIMEXTS1.0".utf8)
        }
        while block != nil {
            guard DGifGetExtensionNext(handle, &block) == GIF_OK else { throw failure(lastError) }
            if isNetscape, let sub = block, sub[0] >= 3, sub[1] == 1 {
                record = .loopCount(Int(sub[2]) | Int(sub[3]) << 8)
                isNetscape = false
            }
        }
        return record
    }

    /// The current image's descriptor.
    var image: GifImageDesc { handle.pointee.Image }

    /// The colour table that applies to the current image: its own, else the global one.
    var activeColorMap: UnsafeMutablePointer<ColorMapObject>? {
        handle.pointee.Image.ColorMap ?? handle.pointee.SColorMap
    }

    func readLine(into buffer: UnsafeMutablePointer<GifPixelType>, length: Int) throws(TesseraError) {
        guard DGifGetLine(handle, buffer, Int32(length)) == GIF_OK else { throw failure(lastError) }
    }

}
