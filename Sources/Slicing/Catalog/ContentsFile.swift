import Foundation

/// Reading a Contents.json from disk: inside the input folder only, and a JSON object at the top.
enum ContentsFile {
    /// The top of the Contents.json at `path` (named `file` in problems); nil, with the problem
    /// reported, when it cannot be read. A missing file is a problem only when `required` (a
    /// group folder needs none).
    static func read(_ path: String, file: String, boundary: InputBoundary, required: Bool,
                     problems: inout [CatalogProblem]) -> ContentsField? {
        let top = ContentsField(file: file, key: "", value: nil)
        if FileManager.default.fileExists(atPath: path), !boundary.contains(path) {
            problems.append(top.problem("a link to a file outside the input folder; not read"))
            return nil
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            if required { problems.append(top.problem("missing Contents.json")) }
            return nil
        }
        do {
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                problems.append(top.problem("the top level is not a JSON object"))
                return nil
            }
            return ContentsField(file: file, key: "", value: object)
        } catch {
            problems.append(top.problem("malformed JSON: \(error.localizedDescription)"))
            return nil
        }
    }
}
