//! The analysis chain (`search::tokenize`): splitting, lowercasing, stop words, stemming, and
//! safety on arbitrary input.

// In a module named after the file so that `cargo test search` selects these tests.
mod search_tokenize {
    use secretary_core::search::tokenize;

    fn toks(text: &str) -> Vec<String> {
        tokenize(text)
    }

    #[test]
    fn splits_snake_camel_and_kebab_case() {
        assert_eq!(toks("create_qr_code"), ["creat", "qr", "code"]);
        assert_eq!(toks("webSearchTool"), ["web", "search", "tool"]);
        assert_eq!(toks("WebSearchTool"), ["web", "search", "tool"]);
        assert_eq!(toks("word-cloud-maker"), ["word", "cloud", "maker"]);
        // The lone "G" is dropped: single Latin letters are too ambiguous to rank on.
        assert_eq!(
            toks("MixerBox_WebSearchG_web_search"),
            ["mixer", "box", "web", "search", "web", "search"]
        );
    }

    #[test]
    fn splits_acronyms_from_following_words() {
        assert_eq!(toks("HTTPServer"), ["http", "server"]);
        assert_eq!(toks("parseJSONResponse"), ["pars", "json", "respons"]);
        assert_eq!(toks("ChatOCR"), ["chat", "ocr"]);
        // A plural acronym stays one word.
        assert_eq!(toks("PDFs URLs"), ["pdf", "url"]);
        assert_eq!(toks("PDF&URLTool"), ["pdf", "url", "tool"]);
    }

    #[test]
    fn splits_letters_from_digits() {
        assert_eq!(toks("mp3 covid19 d20"), ["mp", "3", "covid", "19", "20"]);
        assert_eq!(toks("70+ search engines"), ["70", "search", "engin"]);
        assert_eq!(toks("2-day forecast"), ["2", "day", "forecast"]);
    }

    #[test]
    fn lowercases_and_drops_stop_words() {
        assert_eq!(toks("The WEATHER in Paris"), ["weather", "pari"]);
        assert!(toks("the and of to in is it you me").is_empty());
        assert!(toks("Can you please help me with this?").contains(&"help".to_string()));
        assert!(!toks("Can you please help me with this?").contains(&"you".to_string()));
    }

    #[test]
    fn stems_inflections_together() {
        assert_eq!(toks("searching"), ["search"]);
        assert_eq!(
            toks("searches searched search"),
            ["search", "search", "search"]
        );
        assert_eq!(toks("recipes"), toks("recipe"));
        assert_eq!(toks("running runs"), ["run", "run"]);
        assert_eq!(toks("companies"), toks("company"));
    }

    #[test]
    fn drops_contraction_and_possessive_tails() {
        assert_eq!(toks("What's the weather?"), ["weather"]);
        assert_eq!(toks("Father's Day"), ["father", "day"]);
        assert_eq!(toks("don't isn't"), Vec::<String>::new());
        assert_eq!(toks("It’s Tesla’s car"), ["tesla", "car"]);
    }

    #[test]
    fn empty_and_separator_only_input_gives_no_terms() {
        assert!(toks("").is_empty());
        assert!(toks("   \t\n ").is_empty());
        assert!(toks("!!! ??? ... --- ___ ///").is_empty());
        assert!(toks("😀🎉👍🏽").is_empty());
    }

    #[test]
    fn unicode_text_is_handled() {
        // Accented Latin: lowercased, kept whole, not passed to the English stemmer.
        assert_eq!(toks("Café CRÈME"), ["café", "crème"]);
        // German sharp s and Turkish dotted I lowercase without panicking.
        assert_eq!(toks("STRASSE straße"), ["strass", "straße"]);
        assert!(!toks("İstanbul").is_empty());
        // CJK: one token per character, so shared characters match.
        assert_eq!(toks("天气预报"), ["天", "气", "预", "报"]);
        assert_eq!(toks("東京の天気"), ["東", "京", "の", "天", "気"]);
        assert_eq!(toks("날씨"), ["날", "씨"]);
        // Cyrillic and Greek words are words.
        assert_eq!(toks("Погода в Москве"), ["погода", "в", "москве"]);
        assert_eq!(toks("καιρός"), ["καιρός"]);
        // Emoji separate words.
        assert_eq!(toks("weather🌧forecast"), ["weather", "forecast"]);
    }

    #[test]
    fn hostile_input_is_safe() {
        // Combining marks, zero-width joiners, RTL marks, lone surrogate-free oddities.
        let odd = "e\u{301}\u{301}\u{200d}\u{200f}\u{feff}a\u{0}b\u{7f}\u{10ffff}";
        let _ = toks(odd);
        // A huge single "word" (encoded data) is skipped, not indexed.
        let blob = "A".repeat(100_000);
        assert!(toks(&blob).is_empty());
        // Long but ordinary text is fully tokenized.
        let long = "weather forecast ".repeat(20_000);
        assert_eq!(toks(&long).len(), 40_000);
        // Apostrophes in odd places.
        for text in ["'", "''", "'s", "a'", "'abc", "x'\u{301}", "’’’s", "don’"] {
            let _ = toks(text);
        }
    }

    #[test]
    fn deterministic_pseudo_random_strings_never_panic() {
        let alphabet: Vec<char> = "aZ09 _-'’.\u{301}é😀天ßİ\u{200d}\n\tHTTPServer"
            .chars()
            .collect();
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..2_000 {
            let len = (state % 40) as usize;
            let text: String = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    alphabet[(state % alphabet.len() as u64) as usize]
                })
                .collect();
            for term in toks(&text) {
                assert!(!term.is_empty(), "empty term from {text:?}");
            }
            state = state.wrapping_add(1);
        }
    }
}
