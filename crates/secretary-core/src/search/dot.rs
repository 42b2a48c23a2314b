//! The integer dot product every cosine of the static embeddings is made of, in SIMD: the soft
//! match's token cosines and a query's cosines with document vectors
//! ([`super::embed::DenseIndex::cosine`]).
//!
//! A row of the static table is 128 int8 components, and the soft match of past requests
//! ([`super::soft_match`]) compares each query token with every distinct token of the first 20
//! results, a few thousand rows a query; a tool query rescores about 150 document vectors.
//! Written as a plain loop, the compiler widened every component to 32 bits; with the query
//! side widened once to 16 bits, one multiply-add instruction (`pmaddwd` on x86-64,
//! `i32x4.dot_i16x8_s` in WebAssembly) does eight products and four sums. Both are in the
//! baseline this crate builds for (SSE2 on x86-64; SIMD128 for the wasm module,
//! `.cargo/config.toml`), so nothing is detected at run time. The sums are exact, so results do
//! not change (`docs/benchmarks.md`, "Issue 26", ninth and tenth passes).

/// The dot product of `a` (16-bit) and `b` (8-bit) over their common length, in 32-bit sums.
///
/// Exact: each product fits 16 bits times 8 bits, and the sums of a table row (at most 4,096
/// components of at most 127 * 32,767) stay far from overflowing when `a` holds int8 levels.
#[inline]
pub(crate) fn dot_i16_i8(a: &[i16], b: &[i8]) -> i32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let head = n - n % 16;
    let mut sum = simd::dot16(&a[..head], &b[..head]);
    for (&x, &y) in a[head..].iter().zip(&b[head..]) {
        sum += i32::from(x) * i32::from(y);
    }
    sum
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use core::arch::x86_64::*;

    /// The dot product of equally long slices whose length is a multiple of 16.
    #[inline(always)]
    pub(super) fn dot16(a: &[i16], b: &[i8]) -> i32 {
        debug_assert!(a.len() == b.len() && a.len().is_multiple_of(16));
        // SAFETY: SSE2 is part of the x86_64 baseline; every load reads 16 bytes at an offset
        // below `len - 15` (bytes of `b`, `i16`s of `a` two at a time), inside the slices.
        unsafe {
            let mut acc = _mm_setzero_si128();
            let zero = _mm_setzero_si128();
            for i in (0..b.len()).step_by(16) {
                let x = _mm_loadu_si128(b.as_ptr().add(i).cast());
                // Sign-extend the 16 bytes to two vectors of eight 16-bit lanes.
                let sign = _mm_cmpgt_epi8(zero, x);
                let lo = _mm_unpacklo_epi8(x, sign);
                let hi = _mm_unpackhi_epi8(x, sign);
                let a_lo = _mm_loadu_si128(a.as_ptr().add(i).cast());
                let a_hi = _mm_loadu_si128(a.as_ptr().add(i + 8).cast());
                acc = _mm_add_epi32(acc, _mm_madd_epi16(lo, a_lo));
                acc = _mm_add_epi32(acc, _mm_madd_epi16(hi, a_hi));
            }
            let mut lanes = [0i32; 4];
            _mm_storeu_si128(lanes.as_mut_ptr().cast(), acc);
            lanes.iter().sum()
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use core::arch::wasm32::*;

    /// The dot product of equally long slices whose length is a multiple of 16.
    #[inline(always)]
    pub(super) fn dot16(a: &[i16], b: &[i8]) -> i32 {
        debug_assert!(a.len() == b.len() && a.len().is_multiple_of(16));
        let mut acc = i32x4_splat(0);
        for i in (0..b.len()).step_by(8) {
            // SAFETY: this item only exists when the module is built with SIMD128; each load
            // reads 8 bytes of `b` and 8 `i16`s of `a` at an offset below `len - 7`.
            let (x, y) = unsafe {
                (
                    i16x8_load_extend_i8x8(b.as_ptr().add(i).cast()),
                    v128_load(a.as_ptr().add(i).cast()),
                )
            };
            acc = i32x4_add(acc, i32x4_dot_i16x8(x, y));
        }
        i32x4_extract_lane::<0>(acc)
            + i32x4_extract_lane::<1>(acc)
            + i32x4_extract_lane::<2>(acc)
            + i32x4_extract_lane::<3>(acc)
    }
}

#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
mod simd {
    /// The dot product of equally long slices (the scalar fallback).
    #[inline(always)]
    pub(super) fn dot16(a: &[i16], b: &[i8]) -> i32 {
        a.iter()
            .zip(b)
            .map(|(&x, &y)| i32::from(x) * i32::from(y))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scalar(a: &[i16], b: &[i8]) -> i32 {
        a.iter()
            .zip(b)
            .map(|(&x, &y)| i32::from(x) * i32::from(y))
            .sum()
    }

    #[test]
    fn equals_the_scalar_sum_at_every_length_and_extreme() {
        // A fixed pseudo-random walk over the full int8 range, the extremes included.
        let mut state = 0x2545_f491u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        for n in [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 128, 130, 4096] {
            let b: Vec<i8> = (0..n).map(|_| next() as i8).collect();
            let a: Vec<i16> = (0..n).map(|_| (next() as i8) as i16).collect();
            assert_eq!(dot_i16_i8(&a, &b), scalar(&a, &b), "length {n}");
        }
        let b = vec![-128i8; 128];
        let a = vec![-127i16; 128];
        assert_eq!(dot_i16_i8(&a, &b), 128 * 127 * 128);
        let a = vec![127i16; 128];
        assert_eq!(dot_i16_i8(&a, &b), -(128 * 127 * 128));
    }

    #[test]
    fn unequal_lengths_use_the_common_prefix() {
        let a = [1i16, 2, 3, 4];
        let b = [1i8, 1];
        assert_eq!(dot_i16_i8(&a, &b), 3);
        assert_eq!(dot_i16_i8(&a, &[]), 0);
    }
}
