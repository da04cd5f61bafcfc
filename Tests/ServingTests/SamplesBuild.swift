import Foundation
import TestServers

/// The Samples folder built once per test run with `tessera run Pipelines/app-thinning.yml`, its
/// untagged sets in a base pack (`untagged: pack`): the serving tests want bundles of every size,
/// a base bundle over 128 KiB among them.
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
            let log = "\(output).log", pipeline = "\(output).yml"
            let shipped = try String(contentsOfFile: "\(ServeProcess.packageRoot)/Pipelines/app-thinning.yml", encoding: .utf8)
            try shipped.replacingOccurrences(of: "    untagged: app ", with: "    untagged: pack ")
                .write(toFile: pipeline, atomically: true, encoding: .utf8)
            let status = try await ServeProcess.runDetached(["run", pipeline,
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
