//! Markdown sections: documents are split at `## ` headings, sections are scored by how often the
//! query's terms occur in them (+2 per term found in the heading), and the best are joined within
//! a character budget. Without a query, or when nothing matches, the first sections stand in as an
//! overview.

/// The most sections a search returns.
pub const TOP_SECTIONS: usize = 8;
/// The sections of an overview (no query, or no section mentions it).
pub const OVERVIEW_SECTIONS: usize = 5;
/// A section that does not fit is cut to the room left when at least this much is left;
/// otherwise it is left out.
pub const MIN_CUT_CHARS: usize = 200;
/// What ends a cut section.
pub const CUT_MARK: &str = "\n…";

/// Words a query drops: they occur everywhere and would rank every section alike.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "does", "for", "from", "how",
    "i", "in", "is", "it", "me", "my", "of", "on", "or", "the", "to", "use", "using", "what",
    "when", "where", "which", "why", "with", "you",
];

/// One `## ` section of a document (or the text before the first one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// The document it comes from, relative to the library's folder (`README.md`, `docs/api.md`).
    pub file: String,
    /// The heading without `## ` (the document's `# ` title, or its file name, for the text before
    /// the first `## `).
    pub heading: String,
    /// The markdown, heading line included, trimmed.
    pub text: String,
}

/// Splits a markdown document at its `## ` headings (never inside fenced code blocks, where
/// `## ` is often a shell comment). The text before the first `## ` is kept as a section when it
/// says more than its `# ` title.
pub fn split(file: &str, markdown: &str) -> Vec<Section> {
    let markdown = markdown.replace("\r\n", "\n");
    let mut sections = Vec::new();
    let mut heading: Option<String> = None;
    let mut title: Option<String> = None;
    let mut lines: Vec<&str> = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let flush = |heading: &Option<String>,
                 title: &Option<String>,
                 lines: &[&str],
                 out: &mut Vec<Section>| {
        let text = lines.join("\n").trim().to_string();
        match heading {
            Some(heading) => out.push(Section {
                file: file.to_string(),
                heading: heading.clone(),
                text,
            }),
            None => {
                // The preamble counts when it holds more than its `# ` title.
                let body = lines
                    .iter()
                    .filter(|line| !is_title(line))
                    .any(|line| !line.trim().is_empty());
                if body {
                    out.push(Section {
                        file: file.to_string(),
                        heading: title.clone().unwrap_or_else(|| file.to_string()),
                        text,
                    });
                }
            }
        }
    };
    for line in markdown.lines() {
        if let Some(marker) = fence_marker(line) {
            fence = match fence {
                None => Some(marker),
                Some((c, n)) if marker.0 == c && marker.1 >= n && is_fence_close(line) => None,
                open => open,
            };
        } else if fence.is_none() {
            if let Some(rest) = line.strip_prefix("## ") {
                flush(&heading, &title, &lines, &mut sections);
                lines.clear();
                heading = Some(clean_heading(rest));
            } else if heading.is_none() && title.is_none() && is_title(line) {
                title = Some(clean_heading(&line[2..]));
            }
        }
        lines.push(line);
    }
    flush(&heading, &title, &lines, &mut sections);
    sections
}

fn is_title(line: &str) -> bool {
    line.starts_with("# ")
}

fn clean_heading(text: &str) -> String {
    text.trim().trim_end_matches('#').trim().to_string()
}

/// A fence opener or closer: up to three spaces, then three or more backticks or tildes.
fn fence_marker(line: &str) -> Option<(char, usize)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let c = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let n = rest.chars().take_while(|x| *x == c).count();
    (n >= 3).then_some((c, n))
}

/// A closing fence has nothing after its marker.
fn is_fence_close(line: &str) -> bool {
    line.trim().chars().all(|c| c == '`' || c == '~')
}

/// The terms of a query: lowercase words of letters and digits, at least two characters, without
/// stop words, each once.
pub fn terms(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in query
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
    {
        if word.chars().count() >= 2 && !STOP_WORDS.contains(&word.as_str()) && !out.contains(&word)
        {
            out.push(word);
        }
    }
    out
}

/// A section's score: for every term, how often it occurs in the section (heading included,
/// case-insensitively, inside longer words too), plus 2 when it is in the heading.
pub fn score(section: &Section, terms: &[String]) -> usize {
    let text = section.text.to_lowercase();
    let heading = section.heading.to_lowercase();
    terms
        .iter()
        .map(|term| {
            let count = text.matches(term.as_str()).count();
            let bonus = if heading.contains(term.as_str()) {
                2
            } else {
                0
            };
            count + bonus
        })
        .sum()
}

