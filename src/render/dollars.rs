//! Amounts of money as the CLI and the page write them (`www/views/stats.js`
//! has the page's twin): three significant digits below a cent, cents above.

/// `$0.0000103`, `$0.000402`, `$1.50`, `-$0.25`: two to ten decimals.
pub fn dollars(x: f64) -> String {
    if x < 0.0 {
        return format!("-{}", dollars(-x));
    }
    let decimals = if x == 0.0 || !x.is_finite() { 2 } else { (2 - x.log10().floor() as i64).clamp(2, 10) as usize };
    let s = format!("{x:.decimals$}");
    let trimmed = s.trim_end_matches('0');
    let decimals = trimmed.split_once('.').map_or(0, |(_, d)| d.len());
    format!("${}{}", trimmed, "0".repeat(2usize.saturating_sub(decimals)))
}

#[cfg(test)]
mod tests {
    use super::dollars;

    #[test]
    fn three_digits_below_a_cent_cents_above() {
        assert_eq!(dollars(0.0000103), "$0.0000103");
        assert_eq!(dollars(0.000402), "$0.000402");
        assert_eq!(dollars(1.5), "$1.50");
        assert_eq!(dollars(0.0), "$0.00");
        assert_eq!(dollars(-0.25), "-$0.25");
        assert_eq!(dollars(12.0), "$12.00");
    }
}
