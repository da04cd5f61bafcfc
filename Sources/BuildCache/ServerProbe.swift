import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a cache server can be reached at all, asked once per run before its first request:
/// a name that does not resolve or a connection refused is known at once, where the HTTP client
/// would retry each request's connection until its timeout.
package enum ServerProbe {
    /// Why `url`'s host and port cannot be connected to, or nil when a TCP connection opens (or
    /// the answer is not known within `timeout`: a slow network is left to the requests' own
    /// timeouts).
    package static func problem(reaching url: URL, timeout: TimeInterval) -> String? {
        guard let host = url.host, !host.isEmpty else { return "no host in the URL" }
        let port = url.port ?? (url.scheme == "https" ? 443 : 80)
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, String(port), &hints, &found)
        guard resolved == 0, let first = found else { return "cannot resolve \(host): \(String(cString: gai_strerror(resolved)))" }
        defer { freeaddrinfo(first) }
        var lastProblem: String?
        var address: UnsafeMutablePointer<addrinfo>? = first
        while let current = address {
            switch connect(current.pointee, timeout: timeout) {
            case .connected, .undecided: return nil
            case .refused(let reason): lastProblem = reason
            }
            address = current.pointee.ai_next
        }
        return lastProblem
    }

    private enum Outcome {
        case connected, undecided
        case refused(String)
    }

    private static func connect(_ info: addrinfo, timeout: TimeInterval) -> Outcome {
        let socket = Glibc.socket(info.ai_family, info.ai_socktype | Int32(SOCK_NONBLOCK.rawValue), info.ai_protocol)
        guard socket >= 0 else { return .undecided }
        defer { close(socket) }
        if Glibc.connect(socket, info.ai_addr, info.ai_addrlen) == 0 { return .connected }
        guard errno == EINPROGRESS else { return .refused(String(cString: strerror(errno))) }
        var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
        let ready = poll(&poller, 1, Int32(min(timeout, 5) * 1000))
        guard ready > 0 else { return .undecided }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
        return error == 0 ? .connected : .refused(String(cString: strerror(error)))
    }
}
