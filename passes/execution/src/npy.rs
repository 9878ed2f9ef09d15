//! NumPy's `.npy` format (versions 1 to 3): little-endian, C-order arrays
//! of numbers (complex ones included) and booleans.

use std::path::Path;

/// An element kind `.npy` files and SDFG containers share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// `bool` (one byte).
    Bool,
    /// Signed integers of 1, 2, 4 or 8 bytes.
    Int(usize),
    /// Unsigned integers of 1, 2, 4 or 8 bytes.
    Uint(usize),
    /// Floats of 2, 4 or 8 bytes.
    Float(usize),
    /// Complex numbers of 8 or 16 bytes (two floats: real, imaginary).
    Complex(usize),
}

impl Dtype {
    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            Dtype::Bool => 1,
            Dtype::Int(n) | Dtype::Uint(n) | Dtype::Float(n) | Dtype::Complex(n) => n,
        }
    }

    /// The kind of an element's scalar components and how many an element
    /// has: the two floats of a complex number, else the element itself.
    /// [`Dtype::get`] and [`Dtype::set`] index components.
    pub fn components(self) -> (Dtype, usize) {
        match self {
            Dtype::Complex(n) => (Dtype::Float(n / 2), 2),
            other => (other, 1),
        }
    }

    /// NumPy's `descr` (`<f8`, `|b1`, ...).
    pub fn descr(self) -> String {
        match self {
            Dtype::Bool => "|b1".into(),
            Dtype::Int(1) => "|i1".into(),
            Dtype::Uint(1) => "|u1".into(),
            Dtype::Int(n) => format!("<i{n}"),
            Dtype::Uint(n) => format!("<u{n}"),
            Dtype::Float(n) => format!("<f{n}"),
            Dtype::Complex(n) => format!("<c{n}"),
        }
    }

    /// Reads a `descr`; `None` for what this module does not handle
    /// (big-endian, strings, records).
    pub fn from_descr(descr: &str) -> Option<Dtype> {
        let (order, code) = descr.split_at(1);
        if !matches!(order, "<" | "|" | "=") {
            return None;
        }
        let (kind, size) = code.split_at(1);
        let size: usize = size.parse().ok()?;
        match (kind, size) {
            ("b", 1) => Some(Dtype::Bool),
            ("i", 1 | 2 | 4 | 8) => Some(Dtype::Int(size)),
            ("u", 1 | 2 | 4 | 8) => Some(Dtype::Uint(size)),
            ("f", 2 | 4 | 8) => Some(Dtype::Float(size)),
            ("c", 8 | 16) => Some(Dtype::Complex(size)),
            _ => None,
        }
    }

    /// Reads component `i` of `bytes` as a double (exact for the integers a
    /// double holds).
    pub fn get(self, bytes: &[u8], i: usize) -> f64 {
        if let Dtype::Complex(_) = self {
            return self.components().0.get(bytes, i);
        }
        let n = self.size();
        let b = &bytes[i * n..(i + 1) * n];
        let mut w = [0u8; 8];
        w[..n].copy_from_slice(b);
        match self {
            Dtype::Bool => (b[0] != 0) as u8 as f64,
            Dtype::Int(_) => {
                let shift = 64 - 8 * n as u32;
                ((i64::from_le_bytes(w) << shift) >> shift) as f64
            }
            Dtype::Uint(_) => u64::from_le_bytes(w) as f64,
            Dtype::Float(2) => half_to_f64(u16::from_le_bytes([b[0], b[1]])),
            Dtype::Float(4) => f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64,
            Dtype::Float(_) | Dtype::Complex(_) => f64::from_le_bytes(w),
        }
    }

    /// Writes `value` as component `i` of `bytes` (C's conversion: integers
    /// truncate towards zero and wrap).
    pub fn set(self, bytes: &mut [u8], i: usize, value: f64) {
        if let Dtype::Complex(_) = self {
            return self.components().0.set(bytes, i, value);
        }
        let n = self.size();
        let out = &mut bytes[i * n..(i + 1) * n];
        match self {
            Dtype::Bool => out[0] = (value != 0.0) as u8,
            Dtype::Int(_) => out.copy_from_slice(&(value as i64).to_le_bytes()[..n]),
            Dtype::Uint(_) => {
                let v = if value < 0.0 {
                    value as i64 as u64
                } else {
                    value as u64
                };
                out.copy_from_slice(&v.to_le_bytes()[..n]);
            }
            Dtype::Float(2) => out.copy_from_slice(&f64_to_half(value).to_le_bytes()),
            Dtype::Float(4) => out.copy_from_slice(&(value as f32).to_le_bytes()),
            Dtype::Float(_) | Dtype::Complex(_) => out.copy_from_slice(&value.to_le_bytes()),
        }
    }
}

fn half_to_f64(h: u16) -> f64 {
    let sign = if h >> 15 == 1 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1f) as i32;
    let frac = (h & 0x3ff) as f64;
    sign * match exp {
        0 => frac * 2f64.powi(-24),
        31 if frac == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + frac / 1024.0) * 2f64.powi(exp - 15),
    }
}

fn f64_to_half(v: f64) -> u16 {
    let bits = (v as f32).to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let frac = bits & 0x7f_ffff;
    if v.is_nan() {
        return sign | 0x7e00;
    }
    if exp >= 31 {
        return sign | 0x7c00;
    }
    if exp <= 0 {
        if exp < -10 {
            return sign;
        }
        let m = (frac | 0x80_0000) >> (14 - exp);
        return sign | m as u16;
    }
    sign | ((exp as u16) << 10) | (frac >> 13) as u16
}

