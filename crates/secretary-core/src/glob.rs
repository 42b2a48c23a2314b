//! A small glob matcher for `/`-separated relative paths, ASCII-case-insensitive:
//!
//! - `*` any run of characters within one folder name (not `/`),
//! - `?` one character other than `/`,
//! - `**` as a whole segment: zero or more folders (`**/*.md` matches `a.md` and `x/y/a.md`);
//!   inside a segment it counts as `*`.
//!
//! Everything else is literal (no `[...]` classes, no `{a,b}`: content categories list several
//! patterns instead). Matching is a dynamic programme over segments, so no pattern can make it
//! exponential.

/// Whether `path` matches `pattern` as a whole.
pub fn matches(pattern: &str, path: &str) -> bool {
    let pattern = pattern.to_ascii_lowercase();
    let path = path.to_ascii_lowercase();
    let pats: Vec<&str> = pattern.split('/').collect();
    let segs: Vec<&str> = path.split('/').collect();
    // can[i][j]: pats[i..] matches segs[j..].
    let (n, m) = (pats.len(), segs.len());
    let mut can = vec![vec![false; m + 1]; n + 1];
    can[n][m] = true;
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            can[i][j] = if pats[i] == "**" {
                can[i + 1][j] || (j < m && can[i][j + 1])
            } else {
                j < m && segment_matches(pats[i], segs[j]) && can[i + 1][j + 1]
            };
        }
    }
    can[0][0]
}

/// Whether a pattern uses any wildcard.
pub fn has_wildcards(pattern: &str) -> bool {
    pattern.contains(['*', '?'])
}

/// `*` and `?` within one segment (greedy with one backtrack point: linear in practice).
fn segment_matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            while pi < p.len() && p[pi] == '*' {
                pi += 1;
            }
            star = Some((pi, ti));
        } else if let Some((sp, st)) = star {
            pi = sp;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == '*' {
        pi += 1;
    }
    pi == p.len()
}

#[cfg(test)]
mod tests {
    use super::matches;

    /// Asserts, for each `(pattern, path, expected)`, whether `pattern` matches `path`.
    fn check(cases: &[(&str, &str, bool)]) {
        for &(pattern, path, expected) in cases {
            assert_eq!(matches(pattern, path), expected, "{pattern} ~ {path}");
        }
    }

    #[test]
    fn star_stays_within_a_folder() {
        check(&[
            ("*.md", "a.md", true),
            ("*.md", ".md", true),
            ("*.md", "x/a.md", false),
            ("*/*.md", "x/a.md", true),
            ("a*b*c", "aXXbYYc", true),
            ("a*b*c", "aXXbYY", false),
            ("*.instructions.md", "python.instructions.md", true),
        ]);
    }

    #[test]
    fn double_star_spans_folders() {
        check(&[
            ("**/*.md", "a.md", true),
            ("**/*.md", "x/y/a.md", true),
            ("**/*.md", "x/y/a.txt", false),
            ("api/**", "api/a/b.md", true),
            ("api/**/v1.md", "api/v1.md", true),
            ("**/api/**/*.md", "x/api/y/z.md", true),
            ("a**b", "axxb", true),
            ("**", "anything/at/all", true),
        ]);
    }

    #[test]
    fn question_mark_and_case() {
        check(&[
            ("v?.md", "v1.md", true),
            ("v?.md", "v10.md", false),
            ("a?b", "a/b", false),
            ("README.MD", "readme.md", true),
        ]);
    }

    #[test]
    fn many_double_stars_stay_fast() {
        let pattern = "**/a/**/a/**/a/**/a/**/a/**/a/**/b";
        let path = ["a"; 60].join("/");
        assert!(!matches(pattern, &path));
    }
}
