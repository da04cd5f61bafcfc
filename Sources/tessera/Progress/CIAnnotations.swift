import Foundation
import Pipeline
import TesseraCore

/// A build's problems where the CI shows them beside the files: GitHub Actions workflow commands
/// (`::error file=…::…`, when `GITHUB_ACTIONS=true`) and a GitLab Code Quality report
/// (`OUTPUT/gl-code-quality-report.json`, when `GITLAB_CI=true`; docs/ci.md shows the artifact).
enum CIAnnotations {
    /// Prints GitHub's commands and writes GitLab's report, as the environment asks. `scope`:
    /// against a previous build, only problems on files it did not have with these bytes are
    /// annotated, and the others are one notice with their count (`ProblemNovelty`).
    static func emit(_ problems: [BuildProblem], output: String, scope: AnnotationScope = .all,
                     environment: [String: String] = ProcessInfo.processInfo.environment) {
        let github = environment["GITHUB_ACTIONS"] == "true", gitlab = environment["GITLAB_CI"] == "true"
        guard github || gitlab else { return }
        let novelty = scope.split(problems)
        if github {
            let workspace = environment["GITHUB_WORKSPACE"]
            for problem in novelty.new { print(githubCommand(problem, workspace: workspace)) }
            if let notice = scope.notice(novelty) { print("::notice title=Tessera::\(escapeData(notice))") }
        }
        if gitlab {
            let workspace = environment["CI_PROJECT_DIR"]
            try? AtomicFile.write(Array(gitlabReport(novelty.new, workspace: workspace).utf8), to: "\(output)/gl-code-quality-report.json")
        }
    }

    /// `path`, `path:line` or `path:line:column` (a pipeline file's location), split.
    static func location(_ file: String) -> (path: String, line: Int?, column: Int?) {
        BuildProblem.location(of: file)
    }

    /// The path as the CI's checkout names it (relative to its workspace when inside it).
    static func relative(_ path: String, to workspace: String?) -> String {
        guard let workspace, !workspace.isEmpty else { return path }
        let root = workspace.hasSuffix("/") ? String(workspace.dropLast()) : workspace
        return path.hasPrefix(root + "/") ? String(path.dropFirst(root.count + 1)) : path
    }

    static func githubCommand(_ problem: BuildProblem, workspace: String?) -> String {
        let place = location(problem.file)
        var properties = ["file=\(escapeProperty(relative(place.path, to: workspace)))"]
        if let line = place.line { properties.append("line=\(line)") }
        if let column = place.column { properties.append("col=\(column)") }
        properties.append("title=\(escapeProperty("Tessera \(problem.stage)"))")
        let command = problem.severity == .error ? "error" : "warning"
        return "::\(command) \(properties.joined(separator: ","))::\(escapeData(problem.reason))"
    }

    /// GitHub's escaping of a command's message.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// GitHub's escaping of a command's property value.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    static func gitlabReport(_ problems: [BuildProblem], workspace: String?) -> String {
        struct Issue: Encodable {
            struct Lines: Encodable { let begin: Int }
            struct Location: Encodable {
                let path: String
                let lines: Lines
            }
            let description: String
            let check_name: String
            let fingerprint: String
            let severity: String
            let location: Location
        }
        let issues = problems.map { problem in
            let place = location(problem.file)
            let path = relative(place.path, to: workspace)
            return Issue(description: problem.reason, check_name: "tessera-\(problem.stage)",
                         fingerprint: ContentHash.of(Array("\(path)\n\(problem.stage)\n\(problem.reason)".utf8)).hex,
                         severity: problem.severity == .error ? "major" : "minor",
                         location: Issue.Location(path: path, lines: Issue.Lines(begin: place.line ?? 1)))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(issues)) ?? Data("[]".utf8), as: UTF8.self) + "\n"
    }
}
