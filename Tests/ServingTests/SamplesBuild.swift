import Foundation
import TestServers

/// The Samples folder built once per test run with `tessera run Pipelines/app-thinning.yml`.
///
/// Built asynchronously (the process is awaited, not waited for), so the tests that need it do
/// not hold the few cooperative threads other suites run on while it builds.
actor SamplesBuild {
    static let shared = SamplesBuild()
    private var build: Task<String, Error>?

    /// `TESSERA_SAMPLES_BUILD` names an existing build of Samples to reuse (a debug build of it takes
    /// a minute or two); without it the tests build one.
    static func get() async throws -> String {
        if let given = ProcessInfo.processInfo.environment["TESSERA_SAMPLES_BUILD"] { return given }
        return try await shared.folder()
    }

    private func folder() async throws -> String {
        if let build { return try await build.value }
        let task = Task {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-samples-\(UUID().uuidString)").path
            let log = "\(output).log"
            let status = try await ServeProcess.runDetached(["run", "\(ServeProcess.packageRoot)/Pipelines/app-thinning.yml",
                                                              "--input", "\(ServeProcess.packageRoot)/Samples", "--output", output,
                                                              "--progress", "plain", "--no-cache"], log: log)
            guard status == 0 else {
                let tail = (try? String(contentsOfFile: log, encoding: .utf8)).map { String($0.suffix(2000)) } ?? ""
                throw TestServerError("building Samples failed with status \(status): \(tail)")
            }
            return output
        }
        build = task
        return try await task.value
    }
}
