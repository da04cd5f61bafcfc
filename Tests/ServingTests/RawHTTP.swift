import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A bare HTTP/1.1 client over a socket: sends exactly the headers given (no hidden
/// `Accept-Encoding`, no redirects, no decompression), so Tessera and nginx are asked the same thing.
struct RawHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// An open connection with the request sent, for tests that read the answer later.
    final class Connection {
        let descriptor: Int32
        init(descriptor: Int32) { self.descriptor = descriptor }
        deinit { close(descriptor) }

        /// Reads until the server closes the connection (requests say `Connection: close`).
        func readAll() -> [UInt8] {
            var data: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                data.append(contentsOf: chunk[0..<count])
            }
            return data
        }
    }

    /// A kept-open connection that sends bytes as given and reads one answer at a time (a
    /// `Content-Length` body), for tests of how requests are split across reads.
    final class Stream {
        let descriptor: Int32
        private var received: [UInt8] = []

        /// `timeout`: how long `readResponse` waits for bytes before it gives up (nil).
        init(port: Int, timeout seconds: Int = 10) throws {
            descriptor = try RawHTTP.connect(port: port)
            var timeout = timeval(tv_sec: seconds, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var noDelay: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        }
        deinit { close(descriptor) }

        func send(_ bytes: [UInt8]) { RawHTTP.send(bytes, to: descriptor) }

        /// Half-closes the connection: the server reads its end after what was sent.
        func closeWrite() { shutdown(descriptor, Int32(SHUT_WR)) }

        /// The next answer; nil when the server closes (or says nothing for the timeout) first.
        func readResponse() -> Response? {
            func fill() -> Bool {
                var chunk = [UInt8](repeating: 0, count: 1 << 16)
                let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { return false }
                received.append(contentsOf: chunk[0..<count])
                return true
            }
            var headEnd: Int?
            while headEnd == nil {
                headEnd = received.firstRange(of: [13, 10, 13, 10] as [UInt8])?.upperBound
                if headEnd == nil, !fill() { return nil }
            }
            var response = RawHTTP.parse(Array(received[..<headEnd!]), isHead: true)
            let length = response.header("Content-Length").flatMap(Int.init) ?? 0
            while received.count < headEnd! + length { if !fill() { return nil } }
            response.body = Array(received[headEnd!..<(headEnd! + length)])
            received.removeFirst(headEnd! + length)
            return response
        }
    }

    static func open(port: Int, method: String, path: String, headers: [(String, String)] = [], body: [UInt8] = [],
                     sendBody: Int? = nil) throws -> Connection {
        let descriptor = try connect(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8) + body.prefix(sendBody ?? body.count)
        send(bytes, to: descriptor)
        return Connection(descriptor: descriptor)
    }

    fileprivate static func connect(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "connect to 127.0.0.1:\(port) failed"])
        }
        return descriptor
    }

    fileprivate static func send(_ bytes: [UInt8], to descriptor: Int32) {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count <= 0 { break }
            sent += count
        }
    }

    /// Sends body-less `requests` on one connection in one write (HTTP/1.1 pipelining: the
    /// server has them all before it answers the first; the last asks to close) and reads the
    /// answers in order, each body as long as its `Content-Length` (none for HEAD and 304).
    /// `beforeReading` runs after the requests are sent and before anything is read. The requests
    /// at `chunked` go with `Transfer-Encoding: chunked` and an empty chunked body.
    static func pipeline(port: Int, _ requests: [(method: String, path: String, headers: [(String, String)])],
                         chunked: Set<Int> = [], beforeReading: () -> Void = {}) throws -> [Response] {
        let descriptor = try connect(port: port)
        let connection = Connection(descriptor: descriptor)
        var text = ""
        for (index, request) in requests.enumerated() {
            text += "\(request.method) \(request.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
            if index == requests.count - 1 { text += "Connection: close\r\n" }
            for (name, value) in request.headers { text += "\(name): \(value)\r\n" }
            text += chunked.contains(index) ? "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n" : "\r\n"
        }
        send(Array(text.utf8), to: descriptor)
        beforeReading()
        var data = connection.readAll()[...]
        var responses: [Response] = []
        for request in requests {
            guard let headEnd = data.firstRange(of: [13, 10, 13, 10] as [UInt8])?.upperBound else { break }
            var response = parse(Array(data[..<headEnd]), isHead: true)
            data = data[headEnd...]
            if request.method != "HEAD", response.status != 304, let length = response.header("Content-Length").flatMap(Int.init) {
                response.body = Array(data.prefix(length))
                data = data.dropFirst(length)
            }
            responses.append(response)
        }
        return responses
    }

    static func request(port: Int, method: String = "GET", path: String, headers: [(String, String)] = [],
                        body: [UInt8] = []) throws -> Response {
        let connection = try open(port: port, method: method, path: path, headers: headers, body: body)
        return parse(connection.readAll(), isHead: method == "HEAD")
    }

    static func parse(_ data: [UInt8], isHead: Bool) -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        var end = 0
        while end + 4 <= data.count, Array(data[end..<end + 4]) != separator { end += 1 }
        let head = String(decoding: data[0..<min(end, data.count)], as: UTF8.self).components(separatedBy: "\r\n")
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Array(data[min(end + 4, data.count)...])
        if isHead { body = [] } else if let length = headers["content-length"].flatMap(Int.init) { body = Array(body.prefix(length)) }
        return Response(status: status, headers: headers, body: body)
    }
}
