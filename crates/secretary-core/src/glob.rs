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
        // A `*` is a wildcard before it is a character: a name holding `*` must not match it
        // literally and lose the backtrack point (`*.md` against `*a.md`).
        if pi < p.len() && p[pi] == '*' {
            while pi < p.len() && p[pi] == '*' {
                pi += 1;
            }
            star = Some((pi, ti));
        } else if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
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

    /// Asserts that `pattern` matches each of `matching` and none of `not_matching`.
    fn check(pattern: &str, matching: &[&str], not_matching: &[&str]) {
        for path in matching {
            assert!(matches(pattern, path), "{pattern} should match {path}");
        }
        for path in not_matching {
            assert!(!matches(pattern, path), "{pattern} should not match {path}");
        }
    }

    #[test]
    fn star_stays_within_a_folder() {
        check("*.md", &["a.md", ".md"], &["x/a.md"]);
        check("*/*.md", &["x/a.md"], &[]);
        check("a*b*c", &["aXXbYYc"], &["aXXbYY"]);
        check("*.instructions.md", &["python.instructions.md"], &[]);
        // A `*` in the name is matched by the pattern's `*`, not taken as the same character.
        check("*.md", &["*a.md", "**.md"], &["*a.txt"]);
        check("a*", &["a*b"], &["b*"]);
    }

    #[test]
    fn double_star_spans_folders() {
        check("**/*.md", &["a.md", "x/y/a.md"], &["x/y/a.txt"]);
        check("api/**", &["api/a/b.md"], &[]);
        check("api/**/v1.md", &["api/v1.md"], &[]);
        check("**/api/**/*.md", &["x/api/y/z.md"], &[]);
        check("a**b", &["axxb"], &[]);
        check("**", &["anything/at/all"], &[]);
    }

    #[test]
    fn question_mark_and_case() {
        check("v?.md", &["v1.md"], &["v10.md"]);
        check("a?b", &[], &["a/b"]);
        check("README.MD", &["readme.md"], &[]);
    }

    #[test]
    fn many_double_stars_stay_fast() {
        let pattern = "**/a/**/a/**/a/**/a/**/a/**/a/**/b";
        let path = ["a"; 60].join("/");
        assert!(!matches(pattern, &path));
    }
}
