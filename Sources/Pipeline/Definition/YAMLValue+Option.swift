import BuildOptions
import TesseraCore
import YAMLReading

extension YAMLValue {
    /// Reads this value as `option` declares it: numbers and booleans by YAML's rules, words and
    /// list items as strings, each checked by the option's own parser. An error is located at the
    /// value, or at the list item at fault.
    func read<Value>(_ option: OptionSpec<Value>) throws(TesseraError) -> Value {
        switch option.parser {
        case .integer(let range, let make):
            return make(try int(in: range))
        case .boolean(let make):
            return make(try bool())
        case .text(let parse):
            let text = try string()
            do throws(OptionError) {
                return try parse(text)
            } catch {
                throw self.error(error.reason)
            }
        case .list(let parse):
            let items = try list()
            var words: [String] = []
            for item in items { words.append(try item.string()) }
            do throws(OptionError) {
                return try parse(words)
            } catch {
                throw (error.item.map { items[$0] } ?? self).error(error.reason)
            }
        }
    }
}
