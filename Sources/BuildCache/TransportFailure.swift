/// A cache request that failed, in the words the run's one warning uses, and whether the server
/// should not be asked again this run (it sent more than an answer can be, dripped its answer,
/// or cannot be used at all).
package struct TransportFailure: Error, Sendable {
    package var text: String
    package var giveUp: Bool

    package init(_ text: String, giveUp: Bool = false) {
        self.text = text
        self.giveUp = giveUp
    }
}
