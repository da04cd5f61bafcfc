import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on 127.0.0.1 in front of a real HTTP server, one request per connection, that
/// injects the faults queued for the next requests: a connection cut after some body bytes, a
/// flipped body byte, an error status. It records every request's path, range headers and the
/// status the client got, in order.
final class FaultProxy: @unchecked Sendable {
    enum Fault: Sendable {
        case pass
        /// Forwards this many body bytes, then closes the connection; `then` runs after the cut.
        case cutAfter(Int, then: @Sendable () -> Void = {})
        /// Flips the body byte at this offset.
        case corrupt(at: Int)
        /// Answers with this status and no body, without asking the server.
        case status(Int)
        /// Reads the request and never answers, until the client gives up and closes.
        case stall
        /// Forwards the answer with this header line added (a server that says it compressed it).
        case header(String)
        /// Forwards the head, then the body a byte every `interval` seconds: never idle for a
        /// read timeout, yet never done (until the client gives up and closes).
        case drip(interval: TimeInterval)
    }

    struct Seen: Sendable, Equatable {
        var path: String
        var range: String?
        var ifRange: String?
        var status: Int
        var acceptEncoding: String? = nil
    }

    let port: Int
    private let upstream: Int
    private let listener: Int32
    private let lock = NSLock()
    private var queue: [Fault] = []
    private var seen: [Seen] = []
    private var stopped = false
    private var sent = 0

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var requests: [Seen] { lock.withLock { seen } }
    /// Bytes sent to clients (heads and bodies) since the start or the last `forget()`: what a
    /// device downloads.
    var bytesSent: Int { lock.withLock { sent } }

    init(upstream: Int) throws {
        self.upstream = upstream
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.address(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw ProxyError("cannot listen: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.listener = listener
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                Thread.detachNewThread { self.serve(client) }
            }
        }
    }

    func enqueue(_ faults: Fault...) { lock.withLock { queue += faults } }
    func enqueue(contentsOf faults: [Fault]) { lock.withLock { queue += faults } }

    func forget() { lock.withLock { seen = []; queue = []; sent = 0 } }

    /// Stops listening; safe to call twice. A second `close` of the same number could close a
    /// descriptor another test opened since (seen as EBADF in a concurrent file copy).
    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        guard let head = Self.readHead(client) else { return }
        let lines = head.components(separatedBy: "\r\n")
        let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        func header(_ name: String) -> String? {
            lines.dropFirst().first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
        }
        let fault = lock.withLock { queue.isEmpty ? Fault.pass : queue.removeFirst() }
        if case .status(let code) = fault {
            record(Seen(path: path, range: header("Range"), ifRange: header("If-Range"), status: code))
            lock.withLock { sent += 64 }
            Self.send(client, Array("HTTP/1.1 \(code) Injected\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return
        }
        if case .stall = fault {
            record(Seen(path: path, range: header("Range"), ifRange: header("If-Range"), status: 0))
            var byte: UInt8 = 0
            while recv(client, &byte, 1, 0) > 0 {}
            return
        }
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(server) }
        var address = Self.address(port: upstream)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return }
        // One request per connection keeps the fault bookkeeping simple.
        let forwarded = lines.filter { !$0.lowercased().hasPrefix("connection:") && !$0.isEmpty }.joined(separator: "\r\n")
            + "\r\nConnection: close\r\n\r\n"
        Self.send(server, Array(forwarded.utf8))
        var response: [UInt8] = []
        var bodyStart: Int?
        var sentUpTo = 0
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = recv(server, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response += buffer[0..<count]
            if bodyStart == nil, let end = Self.find([13, 10, 13, 10], in: response) {
                bodyStart = end + 4
                let status = Int(String(decoding: response[9..<12], as: UTF8.self)) ?? 0
                record(Seen(path: path, range: header("Range"), ifRange: header("If-Range"), status: status,
                            acceptEncoding: header("Accept-Encoding")))
                if case .header(let line) = fault, let statusEnd = Self.find([13, 10], in: response) {
                    response.insert(contentsOf: Array("\r\n\(line)".utf8), at: statusEnd)
                    bodyStart! += line.utf8.count + 2
                }
            }
            guard let start = bodyStart else { continue }
            var limit = response.count
            if case .cutAfter(let bytes, _) = fault { limit = min(limit, start + bytes) }
            if case .corrupt(let offset) = fault, start + offset < response.count, start + offset >= sentUpTo {
                response[start + offset] ^= 0xFF
            }
            if case .drip(let interval) = fault {
                if start > sentUpTo {
                    Self.send(client, Array(response[sentUpTo..<start]))
                    sentUpTo = start
                }
                while sentUpTo < limit {
                    Thread.sleep(forTimeInterval: interval)
                    let sent = response[sentUpTo...sentUpTo].withUnsafeBytes { Glibc.send(client, $0.baseAddress, 1, Int32(MSG_NOSIGNAL)) }
                    if sent <= 0 { return }
                    sentUpTo += 1
                }
                continue
            }
            if limit > sentUpTo {
                lock.withLock { sent += limit - sentUpTo }
                Self.send(client, Array(response[sentUpTo..<limit]))
                sentUpTo = limit
            }
            if case .cutAfter(let bytes, let then) = fault, sentUpTo >= start + bytes {
                shutdown(client, Int32(SHUT_RDWR))
                then()
                return
            }
        }
    }

    private func record(_ request: Seen) { lock.withLock { seen.append(request) } }

    private static func readHead(_ socket: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 65536 {
            guard recv(socket, &byte, 1, 0) == 1 else { return nil }
            bytes.append(byte)
            if bytes.suffix(4) == [13, 10, 13, 10] { return String(decoding: bytes.dropLast(4), as: UTF8.self) }
        }
        return nil
    }

    private static func send(_ socket: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    private static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

struct ProxyError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
