import Delivery
import Foundation
import Pipeline
import TestSupport
import Testing
import TesseraCore

/// Checks a JSON value against the subset of JSON Schema that `docs/manifest.schema.json` uses:
/// object properties, required keys, no additional keys, array items, $ref, enum, const, types.
struct SchemaChecker {
    let root: [String: Any]

    func check(_ value: Any, against schema: [String: Any], at path: String, problems: inout [String]) {
        if let reference = schema["$ref"] as? String {
            let name = reference.replacingOccurrences(of: "#/$defs/", with: "")
            guard let definitions = root["$defs"] as? [String: Any], let target = definitions[name] as? [String: Any] else {
                problems.append("\(path): unresolved \(reference)")
                return
            }
            check(value, against: target, at: path, problems: &problems)
            return
        }
        if let options = schema["enum"] as? [String], !options.contains(value as? String ?? "\u{0}") {
            problems.append("\(path): \(value) is not one of \(options)")
        }
        if let constant = schema["const"] as? Int, value as? Int != constant {
            problems.append("\(path): expected \(constant)")
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                problems.append("\(path): missing required '\(key)'")
            }
            for (key, child) in object {
                guard let childSchema = properties[key] as? [String: Any] else {
                    if schema["additionalProperties"] as? Bool == false { problems.append("\(path): undocumented key '\(key)'") }
                    continue
                }
                check(child, against: childSchema, at: "\(path).\(key)", problems: &problems)
            }
        } else if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (index, item) in array.enumerated() { check(item, against: items, at: "\(path)[\(index)]", problems: &problems) }
        }
    }
}

@Suite("Manifest schema")
struct ManifestSchemaTests {
    @Test("manifest.json of a packed build matches docs/manifest.schema.json, key for key")
    func manifestMatchesSchema() async throws {
        let workspace = try Workspace()
        try workspace.add("animated/sdwebimage/TestImage.gif", as: "anim/spinner@2x.gif")
        try workspace.add("png/pngsuite/basn6a08.png", as: "donut/ring@2x.png")  // marked for ready bitmaps
        try FileManager.default.copyItem(atPath: "\(Workspace.corpus)/xcassets/tutsplus-odr/Assets.xcassets",
                                         toPath: "\(workspace.input)/ODR.xcassets")
        let definition = try PipelineFileReader.read(path: "\(Workspace.packageRoot)/Pipelines/samples.yml")
        let outcome = try await PipelineRunner.run(BuildRequest(definition: definition, inputFolder: workspace.input,
                                                                outputFolder: "\(workspace.root)/out"))
        #expect(outcome.exitStatus == 0)
        let schema = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: "\(Workspace.packageRoot)/docs/manifest.schema.json"))) as? [String: Any])
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: outcome.manifestPath)))
        var problems: [String] = []
        SchemaChecker(root: schema).check(manifest, against: schema, at: "$", problems: &problems)
        #expect(problems.isEmpty, "\(problems)")
        // The build exercised every part of the schema.
        let text = try String(contentsOfFile: outcome.manifestPath, encoding: .utf8)
        for key in ["\"animation\"", "\"readyBitmap\"", "\"packs\"", "\"bundles\"", "\"deviceClasses\"", "\"priority\""] {
            let present = text.contains(key)
            #expect(present, "\(key) not exercised")
        }
    }
}
