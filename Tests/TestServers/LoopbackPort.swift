import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Free TCP ports on 127.0.0.1, and a wait for a server to start listening on one.
public enum LoopbackPort {
    /// A port nothing listens on right now: the kernel picks it for a socket bound to port 0.
    /// Another process could take it before the server binds it; launchers retry on that.
    public static func free() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { throw TestServerError("socket() failed: errno \(errno)") }
        defer { close(socketFD) }
        var address = loopbackAddress(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw TestServerError("bind() to 127.0.0.1:0 failed: errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    public static func isListening(_ port: Int) -> Bool {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return false }
        defer { close(socketFD) }
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return connected == 0
    }

    /// Polls until `port` accepts connections, `process` has exited, or `timeout` has passed.
    public static func waitUntilListening(_ port: Int, process: Process, timeout: TimeInterval,
                                          name: String, log: URL?) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if isListening(port) { return }
            if !process.isRunning { break }
            usleep(20_000)
        }
        let tail = log.flatMap { try? String(contentsOf: $0, encoding: .utf8) }.map { String($0.suffix(2_000)) } ?? ""
        throw TestServerError("\(name) did not start listening on 127.0.0.1:\(port) within \(Int(timeout)) s. \(tail)")
    }

    private static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// Why a test server could not be started.
public struct TestServerError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
