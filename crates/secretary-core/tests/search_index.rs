//! `search::Index`: ranking order, limits, empty queries, determinism and input safety.

// In a module named after the file so that `cargo test search` selects these tests.
mod search_index {
    use secretary_core::search::{Document, Hit, Index, SearchOptions};

    fn doc(name: &str, text: &str) -> Document {
        Document::new(name, text)
    }

    fn names<'a>(docs: &'a [Document], hits: &[Hit]) -> Vec<&'a str> {
        hits.iter().map(|h| docs[h.doc].name.as_str()).collect()
    }

    /// Asserts that `query` (asking for `limit` hits) ranks `docs[top]` first.
    #[track_caller]
    fn assert_top(docs: &[Document], query: &str, limit: usize, top: usize) {
        let hits = Index::build(docs).search(query, limit);
        assert_eq!(hits[0].doc, top, "{query}: {hits:?}");
    }

    fn catalog() -> Vec<Document> {
        vec![
            doc(
                "weather_forecast",
                "Get the latest weather forecast for any city.",
            ),
            doc(
                "stock_quotes",
                "Real-time stock prices, market news and financial analysis.",
            ),
            doc(
                "recipe_finder",
                "Find recipes, meal plans and cooking tips.",
            ),
            doc(
                "news_headlines",
                "Top news headlines from around the world.",
            ),
            doc(
                "flight_search",
                "Search and compare cheap flights and hotels for your trip.",
            ),
            doc(
                "pdf_reader",
                "Chat with any PDF document: summaries and answers.",
            ),
            doc("qr_code", "Create a QR code for any text or URL."),
        ]
    }

    #[test]
    fn finds_the_obvious_tool() {
        let docs = catalog();
        let index = Index::build(&docs);
        let cases = [
            (
                "What's the weather like in Paris tomorrow?",
                "weather_forecast",
            ),
            ("current price of Apple stock", "stock_quotes"),
            ("I need a recipe for dinner", "recipe_finder"),
            ("show me today's headlines", "news_headlines"),
            ("book a cheap flight to Rome", "flight_search"),
            ("summarize this PDF", "pdf_reader"),
            ("make a QR code for my website", "qr_code"),
        ];
        for (query, want) in cases {
            let hits = index.search(query, 3);
            assert_eq!(
                names(&docs, &hits).first(),
                Some(&want),
                "query {query:?}: {hits:?}"
            );
        }
    }

    #[test]
    fn name_match_ranks_above_a_mere_mention() {
        // Both mention "translate" once in the text; only one is named for it.
        let docs = vec![
            doc(
                "language_tutor",
                "Learn languages with a tutor who can also translate phrases.",
            ),
            doc(
                "translate",
                "Turn text from one language into another; translate documents.",
            ),
            doc(
                "dictionary",
                "Word meanings, and we translate single words too.",
            ),
        ];
        let index = Index::build(&docs);
        let hits = index.search("translate", 3);
        assert_eq!(hits[0].doc, 1, "{hits:?}");
        assert_eq!(hits.len(), 3);

        // Same text, one document carries the word in its name: the name wins.
        let docs = vec![
            doc("helper", "Currency converter."),
            doc("currency_converter", "Converter."),
        ];
        assert_top(&docs, "currency", 2, 1);
    }

    #[test]
    fn rare_terms_outweigh_common_ones() {
        // "data" is everywhere, "earthquake" in one document.
        let docs = vec![
            doc("a", "data data data about the stock market"),
            doc("b", "data about earthquake alerts"),
            doc("c", "data for sports"),
            doc("d", "data on the weather"),
            doc("e", "data data on music"),
        ];
        let index = Index::build(&docs);
        let hits = index.search("earthquake data", 5);
        assert_eq!(hits[0].doc, 1, "{hits:?}");
        assert!(hits[0].score > 2.0 * hits[1].score, "{hits:?}");
    }

    #[test]
    fn matching_more_query_words_beats_matching_one() {
        let docs = vec![
            doc("maps", "Maps and directions."),
            doc(
                "restaurants",
                "Restaurant reviews and table booking near you.",
            ),
            doc("hotel", "Hotel booking."),
        ];
        assert_top(&docs, "book a table at a restaurant", 3, 1);
    }

    #[test]
    fn matched_lists_the_query_words_that_hit() {
        let docs = catalog();
        let index = Index::build(&docs);
        let hits = index.search("Searching for cheap FLIGHTS and the weather", 10);
        let flight = hits
            .iter()
            .find(|h| docs[h.doc].name == "flight_search")
            .expect("flight hit");
        assert_eq!(flight.matched, ["searching", "cheap", "flights"]);
        let weather = hits
            .iter()
            .find(|h| docs[h.doc].name == "weather_forecast")
            .expect("weather hit");
        assert_eq!(weather.matched, ["weather"]);
        assert!(hits.iter().all(|h| !h.matched.is_empty()));
    }

    #[test]
    fn stemming_matches_across_inflections() {
        let docs = vec![
            doc("", "Searches every dealer and ranks cars."),
            doc("", "Plays music."),
        ];
        let hits = Index::build(&docs).search("searching for a car", 5);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].doc, 0);
        assert_eq!(hits[0].matched, ["searching", "car"]);
    }

    #[test]
    fn prefix_matching_bridges_derivations_at_lower_weight() {
        let docs = vec![
            doc("", "Apartment rental listings."),
            doc("", "Rent a car."),
        ];
        let index = Index::build(&docs);
        // "rental" matches "rental" exactly and "rent" by prefix; the exact match ranks first.
        let hits = index.search("rental", 5);
        assert_eq!(
            hits.iter().map(|h| h.doc).collect::<Vec<_>>(),
            [0, 1],
            "{hits:?}"
        );
        assert!(hits[0].score > hits[1].score);
        // Without prefix matching only the exact one is found.
        let strict = Index::with_options(
            &docs,
            SearchOptions {
                prefix_weight: 0.0,
                ..Default::default()
            },
        );
        assert_eq!(strict.search("rental", 5).len(), 1);
    }

    #[test]
    fn limit_is_respected() {
        let docs: Vec<Document> = (0..50)
            .map(|i| doc(&format!("tool_{i}"), "search the web for pages"))
            .collect();
        let index = Index::build(&docs);
        assert_eq!(index.search("search", 5).len(), 5);
        assert_eq!(index.search("search", 50).len(), 50);
        assert_eq!(index.search("search", 500).len(), 50);
        assert!(index.search("search", 0).is_empty());
        assert_eq!(index.search("search", 1).len(), 1);
    }

    #[test]
    fn results_are_sorted_and_ties_go_to_the_earlier_document() {
        let docs: Vec<Document> = (0..20)
            .map(|_| doc("same", "identical description of a tool"))
            .collect();
        let index = Index::build(&docs);
        let hits = index.search("tool", 7);
        assert_eq!(
            hits.iter().map(|h| h.doc).collect::<Vec<_>>(),
            (0..7).collect::<Vec<_>>()
        );
        let docs = catalog();
        let hits = Index::build(&docs).search("news search for the world's cheap flights", 10);
        assert!(
            hits.windows(2).all(|w| w[0].score >= w[1].score),
            "{hits:?}"
        );
    }

    #[test]
    fn search_is_deterministic() {
        let docs = catalog();
        let first: Vec<Hit> = Index::build(&docs).search("find news about stock markets", 10);
        for _ in 0..5 {
            assert_eq!(
                Index::build(&docs).search("find news about stock markets", 10),
                first
            );
        }
        let index = Index::build(&docs);
        assert_eq!(index.search("find news about stock markets", 10), first);
        assert_eq!(
            index.clone().search("find news about stock markets", 10),
            first
        );
    }

    #[test]
    fn empty_and_stop_word_queries_return_nothing() {
        let index = Index::build(&catalog());
        for query in [
            "",
            "   ",
            "\n\t",
            "the",
            "can you do it for me",
            "?!,.",
            "😀😀",
            "'s",
        ] {
            assert!(index.search(query, 10).is_empty(), "query {query:?}");
        }
        // Words the index has never seen match nothing either.
        assert!(index.search("xylophone zeppelin", 10).is_empty());
    }

    #[test]
    fn index_can_be_shared_across_threads() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Index>();
        let summary = format!("{:?}", Index::build(&catalog()));
        assert!(summary.starts_with("Index { docs: 7, terms: "), "{summary}");
        let docs = catalog();
        let index = std::sync::Arc::new(Index::build(&docs));
        let expected = index.search("weather", 3);
        let handles: Vec<_> = (0..2)
            .map(|_| {
                let index = index.clone();
                std::thread::spawn(move || index.search("weather", 3))
            })
            .collect();
        for handle in handles {
            assert_eq!(handle.join().expect("thread"), expected);
        }
    }

    #[test]
    fn empty_index_is_safe() {
        let index = Index::build(&[]);
        assert!(index.is_empty());
        assert_eq!(index.len(), 0);
        assert!(index.search("anything", 10).is_empty());
        let blank = Index::build(&[Document::default(), doc("", "the of and")]);
        assert_eq!(blank.len(), 2);
        assert!(!blank.is_empty());
        assert!(blank.search("anything", 10).is_empty());
    }

    #[test]
    fn tags_count_between_name_and_text() {
        let mut tagged = doc("alpha", "A generic helper.");
        tagged.tags = vec!["finance".into(), "stocks".into()];
        let docs = vec![
            doc("beta", "A generic helper that also mentions finance."),
            tagged,
        ];
        assert_top(&docs, "finance", 2, 1);
    }

    #[test]
    fn unicode_documents_and_queries_are_safe() {
        let docs = vec![
            doc("天气", "天气预报 weather for 北京"),
            doc("café_finder", "Trouvez un café près de chez vous ☕"),
            doc("emoji", "🎉🎉🎉 party planner 🎈"),
            doc("", "Погода в Москве"),
            doc("", &"é\u{301}".repeat(1000)),
            doc("", ""),
        ];
        let index = Index::build(&docs);
        assert_eq!(index.search("北京天气", 3)[0].doc, 0);
        assert_eq!(index.search("CAFÉ", 3)[0].doc, 1);
        assert_eq!(index.search("party 🎉", 3)[0].doc, 2);
        assert_eq!(index.search("погода", 3)[0].doc, 3);
        for query in [
            "\u{0}",
            "\u{10ffff}",
            "e\u{301}",
            "İ",
            "ß",
            "\u{200d}",
            "a'b's'",
            "x".repeat(10_000).as_str(),
        ] {
            let _ = index.search(query, 5);
        }
    }

    #[test]
    fn huge_documents_and_queries_are_safe() {
        let long_text = "weather forecast rain snow wind ".repeat(20_000);
        let docs = vec![doc("weather", &long_text), doc("music", "songs")];
        let index = Index::build(&docs);
        assert_eq!(index.search("snow", 5)[0].doc, 0);
        let long_query = "songs and music and ".repeat(5_000);
        assert_eq!(index.search(&long_query, 5)[0].doc, 1);
    }

    #[test]
    fn hostile_options_do_not_break_scoring() {
        let docs = catalog();
        for options in [
            SearchOptions {
                k1: 0.0,
                b: 0.0,
                ..Default::default()
            },
            SearchOptions {
                k1: f32::NAN,
                b: f32::INFINITY,
                idf_power: f32::NAN,
                ..Default::default()
            },
            SearchOptions {
                k1: -1.0,
                b: -1.0,
                name_weight: 0.0,
                tag_weight: 0.0,
                ..Default::default()
            },
            SearchOptions {
                prefix_weight: f32::NAN,
                prefix_min_len: 0,
                prefix_max_extra: 100,
                ..Default::default()
            },
        ] {
            let index = Index::with_options(&docs, options);
            let hits = index.search("weather forecast", 3);
            assert!(
                hits.iter().all(|h| h.score.is_finite() && h.score > 0.0),
                "{hits:?}"
            );
            assert_eq!(hits.first().map(|h| h.doc), Some(0), "{hits:?}");
        }
    }
}
