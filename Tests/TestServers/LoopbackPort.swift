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

    /// Whether `process`, or a process it started, listens on 127.0.0.1:`port`.
    ///
    /// A bare connect is not enough: between `free()` and the server's bind, another test's server
    /// can take the port, and the server then exits while the probe sees the other one listening (a
    /// gRPC client then waits its whole deadline on an HTTP server). On Linux the listening socket's
    /// inode is looked up in /proc/net/tcp and must be among the process tree's open files.
    public static func isListening(_ port: Int, by process: Process) -> Bool {
        guard isListening(port) else { return false }
        guard let inodes = listeningInodes(port) else { return process.isRunning }
        let owners = processTree(Int(process.processIdentifier))
        return owners.contains { pid in
            let fdFolder = "/proc/\(pid)/fd"
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: fdFolder)) ?? []
            return fds.contains { fd in
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fdFolder)/\(fd)"),
                      target.hasPrefix("socket:[") else { return false }
                return inodes.contains(String(target.dropFirst(8).dropLast()))
            }
        }
    }

    /// The inodes of sockets listening on `port` (state 0A in /proc/net/tcp, or tcp6: gRPC C++
    /// binds 127.0.0.1 as a v4-mapped IPv6 socket); nil without /proc.
    private static func listeningInodes(_ port: Int) -> Set<String>? {
        let tables = ["/proc/net/tcp", "/proc/net/tcp6"].compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }
        guard !tables.isEmpty else { return nil }
        let portHex = String(format: ":%04X", port)
        var inodes = Set<String>()
        for line in tables.flatMap({ $0.split(separator: "\n").dropFirst() }) {
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[1].hasSuffix(portHex), fields[3] == "0A" else { continue }
            inodes.insert(String(fields[9]))
        }
        return inodes
    }

    /// `pid` and its descendants (a server started through runuser or a wrapper listens in a
    /// child), from each process's parent in /proc/<pid>/stat.
    private static func processTree(_ pid: Int) -> [Int] {
        var childrenOf: [Int: [Int]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = Int(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (comm)": state, then the parent's pid. comm may hold spaces and parentheses.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = Int(fields[1]) { childrenOf[parent, default: []].append(child) }
        }
        var tree = [pid]
        var index = 0
        while index < tree.count {
            tree += childrenOf[tree[index]] ?? []
            index += 1
        }
        return tree
    }

    /// Polls until `process` (or a child of it) accepts connections on `port`, `process` has
    /// exited, or `timeout` has passed.
    public static func waitUntilListening(_ port: Int, process: Process, timeout: TimeInterval,
                                          name: String, log: URL?) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if isListening(port, by: process) { return }
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
