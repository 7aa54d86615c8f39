/// How every duration is written, in one place: a field's value ("25 min", "1 min 30 s"), the
/// error texts' bounds ("At least 30 s"), and what the GTK app shows of its focus timer (the
/// settings, the notification, the timer's spoken text) all come from `Strings.duration`; the
/// timer's running clock face ("24:59") from `Strings.countdown`. No front formats a duration.
extension Strings {
    /// **Decision (issue 20):** one format for every duration, units written out: the hours when
    /// there are any, then the minutes (two digits after hours), then — for a field with a seconds
    /// wheel — the seconds when there are any (two digits after a larger unit):
    /// "25 min", "1 h 05 min", "1 min 30 s", "30 s", "1 h 00 min 05 s"; in Japanese "25分",
    /// "1時間05分", "1分30秒", "30秒". A field without a seconds wheel never shows seconds (its
    /// values are whole minutes); with one, nothing at all is "0 s". Negative values count as 0.
    public func duration(_ seconds: Int, withSeconds: Bool) -> String {
        let value = Swift.max(0, seconds)
        let hours = value / 3600
        let minutes = (value % 3600) / 60
        let secs = withSeconds ? value % 60 : 0
        let (h, m, s) = japanese ? ("時間", "分", "秒") : (" h", " min", " s")
        let gap = japanese ? "" : " "
        var text: String
        if hours > 0 {
            text = "\(hours)\(h)\(gap)\(twoDigits(minutes))\(m)"
        } else if minutes > 0 || !withSeconds {
            text = "\(minutes)\(m)"
        } else {
            return "\(secs)\(s)"
        }
        if secs > 0 { text += "\(gap)\(twoDigits(secs))\(s)" }
        return text
    }

    /// A countdown's clock face, as GNOME Clocks shows a timer: "25:00", "04:59", "00:00", and
    /// "1:05:00" from an hour up (negative values count as 0). The same in every language.
    public static func countdown(_ seconds: Int) -> String {
        let value = Swift.max(0, seconds)
        let hours = value / 3600
        let minutes = (value % 3600) / 60
        let secs = value % 60
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs))" : "\(two(minutes)):\(two(secs))"
    }
}
