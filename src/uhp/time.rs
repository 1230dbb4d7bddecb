//! UHP times: `hh:mm:ss` with an optional fraction of a second (`00:00:00.5000000` is what .NET sends).

use std::time::Duration;

/// Parse `hh:mm:ss[.fraction]`; `None` for anything else.
pub fn parse_time(text: &str) -> Option<Duration> {
    let mut parts = text.split(':');
    let (Some(h), Some(m), Some(s), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return None;
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let (whole, fraction) = s.split_once('.').unwrap_or((s, ""));
    if !digits(h) || !digits(m) || !digits(whole) || !(fraction.is_empty() || digits(fraction)) {
        return None;
    }
    let (hours, minutes, seconds): (u64, u64, u64) = (h.parse().ok()?, m.parse().ok()?, whole.parse().ok()?);
    if hours > 1000 || minutes >= 60 || seconds >= 60 || (s.contains('.') && fraction.is_empty()) {
        return None;
    }
    // Nanoseconds from the first nine digits of the fraction; the rest cannot be represented.
    let nanos = format!("{:0<9}", &fraction[..fraction.len().min(9)])
        .parse::<u32>()
        .ok()?;
    Some(Duration::new(hours * 3600 + minutes * 60 + seconds, nanos))
}

/// Write `time` as `hh:mm:ss`, with a seven-digit fraction only when the time has one (nokamute, the most used
/// open engine, refuses fractions). Sub-100 ns parts are rounded up so that a time never reads shorter than it is.
pub fn format_time(time: Duration) -> String {
    let ticks = time.as_nanos().div_ceil(100);
    let (seconds, fraction) = (ticks / 10_000_000, ticks % 10_000_000);
    let clock = format!("{:02}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60);
    if fraction == 0 {
        clock
    } else {
        format!("{clock}.{fraction:07}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_parse_and_print() {
        assert_eq!(parse_time("00:00:05"), Some(Duration::from_secs(5)));
        assert_eq!(parse_time("00:00:00.5000000"), Some(Duration::from_millis(500)));
        assert_eq!(parse_time("01:02:03.25"), Some(Duration::from_millis(3_723_250)));
        for bad in [
            "5",
            "00:00",
            "00:60:00",
            "00:00:60",
            "-1:00:00",
            "00:00:1e3",
            "00:00:00.",
            "a:b:c",
            "00:00:05:00",
        ] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
        assert_eq!(format_time(Duration::from_secs(5)), "00:00:05");
        assert_eq!(format_time(Duration::from_millis(100)), "00:00:00.1000000");
        assert_eq!(format_time(Duration::from_secs(3723)), "01:02:03");
        for ms in [1, 99, 1500, 61_001] {
            let time = Duration::from_millis(ms);
            assert_eq!(parse_time(&format_time(time)), Some(time));
        }
    }
}
