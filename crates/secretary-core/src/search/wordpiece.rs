//! A WordPiece tokenizer (BERT "uncased"), for the static embedding table of [`super::embed`].
//!
//! Pure Rust with no Unicode tables beyond what `char` provides, so it builds for wasm32. It
//! follows the Hugging Face `BertTokenizer` (uncased) chain:
//!
//! 1. **Basic tokenization**: control characters dropped, whitespace splits, CJK ideographs become
//!    words of their own, text lowercased and accents stripped (for the precomposed Latin letters
//!    in [`strip_accent`]; the full NFD decomposition would need Unicode tables), and every
//!    punctuation character is a word of its own.
//! 2. **WordPiece**: each word is split greedily into the longest vocabulary entries, left to
//!    right; pieces after the first carry the `##` prefix. A word that cannot be split entirely,
//!    or that is longer than [`MAX_WORD_CHARS`] characters, becomes `[UNK]`.
//!
//! The splits are checked against the Python tokenizer in `tests/search_semantic.rs`.

use super::FastMap;

/// Words longer than this (in characters) are `[UNK]`, as in BERT.
pub const MAX_WORD_CHARS: usize = 100;

/// A WordPiece vocabulary: token text -> id. Continuation pieces are stored with their `##`.
#[derive(Clone, Default)]
pub struct WordPiece {
    ids: FastMap<Box<str>, u32>,
    tokens: Vec<Box<str>>,
    unk: Option<u32>,
    /// Longest token, in bytes (without `##`): bounds the greedy search.
    max_len: usize,
}

impl std::fmt::Debug for WordPiece {
    /// A summary: the vocabulary would flood any log.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WordPiece")
            .field("tokens", &self.tokens.len())
            .finish_non_exhaustive()
    }
}

impl WordPiece {
    /// A tokenizer over `tokens`, where a token's id is its position.
    pub fn new<S: AsRef<str>>(tokens: &[S]) -> WordPiece {
        let mut ids = FastMap::default();
        let mut max_len = 0;
        let mut list = Vec::with_capacity(tokens.len());
        for (i, t) in tokens.iter().enumerate() {
            let t = t.as_ref();
            ids.entry(Box::from(t)).or_insert(i as u32);
            max_len = max_len.max(t.strip_prefix("##").unwrap_or(t).len());
            list.push(Box::from(t));
        }
        let unk = ids.get("[UNK]").copied();
        WordPiece {
            ids,
            tokens: list,
            unk,
            max_len,
        }
    }

    /// Number of tokens in the vocabulary.
    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    /// Whether the vocabulary is empty.
    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The id of a token (continuations with their `##`).
    pub fn id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// The text of a token id.
    pub fn token(&self, id: u32) -> Option<&str> {
        self.tokens.get(id as usize).map(|t| &**t)
    }

    /// The id of `[UNK]`, if the vocabulary has one.
    pub fn unk_id(&self) -> Option<u32> {
        self.unk
    }

    /// Token ids of `text`, the full BERT chain (basic tokenization, then WordPiece).
    pub fn encode(&self, text: &str) -> Vec<u32> {
        let mut out = Vec::new();
        let mut scratch = String::new();
        basic_tokenize(text, &mut |word| {
            self.encode_word(word, &mut scratch, &mut out)
        });
        out
    }

    /// Token texts of `text` (for tests and debugging).
    pub fn tokenize(&self, text: &str) -> Vec<String> {
        self.encode(text)
            .into_iter()
            .filter_map(|id| self.token(id).map(str::to_string))
            .collect()
    }

    /// Appends the WordPiece ids of one already lowercased, accent-stripped word without
    /// whitespace or punctuation. `scratch` is a reusable buffer.
    pub fn encode_word(&self, word: &str, scratch: &mut String, out: &mut Vec<u32>) {
        if word.is_empty() {
            return;
        }
        if word.chars().count() > MAX_WORD_CHARS {
            out.extend(self.unk);
            return;
        }
        let mark = out.len();
        let mut start = 0;
        while start < word.len() {
            let mut end = word.len().min(start + self.max_len);
            while !word.is_char_boundary(end) {
                end -= 1;
            }
            let mut found = None;
            while end > start {
                let piece = &word[start..end];
                let id = if start == 0 {
                    self.ids.get(piece).copied()
                } else {
                    scratch.clear();
                    scratch.push_str("##");
                    scratch.push_str(piece);
                    self.ids.get(scratch.as_str()).copied()
                };
                if id.is_some() {
                    found = id;
                    break;
                }
                end -= 1;
                while !word.is_char_boundary(end) {
                    end -= 1;
                }
            }
            match found {
                Some(id) => {
                    out.push(id);
                    start = end;
                }
                None => {
                    out.truncate(mark);
                    out.extend(self.unk);
                    return;
                }
            }
        }
    }
}

