import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The `Date` header's value (IMF-fixdate, RFC 9110 §5.6.7), formatted at most once a second,
/// for the responses sent without Hummingbird (which dates its own).
enum HTTPDate {
    private static let cache = Mutex<(second: Int, text: String)>((-1, ""))
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func now() -> String {
        var now = time(nil)
        return cache.withLock { cached in
            if cached.second == Int(now) { return cached.text }
            cached = (Int(now), format(&now))
            return cached.text
        }
    }

    /// Fixed English names and GMT whatever the locale, as the format requires.
    static func format(_ seconds: inout time_t) -> String {
        var utc = tm()
        guard gmtime_r(&seconds, &utc) != nil else { return "Thu, 01 Jan 1970 00:00:00 GMT" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(utc.tm_wday)]), \(two(utc.tm_mday)) \(months[Int(utc.tm_mon)]) \(utc.tm_year + 1900) "
            + "\(two(utc.tm_hour)):\(two(utc.tm_min)):\(two(utc.tm_sec)) GMT"
    }
}
