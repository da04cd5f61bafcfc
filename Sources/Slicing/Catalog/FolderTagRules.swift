import Foundation
import TesseraCore
import YAMLReading
import Yams

/// The input folder's `tessera.yml`: globs over asset names mapped to on-demand tags, for every
/// asset of the input (plain-folder files and catalog sets alike; `TagRules`). It is read
/// through the pipeline file's YAML reader, so every problem names its line and column
/// (`tessera.yml:3:5`) and the key (`tags.levels/**`). The file is optional, and forgiving as
/// before: a wrong entry is reported and left out, the rest still apply.
struct FolderTagRules {
    static let fileName = "tessera.yml"

    /// In file order; a glob whose tags are all invalid is kept with none.
    private(set) var rules = TagRules()

    /// Reads `root/tessera.yml`; no file (or one that is not UTF-8 text, or not a mapping) is no rules.
    init(root: String, problems: inout [CatalogProblem]) {
        guard let data = FileManager.default.contents(atPath: "\(root)/\(Self.fileName)"),
              let text = String(data: data, encoding: .utf8) else { return }
        let node: Node?
        do {
            node = try YAMLDocument.compose(text, file: Self.fileName)
        } catch {
            problems.append(CatalogProblem(isError: true, file: error.location, key: nil,
                                           reason: "not valid YAML: \(error.problem)"))
            return
        }
        guard let node, let top = node.mapping else { return }
        let document = YAMLValue(node: node, file: Self.fileName, keyPath: "", stage: .catalog)
        for (key, value) in top {
            guard key.string == "tags" else {
                problems.append(document.at(key, keyPath: key.string ?? "").problem("unknown key", isError: false))
                continue
            }
            guard let mapping = value.mapping else {
                problems.append(document.at(value, keyPath: "tags").problem("expected a mapping of globs to tag lists"))
                continue
            }
            for (glob, tags) in mapping {
                let keyPath = "tags.\(glob.string ?? "?")"
                guard let pattern = glob.string, let items = tags.sequence else {
                    problems.append(document.at(tags, keyPath: keyPath).problem("expected a list of tags"))
                    continue
                }
                var valid: [String] = []
                // Items that are not scalars (a nested list) are passed over, as they always were.
                for item in items {
                    guard let tag = item.string else { continue }
                    if let problem = OnDemandTag.problem(with: tag) {
                        problems.append(document.at(item, keyPath: keyPath).problem(problem))
                    } else {
                        valid.append(tag)
                    }
                }
                rules.rules.append(TagRules.Rule(glob: pattern, tags: valid,
                                                 origin: document.at(glob, keyPath: keyPath).location))
            }
        }
    }
}

extension YAMLValue {
    /// A catalog problem at this value: the file is `file:line:column`, the key its key path.
    func problem(_ reason: String, isError: Bool = true) -> CatalogProblem {
        CatalogProblem(isError: isError, file: location, key: keyPath.isEmpty ? nil : keyPath, reason: reason)
    }
}