/// BERT's basic tokenization (uncased): calls `emit` with each lowercase, accent-stripped word
/// or punctuation character of `text`, in order.
pub fn basic_tokenize(text: &str, emit: &mut dyn FnMut(&str)) {
    let mut word = String::new();
    let mut one = String::new();
    let flush = |word: &mut String, emit: &mut dyn FnMut(&str)| {
        if !word.is_empty() {
            emit(word);
            word.clear();
        }
    };
    for c in text.chars() {
        if c == '\0' || c == '\u{fffd}' || (is_control(c)) {
            continue;
        }
        if c.is_whitespace() {
            flush(&mut word, emit);
            continue;
        }
        if is_cjk(c) || is_punctuation(c) {
            flush(&mut word, emit);
            one.clear();
            one.push(c);
            emit(&one);
            continue;
        }
        for lower in c.to_lowercase() {
            if is_combining_mark(lower) {
                continue;
            }
            word.push(strip_accent(lower));
        }
    }
    flush(&mut word, emit);
}

/// BERT's control-character test: Unicode "C*" categories except tab, newline and return
/// (which are whitespace). Approximated by `char::is_control` plus format characters commonly
/// met in text.
fn is_control(c: char) -> bool {
    if matches!(c, '\t' | '\n' | '\r') {
        return false;
    }
    c.is_control() || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2060}'..='\u{2064}' | '\u{feff}')
}

/// BERT's punctuation test: all non-alphanumeric ASCII printable characters, plus the Unicode
/// punctuation blocks most often met (General Punctuation, CJK symbols, fullwidth forms).
pub fn is_punctuation(c: char) -> bool {
    let u = c as u32;
    if (33..=47).contains(&u)
        || (58..=64).contains(&u)
        || (91..=96).contains(&u)
        || (123..=126).contains(&u)
    {
        return true;
    }
    matches!(c,
        '\u{a1}' | '\u{a7}' | '\u{ab}' | '\u{b6}' | '\u{b7}' | '\u{bb}' | '\u{bf}'
        | '\u{2010}'..='\u{2027}' | '\u{2030}'..='\u{205e}'
        | '\u{3001}'..='\u{3003}' | '\u{3008}'..='\u{3011}' | '\u{3014}'..='\u{301f}'
        | '\u{ff01}'..='\u{ff03}' | '\u{ff05}'..='\u{ff0a}' | '\u{ff0c}'..='\u{ff0f}'
        | '\u{ff1a}' | '\u{ff1b}' | '\u{ff1f}' | '\u{ff20}' | '\u{ff3b}'..='\u{ff3d}'
        | '\u{ff3f}' | '\u{ff5b}' | '\u{ff5d}')
}

/// The CJK ideograph blocks BERT isolates as single-character words.
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B820..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

/// Combining diacritical marks (what NFD leaves behind and BERT removes).
fn is_combining_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF)
}

/// The base letter of a precomposed lowercase Latin letter with a diacritic (NFD, then drop the
/// marks), for Latin-1 and the common Latin Extended-A letters; other characters unchanged.
pub fn strip_accent(c: char) -> char {
    match c {
        'à'..='å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => 'c',
        'ď' => 'd',
        'è'..='ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => 'e',
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => 'g',
        'ĥ' => 'h',
        'ì'..='ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' => 'i',
        'ĵ' => 'j',
        'ķ' => 'k',
        'ĺ' | 'ļ' | 'ľ' => 'l',
        'ñ' | 'ń' | 'ņ' | 'ň' => 'n',
        'ò'..='ö' | 'ō' | 'ŏ' | 'ő' => 'o',
        'ŕ' | 'ŗ' | 'ř' => 'r',
        'ś' | 'ŝ' | 'ş' | 'š' => 's',
        'ţ' | 'ť' => 't',
        'ù'..='ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => 'u',
        'ŵ' => 'w',
        'ý' | 'ÿ' | 'ŷ' => 'y',
        'ź' | 'ż' | 'ž' => 'z',
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab() -> WordPiece {
        WordPiece::new(&[
            "[PAD]", "[UNK]", "un", "##aff", "##able", "want", "##ed", "wa", ",", "runn", "##ing",
            "cafe", "!",
        ])
    }

    #[test]
    fn greedy_longest_match() {
        let wp = vocab();
        assert_eq!(
            wp.tokenize("UNwant\u{e9}d,running"),
            ["[UNK]", ",", "runn", "##ing"]
        );
        assert_eq!(wp.tokenize("unaffable"), ["un", "##aff", "##able"]);
        assert_eq!(wp.tokenize("Café!"), ["cafe", "!"]);
        assert_eq!(wp.tokenize("wanted"), ["want", "##ed"]);
        assert_eq!(wp.tokenize("xyz"), ["[UNK]"]);
    }
}
