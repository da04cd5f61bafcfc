import NIOCore

extension BlobAnswer {
    /// The answer's status line and header fields, as NIO's HTTP/1 encoder writes `headers`,
    /// for the answers `BundleConnectionHandler` writes without it: the request's version, the
    /// fields, `date`, `server` and, when the request needs one, `connection`. Written piece by
    /// piece into the buffer: building the field list's strings cost 3% of a 64 KiB range's CPU time.
    func writeHead(into buffer: inout ByteBuffer, http10: Bool, date: String, server: String, connection: StaticString?) {
        buffer.writeStaticString(http10 ? "HTTP/1.0 " : "HTTP/1.1 ")
        switch status {
        case 200: buffer.writeStaticString("200 OK\r\n")
        case 206: buffer.writeStaticString("206 Partial Content\r\n")
        case 304: buffer.writeStaticString("304 Not Modified\r\n")
        default: buffer.writeStaticString("416 Range Not Satisfiable\r\n")
        }
        buffer.writeStaticString("etag: \"")
        buffer.writeString(digest)
        buffer.writeStaticString("\"\r\ncache-control: public, max-age=31536000, immutable\r\naccept-ranges: bytes\r\n")
        if let contentLength {
            buffer.writeStaticString("content-type: application/octet-stream\r\n")
            if let contentRange {
                buffer.writeStaticString("content-range: bytes ")
                buffer.writeDecimal(contentRange.lowerBound)
                buffer.writeStaticString("-")
                buffer.writeDecimal(contentRange.upperBound)
                buffer.writeStaticString("/")
                buffer.writeDecimal(size)
                buffer.writeStaticString("\r\n")
            } else if isUnsatisfiable {
                buffer.writeStaticString("content-range: bytes */")
                buffer.writeDecimal(size)
                buffer.writeStaticString("\r\n")
            }
            buffer.writeStaticString("content-length: ")
            buffer.writeDecimal(contentLength)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("date: ")
        buffer.writeString(date)
        buffer.writeStaticString("\r\nserver: ")
        buffer.writeString(server)
        buffer.writeStaticString("\r\n")
        if let connection {
            buffer.writeStaticString("connection: ")
            buffer.writeStaticString(connection)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeStaticString("\r\n")
    }
}

private extension ByteBuffer {
    /// A non-negative integer in decimal digits, without an intermediate string.
    mutating func writeDecimal(_ value: Int) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for any Int
        withUnsafeMutableBytes(of: &digits) { raw in
            var index = raw.count, rest = value
            repeat {
                index -= 1
                raw[index] = UInt8(truncatingIfNeeded: 0x30 + rest % 10)
                rest /= 10
            } while rest > 0
            writeBytes(UnsafeRawBufferPointer(rebasing: raw[index...]))
        }
    }
}
