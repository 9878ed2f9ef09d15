//! C `printf` formats: what each conversion of a format reads, so that a
//! tasklet's `printf(format, ...)` is checked against its arguments and its
//! lowering converts each argument to the C type the format expects.

/// The C type a `printf` conversion reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reads {
    /// `int` (`%d`, `%x`, `%c`, a `*` width, ...).
    Int,
    /// A 64-bit integer (`%ld`, `%lld`, `%zu`, ...).
    Long,
    /// `double` (`%f`, `%e`, `%g`, `%a`).
    Double,
}

impl Reads {
    /// The MLIR type of the C type.
    pub fn mlir(self) -> &'static str {
        match self {
            Reads::Int => "i32",
            Reads::Long => "i64",
            Reads::Double => "f64",
        }
    }
}

/// What each argument of `format` is read as, in order; an error names a
/// conversion that cannot print a number (the dialect's verifier rejects
/// those already).
pub fn conversions(format: &str) -> std::result::Result<Vec<Reads>, String> {
    let chars: Vec<char> = format.chars().collect();
    let mut reads = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            i += 1;
            continue;
        }
        i += 1;
        if chars.get(i) == Some(&'%') {
            i += 1;
            continue;
        }
        while chars.get(i).is_some_and(|c| "-+ #0'".contains(*c)) {
            i += 1;
        }
        for part in 0..2 {
            if part == 1 {
                if chars.get(i) != Some(&'.') {
                    break;
                }
                i += 1;
            }
            if chars.get(i) == Some(&'*') {
                reads.push(Reads::Int);
                i += 1;
            }
            while chars.get(i).is_some_and(char::is_ascii_digit) {
                i += 1;
            }
        }
        let length_start = i;
        while chars.get(i).is_some_and(|c| "hljztL".contains(*c)) {
            i += 1;
        }
        let wide = chars[length_start..i]
            .iter()
            .any(|c| matches!(c, 'l' | 'j' | 'z' | 't'));
        match chars.get(i) {
            Some('d' | 'i' | 'o' | 'u' | 'x' | 'X' | 'c') => {
                reads.push(if wide { Reads::Long } else { Reads::Int })
            }
            Some('f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A') => reads.push(Reads::Double),
            other => {
                return Err(format!(
                    "format {format:?} has a conversion ending in {other:?}, which cannot print a number"
                ))
            }
        }
        i += 1;
    }
    Ok(reads)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_read_ints_longs_and_doubles() {
        use Reads::*;
        assert_eq!(conversions("hello world %f\n"), Ok(vec![Double]));
        assert_eq!(
            conversions("%d %5.2f %ld %llu %zx %% %-*.*e %c"),
            Ok(vec![Int, Double, Long, Long, Long, Int, Int, Double, Int])
        );
        assert_eq!(conversions("100%%"), Ok(vec![]));
        assert!(conversions("%s").is_err());
        assert!(conversions("%p").is_err());
        assert!(conversions("%n").is_err());
        assert!(conversions("ends in %").is_err());
    }
}
