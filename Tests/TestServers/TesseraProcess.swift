import Foundation

/// Runs the real `tessera` binary, as users and CI do, each run with an empty build cache of its own.
public enum TesseraProcess {
    public static var executable: String { ServeProcess.executable }

    public typealias Result = ServeProcess.Result

    /// The environment with an empty build cache of the process' own (removed by the caller), so
    /// that no test sees another's (or an earlier run's) cached results.
    public static func isolatedEnvironment() -> (environment: [String: String], cache: String) {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cli-cache-\(UUID().uuidString)").path
        var environment = ProcessInfo.processInfo.environment
        environment["TESSERA_CACHE_DIR"] = cache
        return (environment, cache)
    }

    /// `environment`: variables set on top of the isolated environment.
    public static func run(_ arguments: [String], environment extra: [String: String] = [:], addressSpaceLimit: Int? = nil) throws -> Result {
        var (environment, cache) = isolatedEnvironment()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        environment.merge(extra) { $1 }
        return try ServeProcess.run(arguments, environment: environment, addressSpaceLimit: addressSpaceLimit)
    }

    /// The same, awaited: the run waits on a thread of its own, so a test that runs `tessera`
    /// for a minute does not hold one of the cooperative pool's threads (two on a two-core
    /// machine) meanwhile, which would stall every other test's async work, gRPC deadlines and
    /// in-process builds included.
    public static func run(_ arguments: [String], environment extra: [String: String] = [:], addressSpaceLimit: Int? = nil) async throws -> Result {
        try await OwnThread.run { try run(arguments, environment: extra, addressSpaceLimit: addressSpaceLimit) }
    }
}
