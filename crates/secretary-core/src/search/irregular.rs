//! Irregular English verbs (and a few nouns) mapped to their base form before stemming.
//!
//! The Snowball stemmer strips suffixes, so "searched" meets "search", but "went" never meets
//! "go" nor "ate" "eat". Questions about the past ask with the base form ("what did Sam eat",
//! "how did he break his arm") while the words they look for tell it in the past ("he ate half a
//! box", "Max broke his arm"). Only forms that are rarely another word are listed: "left",
//! "rose", "shot", "bit", "lit", "ground", "wound" and "bore" stay as they are, and so do the
//! ones a developer writes for something else: "found" ("file not found"), "led" (LED), "sat"
//! (a SAT solver), "saw" and "men" ("man page").

use std::sync::OnceLock;

use super::FastMap;

/// `(form, base)`, sorted by form (to spot repeats).
#[rustfmt::skip]
const FORMS: &[(&str, &str)] = &[
    ("arose", "arise"), ("ate", "eat"), ("awoke", "awake"), ("became", "become"),
    ("began", "begin"), ("begun", "begin"), ("bent", "bend"), ("bitten", "bite"),
    ("bled", "bleed"), ("blew", "blow"), ("blown", "blow"), ("bought", "buy"), ("bred", "breed"),
    ("broke", "break"), ("broken", "break"), ("brought", "bring"), ("built", "build"),
    ("burnt", "burn"), ("came", "come"), ("caught", "catch"), ("children", "child"),
    ("chose", "choose"), ("chosen", "choose"), ("clung", "cling"), ("crept", "creep"),
    ("dealt", "deal"), ("drank", "drink"), ("drawn", "draw"), ("dreamt", "dream"),
    ("drew", "draw"), ("driven", "drive"), ("drove", "drive"), ("drunk", "drink"), ("dug", "dig"),
    ("eaten", "eat"), ("fallen", "fall"), ("fed", "feed"), ("feet", "foot"), ("fell", "fall"),
    ("felt", "feel"), ("fled", "flee"), ("flew", "fly"), ("flown", "fly"),
    ("forbade", "forbid"), ("forbidden", "forbid"), ("forgave", "forgive"),
    ("forgiven", "forgive"), ("forgot", "forget"), ("forgotten", "forget"), ("fought", "fight"),
    ("froze", "freeze"), ("frozen", "freeze"), ("gave", "give"),
    ("given", "give"), ("gone", "go"), ("got", "get"), ("gotten", "get"), ("grew", "grow"),
    ("grown", "grow"), ("heard", "hear"), ("held", "hold"), ("hid", "hide"), ("hidden", "hide"),
    ("hung", "hang"), ("kept", "keep"), ("knelt", "kneel"), ("knew", "know"), ("known", "know"),
    ("laid", "lay"), ("leapt", "leap"), ("learnt", "learn"), ("lent", "lend"),
    ("lost", "lose"), ("made", "make"), ("meant", "mean"), ("met", "meet"),
    ("mice", "mouse"), ("paid", "pay"), ("ran", "run"), ("rang", "ring"), ("ridden", "ride"),
    ("risen", "rise"), ("rode", "ride"), ("rung", "ring"), ("said", "say"), ("sang", "sing"),
    ("sank", "sink"), ("seen", "see"), ("sent", "send"),
    ("shaken", "shake"), ("shook", "shake"), ("shown", "show"), ("shrank", "shrink"),
    ("slept", "sleep"), ("slid", "slide"), ("sold", "sell"), ("sought", "seek"),
    ("spent", "spend"), ("spoke", "speak"), ("spoken", "speak"), ("spun", "spin"),
    ("stole", "steal"), ("stolen", "steal"), ("stood", "stand"), ("struck", "strike"),
    ("stuck", "stick"), ("stung", "sting"), ("sung", "sing"), ("sunk", "sink"),
    ("swam", "swim"), ("swept", "sweep"), ("swore", "swear"), ("sworn", "swear"),
    ("swum", "swim"), ("swung", "swing"), ("taken", "take"), ("taught", "teach"),
    ("teeth", "tooth"), ("thought", "think"), ("threw", "throw"), ("thrown", "throw"),
    ("told", "tell"), ("took", "take"), ("tore", "tear"), ("torn", "tear"),
    ("understood", "understand"), ("went", "go"), ("wept", "weep"), ("woke", "wake"),
    ("woken", "wake"), ("women", "woman"), ("wore", "wear"), ("worn", "wear"),
    ("wove", "weave"), ("woven", "weave"), ("written", "write"), ("wrote", "write"),
];

/// The base form of an irregular `word` (lowercase), if it is one.
pub(crate) fn base(word: &str) -> Option<&'static str> {
    static MAP: OnceLock<FastMap<&'static str, &'static str>> = OnceLock::new();
    if !(2..=10).contains(&word.len()) {
        return None;
    }
    MAP.get_or_init(|| FORMS.iter().copied().collect())
        .get(word)
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_are_sorted_unique_and_not_stop_words() {
        for pair in FORMS.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{:?} before {:?}", pair[0], pair[1]);
        }
        for (form, base) in FORMS {
            assert!(!super::super::tokenize::is_stop_word(form), "{form}");
            assert!(!super::super::tokenize::is_stop_word(base), "{base}");
        }
    }

    #[test]
    fn maps_past_forms_only() {
        assert_eq!(base("went"), Some("go"));
        assert_eq!(base("ate"), Some("eat"));
        for other in ["left", "found", "led", "sat", "saw", "men", "rose"] {
            assert_eq!(base(other), None, "{other}");
        }
        assert_eq!(base("searched"), None);
    }
}