/// An array read from or written to a `.npy` file.
#[derive(Clone, Debug, PartialEq)]
pub struct Array {
    /// Element kind.
    pub dtype: Dtype,
    /// Shape (empty for a 0-d array).
    pub shape: Vec<usize>,
    /// Elements in C order, little-endian.
    pub data: Vec<u8>,
}

impl Array {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Number of scalar components (twice the elements for complex
    /// numbers): what [`Dtype::get`] indexes.
    pub fn components(&self) -> usize {
        self.len() * self.dtype.components().1
    }

    /// Whether the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Parses the bytes of a `.npy` file.
    pub fn from_bytes(bytes: &[u8]) -> Result<Array, String> {
        if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
            return Err("not a .npy file (bad magic)".into());
        }
        let (header_len, start) = match bytes[6] {
            1 => (u16::from_le_bytes([bytes[8], bytes[9]]) as usize, 10),
            2 | 3 if bytes.len() >= 12 => (
                u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
                12,
            ),
            v => return Err(format!("unsupported .npy version {v}")),
        };
        let header = bytes
            .get(start..start + header_len)
            .ok_or("truncated .npy header")?;
        let header = std::str::from_utf8(header).map_err(|_| "the .npy header is not text")?;
        let field = |key: &str| -> Result<&str, String> {
            let at = header
                .find(&format!("'{key}'"))
                .ok_or_else(|| format!("the .npy header has no '{key}'"))?;
            let rest = &header[at + key.len() + 2..];
            Ok(rest.trim_start().trim_start_matches(':').trim_start())
        };
        let descr = field("descr")?;
        let descr = descr
            .strip_prefix('\'')
            .and_then(|d| d.split('\'').next())
            .ok_or("bad 'descr' in the .npy header")?;
        let dtype = Dtype::from_descr(descr)
            .ok_or_else(|| format!("unsupported .npy element type '{descr}'"))?;
        if field("fortran_order")?.starts_with("True") {
            return Err("Fortran-ordered .npy files are not supported".into());
        }
        let shape_text = field("shape")?;
        let shape_text = shape_text
            .strip_prefix('(')
            .and_then(|s| s.split(')').next())
            .ok_or("bad 'shape' in the .npy header")?;
        let shape = shape_text
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse::<usize>()
                    .map_err(|_| format!("bad dimension '{s}'"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let count: usize = shape.iter().product();
        let data = bytes
            .get(start + header_len..start + header_len + count * dtype.size())
            .ok_or("the .npy file holds fewer elements than its shape says")?
            .to_vec();
        Ok(Array { dtype, shape, data })
    }

    /// The bytes of a version-1 `.npy` file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let shape = match self.shape.as_slice() {
            [] => "()".to_string(),
            [n] => format!("({n},)"),
            dims => format!(
                "({})",
                dims.iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let mut header = format!(
            "{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}",
            self.dtype.descr()
        );
        // Magic (6) + version (2) + length (2) + header + '\n', padded to 64.
        let unpadded = 10 + header.len() + 1;
        header.push_str(&" ".repeat((64 - unpadded % 64) % 64));
        header.push('\n');
        let mut out = b"\x93NUMPY\x01\x00".to_vec();
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(&self.data);
        out
    }

    /// Reads a `.npy` file.
    pub fn read(path: &Path) -> Result<Array, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Array::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Writes a `.npy` file.
    pub fn write(&self, path: &Path) -> Result<(), String> {
        std::fs::write(path, self.to_bytes()).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_round_trips() {
        let mut data = vec![0u8; 6 * 8];
        for i in 0..6 {
            Dtype::Float(8).set(&mut data, i, i as f64 * 0.5 - 1.0);
        }
        let a = Array {
            dtype: Dtype::Float(8),
            shape: vec![2, 3],
            data,
        };
        let bytes = a.to_bytes();
        assert_eq!((bytes.len() - a.data.len()) % 64, 0);
        assert_eq!(Array::from_bytes(&bytes).unwrap(), a);
        assert_eq!(Dtype::Float(8).get(&a.data, 5), 1.5);
    }

    #[test]
    fn complex_numbers_are_pairs_of_components() {
        let c = Dtype::Complex(8);
        assert_eq!(Dtype::from_descr("<c8"), Some(c));
        assert_eq!(c.descr(), "<c8");
        assert_eq!(c.components(), (Dtype::Float(4), 2));
        let mut data = vec![0u8; 2 * 8];
        for (k, v) in [1.0, -2.0, 0.5, 4.0].into_iter().enumerate() {
            c.set(&mut data, k, v);
        }
        let a = Array {
            dtype: c,
            shape: vec![2],
            data,
        };
        assert_eq!(a.components(), 4);
        // Element 1 is 0.5 + 4i: its bytes are two little-endian floats.
        assert_eq!(&a.data[8..12], &0.5f32.to_le_bytes());
        assert_eq!(c.get(&a.data, 3), 4.0);
        assert_eq!(Array::from_bytes(&a.to_bytes()).unwrap(), a);
    }

    #[test]
    fn integers_convert_like_c() {
        let mut b = vec![0u8; 4];
        Dtype::Int(2).set(&mut b, 0, -3.7);
        assert_eq!(Dtype::Int(2).get(&b, 0), -3.0);
        Dtype::Uint(2).set(&mut b, 1, 65535.0);
        assert_eq!(Dtype::Uint(2).get(&b, 1), 65535.0);
        for v in [0.0, 1.5, -2.25, 65504.0] {
            let mut h = vec![0u8; 2];
            Dtype::Float(2).set(&mut h, 0, v);
            assert_eq!(Dtype::Float(2).get(&h, 0), v);
        }
    }
}
