import BuildOptions
import Testing
import TesseraCore

/// The option table's readers on the command line's spelling: the same checks and words as the
/// pipeline file's.
@Suite("Option parsers")
struct OptionParserTests {
    @Test("whole numbers are checked against the option's range, with one message for every reader")
    func integers() throws {
        let level = OptionTable.Encode.pngLevel
        #expect(try level.parser.parse(argument: "12") == 12)
        let out = #expect(throws: OptionError.self) { try level.parser.parse(argument: "13") }
        #expect(out?.description == "13 is out of range 0…12")
        let word = #expect(throws: OptionError.self) { try level.parser.parse(argument: "max") }
        #expect(word?.description == "expected a whole number, found 'max'")
    }

    @Test("sizes, choices and lists read as the pipeline file reads them")
    func textAndLists() throws {
        #expect(try OptionTable.Downscale.memoryBudget.parser.parse(argument: "32MiB") == 32 << 20)
        #expect(try OptionTable.Encode.jpegChroma.parser.parse(argument: "4:4:4") == .s444)
        #expect(throws: OptionError.self) { try OptionTable.Encode.jpegChroma.parser.parse(argument: "4:1:1") }
        #expect(try OptionTable.Pack.prefetchOrder.parser.parse(argument: "Blue,Red") == ["Blue", "Red"])
        let twice = #expect(throws: OptionError.self) { try OptionTable.Pack.prefetchOrder.parser.parse(argument: "Red,Red") }
        #expect(twice?.description == "a tag is listed twice")
    }

    @Test("every option belongs to its section, once, under a unique name, with help and a default text or none")
    func tableIsWellFormed() {
        for section in OptionSection.allCases {
            let names = section.options.map(\.name)
            #expect(Set(names).count == names.count, "\(section.rawValue) repeats a name")
            #expect(section.options.allSatisfy { $0.section == section && !$0.help.isEmpty })
        }
        #expect(OptionTable.all.count == OptionSection.allCases.reduce(0) { $0 + $1.options.count })
    }
}
