//! A learned correction of query vectors for tool search: a few directions taken out of the
//! query's embedding before it is compared with the documents'.
//!
//! People (and agents) ask for a tool in another register than the one its description is
//! written in: "I'm looking for something that can help me…" against "Searches the web for…".
//! The static table puts part of that register difference into a handful of directions that
//! every query shares whatever tool it wants, so it pulls queries towards the tools whose
//! descriptions happen to share the register rather than towards the right one. Those
//! directions are the main axes of the residuals "query minus its tool's vector" over labelled
//! queries; taking half of each out of the query (`q - alpha * sum (u . q) u`, then
//! renormalised) helps tools that were never in the labelled set as much as those that were,
//! which is how it was chosen: fitted on one half of the tools, measured on the other
//! (`scripts/rerank/query_projection.py`, `docs/benchmarks.md`, "Issue 26, fourth pass").
//! Documents are left as they are, so nothing in an index depends on it.

use super::embed::le_f32s;

/// Unit directions to take out of query vectors, and how much of each.
#[derive(Clone, Copy, PartialEq)]
pub struct QueryProjection {
    /// Share of each direction taken out (1: all of it).
    pub alpha: f32,
    /// The directions: little-endian `f32`, one row of `dims` values per direction.
    pub rows: &'static [u8],
}

impl std::fmt::Debug for QueryProjection {
    /// A summary: the rows are data.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("QueryProjection")
            .field("alpha", &self.alpha)
            .field("bytes", &self.rows.len())
            .finish()
    }
}

impl QueryProjection {
    /// Tool search's: 32 directions of 256 dimensions at one half, fitted on the MetaTool dev
    /// queries of half A (`scripts/rerank/query_projection.py`) with the committed embedding
    /// table (both checksums in `assets/tool-query-projection.bin.sha256`, checked by a test).
    pub const TOOLS: QueryProjection = QueryProjection {
        alpha: 0.5,
        rows: include_bytes!("../../assets/tool-query-projection.bin"),
    };

    /// How many directions it holds for vectors of `dims` dimensions (0 when its rows are not
    /// whole rows of that width: then [`Directions::apply`] leaves vectors alone).
    pub fn directions(&self, dims: usize) -> usize {
        let row = dims * 4;
        // `%`, not `is_multiple_of`: that needs Rust 1.87, the crate's MSRV is 1.80.
        #[allow(clippy::manual_is_multiple_of)]
        if row == 0 || self.rows.len() % row != 0 {
            0
        } else {
            self.rows.len() / row
        }
    }

    /// Each direction as floats, for vectors of `dims` dimensions (none when its rows are not
    /// of that width).
    pub fn vectors(&self, dims: usize) -> impl Iterator<Item = Vec<f32>> + '_ {
        self.rows_of(dims).map(|row| le_f32s(row).collect())
    }

    /// The directions decoded for vectors of `dims` dimensions: what an index keeps, so that a
    /// query does not decode 32 rows of bytes twice.
    pub fn decoded(&self, dims: usize) -> Directions {
        let rows: Vec<f32> = self.rows_of(dims).flat_map(le_f32s).collect();
        Directions {
            alpha: self.alpha,
            dims,
            rows,
        }
    }

    /// The directions' bytes, one row of `dims` values each (none for another width).
    fn rows_of(&self, dims: usize) -> std::slice::ChunksExact<'_, u8> {
        let n = self.directions(dims);
        self.rows[..n * dims * 4].chunks_exact((dims * 4).max(1))
    }
}

/// A [`QueryProjection`]'s directions as floats, for vectors of one width.
#[derive(Clone, PartialEq)]
pub struct Directions {
    alpha: f32,
    dims: usize,
    /// One row of `dims` values per direction (none when the projection's rows are of another
    /// width).
    rows: Vec<f32>,
}

impl std::fmt::Debug for Directions {
    /// A summary: the rows are data.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Directions")
            .field("alpha", &self.alpha)
            .field("dims", &self.dims)
            .field("directions", &(self.rows.len() / self.dims.max(1)))
            .finish()
    }
}

impl Directions {
    /// Takes `alpha` of each direction out of `v` (not renormalised); a vector of another width
    /// is left alone.
    pub fn apply(&self, v: &mut [f32]) {
        if v.len() != self.dims || self.dims == 0 {
            return;
        }
        for row in self.rows.chunks_exact(self.dims) {
            let along = self.alpha * dot8(row, v);
            for (x, a) in v.iter_mut().zip(row) {
                *x -= along * a;
            }
        }
    }
}

/// The dot product of `row` and `v`, in eight running sums: one sum is a chain of dependent
/// additions (32 directions of 256 make 8,192 of them per query), eight let the additions
/// overlap and the compiler use SIMD lanes.
fn dot8(row: &[f32], v: &[f32]) -> f32 {
    let mut sums = [0f32; 8];
    let whole = v.len().min(row.len()) / 8 * 8;
    for (xs, ys) in row[..whole].chunks_exact(8).zip(v[..whole].chunks_exact(8)) {
        for ((sum, a), b) in sums.iter_mut().zip(xs).zip(ys) {
            *sum += a * b;
        }
    }
    let tail: f32 = row[whole..]
        .iter()
        .zip(&v[whole..])
        .map(|(a, b)| a * b)
        .sum();
    sums.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(rows: &[f32]) -> &'static [u8] {
        Box::leak(
            rows.iter()
                .flat_map(|x| x.to_le_bytes())
                .collect::<Vec<u8>>()
                .into_boxed_slice(),
        )
    }

    #[test]
    fn takes_out_the_share_of_each_direction() {
        let p = QueryProjection {
            alpha: 0.5,
            rows: bytes(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]),
        };
        let mut v = [2.0, 4.0, 6.0];
        p.decoded(3).apply(&mut v);
        assert_eq!(v, [1.0, 2.0, 6.0]);
    }

    #[test]
    fn the_dot_product_in_eight_sums_covers_every_component() {
        for n in [0, 1, 7, 8, 9, 16, 19, 256] {
            let u: Vec<f32> = (0..n).map(|i| (i % 5) as f32 - 2.0).collect();
            let v: Vec<f32> = (0..n).map(|i| (i % 3) as f32 + 0.5).collect();
            let plain: f32 = u.iter().zip(&v).map(|(a, b)| a * b).sum();
            assert_eq!(dot8(&u, &v), plain, "{n} components");
        }
    }

    #[test]
    fn rows_of_another_width_leave_the_vector_alone() {
        let p = QueryProjection {
            alpha: 1.0,
            rows: bytes(&[1.0, 0.0, 0.0, 0.0]),
        };
        let mut v = [2.0, 4.0, 6.0];
        p.decoded(3).apply(&mut v);
        assert_eq!(v, [2.0, 4.0, 6.0]);
        // Decoded for one width (two rows of three), a vector of another is left alone too.
        let fits = QueryProjection {
            alpha: 1.0,
            rows: bytes(&[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]),
        };
        let mut w = [2.0, 4.0];
        fits.decoded(3).apply(&mut w);
        assert_eq!(w, [2.0, 4.0]);
        let mut x = [2.0, 4.0, 6.0];
        fits.decoded(3).apply(&mut x);
        assert_eq!(x, [0.0, 0.0, 6.0]);
    }

    #[test]
    fn the_committed_directions_fit_the_table() {
        let dims = super::super::embed::Table::builtin().dims();
        assert_eq!(QueryProjection::TOOLS.directions(dims), 32);
    }
}
