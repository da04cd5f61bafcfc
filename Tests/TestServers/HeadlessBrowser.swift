import Foundation

/// Debian's Chromium, headless, opening a page as a person would (`Tests/Browser/open_page.py`
/// drives it over the DevTools protocol): what the console said, what was requested, whether
/// each picture decoded, the values of expressions run in the page, and where Tab moved the focus.
public enum HeadlessBrowser {
    /// Where Chromium is: `$CHROMIUM`, or Debian's.
    public static var executable: String? {
        let candidates = [ProcessInfo.processInfo.environment["CHROMIUM"], "/usr/bin/chromium", "/usr/bin/chromium-browser"]
        return candidates.compactMap { $0 }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// `Tests/Browser/open_page.py`, beside this file's folder.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/open_page.py").path

    public struct Image: Decodable, Sendable {
        public var alt: String
        public var decoded: Bool
    }

    /// What one visit saw.
    public struct Visit: Decodable, Sendable {
        /// Console errors and warnings, uncaught exceptions, browser log errors (CSP, failed loads).
        public var console: [String]
        /// URLs requested besides the page itself and `data:` URLs.
        public var requests: [String]
        public var images: [Image]
        /// Each expression's value, as JSON (strings, numbers, arrays).
        public var evals: [String: JSONValue]
        public var focus: [String]
    }

    /// A JSON value an expression returned.
    public enum JSONValue: Decodable, Sendable, Equatable {
        case string(String), number(Double), bool(Bool), array([JSONValue]), null, other

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let value = try? container.decode(String.self) { self = .string(value) }
            else if let value = try? container.decode(Double.self) { self = .number(value) }
            else if let value = try? container.decode(Bool.self) { self = .bool(value) }
            else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
            else { self = .other }
        }

        public var string: String? { if case .string(let value) = self { value } else { nil } }
        public var number: Double? { if case .number(let value) = self { value } else { nil } }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Opens `page` (a local file). `evaluate`: named expressions, run in order after the load
    /// (a promise is awaited), so later ones see what earlier ones clicked.
    public static func open(_ page: String, evaluate: [(String, String)] = [], tabs: Int = 0,
                            screenshot: String? = nil, darkScreenshot: String? = nil) throws -> Visit {
        guard let chromium = executable else {
            throw Failure(description: "Chromium is not installed (scripts/ensure-system-packages.sh installs Debian's chromium)")
        }
        var arguments = [script, page, "--tabs", String(tabs)]
        for (name, expression) in evaluate { arguments += ["--eval", "\(name)=\(expression)"] }
        if let screenshot { arguments += ["--screenshot", screenshot] }
        if let darkScreenshot { arguments += ["--dark-screenshot", darkScreenshot] }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["CHROMIUM": chromium]) { $1 }
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("open-page-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw Failure(description: "open_page.py exited \(process.terminationStatus): \(message)")
        }
        return try JSONDecoder().decode(Visit.self, from: data)
    }
}
