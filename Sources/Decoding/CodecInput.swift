import TesseraCore
#if canImport(Glibc)
import Glibc
#endif

/// Where a codec session reads from: bytes already in memory, or a file streamed through its
/// descriptor so that even a huge file never sits in memory whole.
public struct CodecInput {
    enum Storage {
        case bytes(SourceBytes)
        case file(OpenFile)
    }

    let storage: Storage

    public static func bytes(_ source: SourceBytes) -> CodecInput { CodecInput(storage: .bytes(source)) }

    /// Opens the file now; it is read as the decoder needs it.
    public static func file(at path: String) throws(TesseraError) -> CodecInput {
        CodecInput(storage: .file(try OpenFile(path: path)))
    }

    public var path: String {
        switch storage {
        case .bytes(let source): source.path
        case .file(let file): file.path
        }
    }

    /// The open file's descriptor, nil for bytes in memory.
    var descriptor: Int32? {
        if case .file(let file) = storage { file.descriptor } else { nil }
    }

    /// Calls the C guard's open function with the right arguments for this input.
    func withArguments<R>(_ body: (UnsafePointer<UInt8>?, Int, Int32) -> R) -> R {
        switch storage {
        case .bytes(let source): body(source.pointer, source.count, -1)
        case .file(let file): body(nil, 0, file.descriptor)
        }
    }
}

/// An open, read-only file descriptor, closed when released.
final class OpenFile {
    let path: String
    let descriptor: Int32
    /// The size when opened.
    let size: Int

    init(path: String) throws(TesseraError) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw TesseraError(.io, file: path, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            // Not closed here: every property is set, so `deinit` runs and closes it; closing
            // twice could close a descriptor another thread has opened since.
            size = 0
            throw TesseraError(.io, file: path, reason: "not a regular file")
        }
        size = Int(status.st_size)
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes from the start of the file, without moving the read position.
    func prefix(_ count: Int) -> [UInt8] {
        read(at: 0, count: count)
    }

    /// Up to `count` bytes from `offset`; fewer only at the end of the file or on a read error.
    func read(at offset: Int, count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        let filled = bytes.withUnsafeMutableBytes { read(at: offset, into: $0) }
        return Array(bytes.prefix(filled))
    }

    /// Fills `buffer` from `offset` as far as the file goes; returns the bytes read.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + filled, buffer.count - filled, off_t(offset + filled))
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return filled
    }
}

extension RowStreamingDecoder {
    /// Opens a row stream that reads the file as it goes, so memory does not grow with the file.
    public func openRows(fileAt path: String, scaleDenominator: Int,
                         options: DecodeOptions) throws(TesseraError) -> any RowReader {
        try openRows(.file(at: path), scaleDenominator: scaleDenominator, options: options)
    }

    public func openRows(_ source: SourceBytes, scaleDenominator: Int,
                         options: DecodeOptions) throws(TesseraError) -> any RowReader {
        try openRows(.bytes(source), scaleDenominator: scaleDenominator, options: options)
    }
}

extension ImageDecoders {
    /// Identifies a file's format from its first bytes, reading nothing else.
    public static func format(ofFileAt path: String) throws(TesseraError) -> ImageFormat {
        let prefix = try OpenFile(path: path).prefix(16)
        return try format(of: SourceBytes(bytes: prefix, path: path))
    }
}
