import CGIF
import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// An open giflib decoder over bytes in memory, with the record-level reading both the prober
/// and the frame reader need. giflib reports errors by return code, so no C guard is needed.
final class GIFFile {
    let path: String
    let handle: UnsafeMutablePointer<GifFileType>
    private let input: Input
    /// Keeps the bytes or the open file alive as long as giflib reads them.
    private let owner: AnyObject

    /// Where the read callback reads from, reached through `GifFileType.UserData`: bytes in
    /// memory, or a file descriptor read as giflib asks (so a long animation is never loaded whole).
    private final class Input {
        let bytes: UnsafePointer<UInt8>?
        let count: Int
        let descriptor: Int32
        var offset = 0
        /// Read-ahead for file input: giflib asks for a byte or a sub-block at a time.
        private var readAhead: [UInt8] = []
        private var readAheadStart = 0

        init(bytes: UnsafePointer<UInt8>?, count: Int, descriptor: Int32) {
            self.bytes = bytes
            self.count = count
            self.descriptor = descriptor
        }

        func read(into buffer: UnsafeMutablePointer<UInt8>, length: Int) -> Int {
            guard let bytes else {
                var done = 0
                while done < length {
                    if readAheadStart == readAhead.count {
                        readAhead = [UInt8](repeating: 0, count: 256 * 1024)
                        var count = -1
                        while count < 0 {
                            count = readAhead.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                            if count < 0 && errno != EINTR { count = 0 }
                        }
                        readAhead.removeSubrange(count...)
                        readAheadStart = 0
                        if count == 0 { break }
                    }
                    let take = min(length - done, readAhead.count - readAheadStart)
                    readAhead.withUnsafeBufferPointer { (buffer + done).update(from: $0.baseAddress! + readAheadStart, count: take) }
                    readAheadStart += take
                    done += take
                }
                return done
            }
            let available = min(length, count - offset)
            guard available > 0 else { return 0 }
            buffer.update(from: bytes + offset, count: available)
            offset += available
            return available
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

    convenience init(_ source: SourceBytes) throws(TesseraError) {
        try self.init(input: Input(bytes: source.pointer, count: source.count, descriptor: -1), path: source.path,
                      owner: source)
    }

    /// Reads the GIF from a file as it goes.
    convenience init(file: OpenFile) throws(TesseraError) {
        try self.init(input: Input(bytes: nil, count: 0, descriptor: file.descriptor), path: file.path, owner: file)
    }

    private init(input: Input, path: String, owner: AnyObject) throws(TesseraError) {
        self.path = path
        self.input = input
        self.owner = owner
        var error: Int32 = 0
        let read: InputFunc = { file, buffer, length in
            guard let file, let buffer, let context = file.pointee.UserData else { return 0 }
            return Int32(Unmanaged<Input>.fromOpaque(context).takeUnretainedValue().read(into: buffer, length: Int(length)))
        }
        guard let handle = DGifOpen(Unmanaged.passUnretained(input).toOpaque(), read, &error) else {
            throw TesseraError(.invalidInput, file: path, origin: .decode, reason: "GIF: \(Self.describe(error))")
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
        TesseraError(.invalidInput, file: path, origin: .decode, reason: "GIF: \(text)")
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

    /// Passes over the current image's compressed data without decoding it.
    func skipImageData() throws(TesseraError) {
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        guard DGifGetCode(handle, &codeSize, &block) == GIF_OK else { throw failure(lastError) }
        while block != nil {
            guard DGifGetCodeNext(handle, &block) == GIF_OK else { throw failure(lastError) }
        }
    }

    /// Reads on from here until an image whose Graphic Control Extension has a delay: whether the
    /// file has one. Images whose data is cut short do not count, as `GIFBlockReader` drops them.
    func hasDelays() throws(TesseraError) -> Bool {
        var delay = 0
        do {
            while true {
                switch try nextRecord() {
                case .graphicControl(let control): delay = control.delayCentiseconds
                case .image:
                    try skipImageData()
                    if delay > 0 { return true }
                    delay = 0
                case .loopCount, .otherExtension: continue
                case .end: return false
                }
            }
        } catch {
            // A broken file: the frame reader will stop at the same place; what came before decides.
            return false
        }
    }

}
