/// Takes an image's rows top to bottom as a producer makes them (a downscale pass handing its
/// rows to an encoder), so that the whole image never has to exist at once.
///
/// Rows are RGBA8, tightly packed, in the producer's alpha convention. The producer asks for a
/// row's storage, writes `width * 4` bytes there, then says the row is done; rows come in order.
public protocol ImageRowSink: AnyObject {
    /// Where row `y` is to be written; valid until `finishRow(y)`.
    func rowStorage(_ y: Int) -> UnsafeMutablePointer<UInt8>
    /// Row `y` is complete in the storage `rowStorage(y)` gave.
    func finishRow(_ y: Int)
}