/// How the sections were chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The best-scoring sections for the query.
    Search,
    /// The first sections: there was no query, or no section mentions it.
    Overview,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Search => "search",
            Mode::Overview => "overview",
        }
    }
}

/// The chosen sections, joined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub mode: Mode,
    /// Indexes into the sections, in the order of `text`, each with its score (0 in an overview).
    pub picks: Vec<(usize, usize)>,
    /// The sections' markdown, separated by blank lines, at most `max_chars` characters.
    pub text: String,
    /// A chosen section was cut or left out to stay within `max_chars`.
    pub truncated: bool,
}

/// The top [`TOP_SECTIONS`] sections for `query` (best first, ties in document order), or the
/// first [`OVERVIEW_SECTIONS`] when the query has no terms or no section mentions them, joined
/// within `max_chars` characters: sections are added while they fit; the first that does not is
/// cut at a line (ending with [`CUT_MARK`]) when at least [`MIN_CUT_CHARS`] are left, or when it
/// is the first, and nothing follows it.
pub fn select(sections: &[Section], query: Option<&str>, max_chars: usize) -> Selection {
    let terms = query.map(terms).unwrap_or_default();
    let mut ranked: Vec<(usize, usize)> = if terms.is_empty() {
        Vec::new()
    } else {
        sections
            .iter()
            .enumerate()
            .map(|(i, section)| (i, score(section, &terms)))
            .filter(|(_, score)| *score > 0)
            .collect()
    };
    let mode = if ranked.is_empty() {
        ranked = (0..sections.len().min(OVERVIEW_SECTIONS))
            .map(|i| (i, 0))
            .collect();
        Mode::Overview
    } else {
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked.truncate(TOP_SECTIONS);
        Mode::Search
    };
    let mut text = String::new();
    let mut used = 0usize;
    let mut picks = Vec::new();
    let mut truncated = false;
    for (index, score) in ranked.iter().copied() {
        let section = &sections[index].text;
        let sep = if text.is_empty() { 0 } else { 2 };
        let len = section.chars().count();
        if used + sep + len <= max_chars {
            if sep > 0 {
                text.push_str("\n\n");
            }
            text.push_str(section);
            used += sep + len;
            picks.push((index, score));
            continue;
        }
        truncated = true;
        let room = max_chars.saturating_sub(used + sep);
        if picks.is_empty() || room >= MIN_CUT_CHARS {
            let cut = cut(section, room);
            if !cut.is_empty() {
                if sep > 0 {
                    text.push_str("\n\n");
                }
                text.push_str(&cut);
                picks.push((index, score));
            }
        }
        break;
    }
    Selection {
        mode,
        picks,
        text,
        truncated,
    }
}

/// `text` cut to at most `room` characters, [`CUT_MARK`] included, at a line end when one is in
/// the second half; empty when not even the mark fits.
pub fn cut(text: &str, room: usize) -> String {
    let mark = CUT_MARK.chars().count();
    if text.chars().count() <= room {
        return text.to_string();
    }
    if room <= mark {
        return String::new();
    }
    let kept: String = text.chars().take(room - mark).collect();
    let kept = match kept.rfind('\n') {
        Some(at) if at * 2 >= kept.len() => kept[..at].trim_end().to_string(),
        _ => kept,
    };
    format!("{kept}{CUT_MARK}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_do_not_split_and_titles_name_the_preamble() {
        let doc = "# Tool\n\nIntro.\n\n## Install\n\n```sh\n## not a heading\nnpm i tool\n```\n\n## Use ##\n\nCall it.\n";
        let sections = split("README.md", doc);
        let headings: Vec<&str> = sections.iter().map(|s| s.heading.as_str()).collect();
        assert_eq!(headings, ["Tool", "Install", "Use"]);
        assert!(sections[1].text.contains("## not a heading"));
        assert!(sections[1].text.starts_with("## Install"));
        // A preamble that is only a title is not a section.
        assert_eq!(split("a.md", "# T\n\n## A\nx").len(), 1);
        // No title: the file names it.
        assert_eq!(split("a.md", "text\n## A\nx")[0].heading, "a.md");
    }

    #[test]
    fn cut_respects_the_room() {
        let text = "line one\nline two\nline three";
        let cut = cut(text, 20);
        assert!(cut.chars().count() <= 20, "{cut}");
        assert_eq!(cut, "line one\nline two\n…");
        assert_eq!(super::cut("abc", 2), "");
        assert_eq!(super::cut("abc", 3), "abc");
    }

    #[test]
    fn terms_drop_stop_words_and_repeats() {
        assert_eq!(
            terms("How do I use the Locator? locator API"),
            ["locator", "api"]
        );
    }
}
