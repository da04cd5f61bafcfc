import BuildCache
import Foundation

extension RemoteCache {
    /// A remote cache on a Remote Execution API server (`--remote-cache grpc://…`): one
    /// connection, its calls timing out after `timeout` seconds. Throws when the endpoint's
    /// settings are unusable (an unreadable CA file); a server that cannot be reached is a
    /// warning at the first lookup, as on HTTP.
    package static func reapi(_ endpoint: RemoteEndpoint, readOnly: Bool = false, timeout: TimeInterval = 10,
                              inlineLimit: Int = 64 << 10, storesPacks: Bool = true,
                              authentication: EntryAuthentication? = nil) throws(RemoteCallError) -> RemoteCache {
        let connection = try RemoteConnection(endpoint: endpoint, timeout: .milliseconds(Int64((timeout * 1000).rounded())))
        let transport = REAPITransport(connection: connection)
        return RemoteCache(transport: transport, base: URL(string: transport.address) ?? URL(fileURLWithPath: "/"),
                           readOnly: readOnly, timeout: timeout, inlineLimit: inlineLimit, storesPacks: storesPacks,
                           authentication: authentication)
    }
}
