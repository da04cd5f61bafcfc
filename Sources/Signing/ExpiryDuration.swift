import Foundation
import TesseraCore

/// `--expires` values: a number and a unit, `s`, `m`, `h`, `d` or `w` (`90d`, `12h`).
public enum ExpiryDuration {
    public static func seconds(_ text: String) throws(TesseraError) -> TimeInterval {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Int(text.dropLast()), count > 0 else {
            throw TesseraError(.configuration, origin: .publish,
                               reason: "'\(text)' is not a duration: a positive number and s, m, h, d or w (90d, 12h)")
        }
        return TimeInterval(count) * unit
    }
}
