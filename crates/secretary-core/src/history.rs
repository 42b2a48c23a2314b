//! The search index over users' past requests, shared by `search_requests` (and later the
//! `@secretary /search` prompt). Building it costs a pass over every request, so it is cached and
//! rebuilt only when the sessions change (the store's generation) or the scope changes.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use std::collections::HashMap;

use crate::search::answer_kind::AnswerKinds;
use crate::search::neighbours::{self, NeighbourSupport};
use crate::search::request_rerank::{Placement, RequestReranker};
use crate::search::soft_match::SoftMatch;
use crate::search::{when, Document, HybridHit, HybridIndex, HybridOptions, SearchOptions};
use crate::session::SessionStore;

/// One indexed request: which dialog and which request (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestRef {
    pub session_id: String,
    pub index: usize,
}

/// The requests of one scope, indexed.
#[derive(Debug)]
pub struct RequestIndex {
    pub refs: Vec<RequestRef>,
    pub index: HybridIndex,
    /// Each request's time (parallel to `refs`), for dates in queries.
    pub times: Vec<Option<i64>>,
    /// Each request's dialog (parallel to `refs`, a dialog's requests in order), for
    /// [`neighbours`] support.
    pub dialogs: Vec<u32>,
    /// A hash of each request's document (text and context), to recognise it in the next build.
    keys: Vec<u64>,
    /// How many requests the last full build (the one that set the token weights) indexed.
    fresh_len: usize,
    /// How many request vectors this build took from the previous index instead of embedding
    /// them again.
    pub reused: usize,
    generation: u64,
    workspace: Option<String>,
    semantic: bool,
}

/// The cosine a request with no query word in it needs to be returned at all. Higher than for
/// tools: a user's history is large and varied, and "No matching requests." must stay possible
/// for a query about something never discussed. 0.3 with the one-teacher table; the two-teacher
/// table spreads unrelated texts further apart, and 0.27 lets through about as many unrelated
/// requests as 0.3 did before (23% of question–request pairs of the natural set, 12% of the
/// paraphrase set; `docs/benchmarks.md`, issue 26, eleventh pass).
const MIN_SEMANTIC: f32 = 0.27;

/// Share of the semantic signal for requests, below tool search's: a request is long, uneven
/// prose (pasted code, logs), whose mean token vector says less than a tool description's does,
/// and people looking for what they said remember some of its words. Chosen on the `tune`
/// questions of the past-requests benchmark (`examples/eval_requests.rs`, `docs/benchmarks.md`).
const REQUEST_SEMANTIC_WEIGHT: f32 = 0.35;

/// The soft match of requests ([`crate::search::soft_match`]): the first 20 results reordered by
/// how well each query word is matched by a word of the request, cosines under 0.2 counting as
/// none, the first 64 distinct tokens of each request kept, the words that only frame a
/// question about the past left out. Chosen on the `tune` questions of the three past-request
/// sets (words, paraphrase, natural; `docs/benchmarks.md`, "Issue 26, fifth pass"): weights 0.3
/// to 1.0, depths 20 to 50 and 64 to all tokens were within a point of each other; depth 10
/// lost a point of turn hit@5.
const REQUEST_SOFT_MATCH: SoftMatch = SoftMatch {
    weight: 0.6,
    depth: 20,
    floor: 0.2,
    max_tokens: 64,
    skip_words: FRAME_WORDS,
};

/// How requests are ranked: the same hybrid engine as tool search (BM25 fused with the static
/// embeddings; past requests are prose too), or BM25 alone when the semantic setting is off.
/// Unlike tools, requests get textbook BM25 saturation and length normalisation (k1 1.2, b 0.75,
/// IDF once): their lengths range from three words to pasted files, and a long request that
/// mentions everything should not outrank a short one about the query. Each request carries its
/// neighbours as context ([`push_dialog_documents`]), and the first results are reordered by the
/// soft match ([`REQUEST_SOFT_MATCH`]), which long requests need, then by the answer kinds
/// ([`AnswerKinds::REQUESTS`]: a question about someone's "when" prefers a turn that says one).
/// For a question in the third person, [`rank_requests`] then gives neighbour support and the
/// request reranker ([`RequestReranker::requests`]) reorders the first 30.
pub fn request_options(semantic: bool) -> HybridOptions {
    let lexical = SearchOptions {
        k1: 1.2,
        b: 0.75,
        idf_power: 1.0,
        ..SearchOptions::default()
    };
    if semantic {
        HybridOptions {
            lexical,
            min_semantic: MIN_SEMANTIC,
            semantic_weight: REQUEST_SEMANTIC_WEIGHT,
            // Fitted on tools (names, descriptions); requests have neither.
            rerank: None,
            // Fitted on requests for tools, not questions about past requests.
            query_projection: None,
            soft_match: Some(REQUEST_SOFT_MATCH),
            answer_kinds: Some(AnswerKinds::REQUESTS),
            request_rerank: RequestReranker::requests(),
            ..HybridOptions::default()
        }
    } else {
        HybridOptions {
            lexical,
            ..HybridOptions::lexical_only()
        }
    }
}

/// A hash of what a request's vector is made of (its text and context): SipHash with fixed
/// keys, so two different requests share a key with odds of about one in 2^64.
fn document_key(doc: &Document) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    doc.text.hash(&mut h);
    doc.context.hash(&mut h);
    h.finish()
}

/// How many characters of the requests before a request go into its context, nearest first:
/// enough for the topic, not so much that a long pasted file next door drowns the request. In a
/// chat of short turns ("1:58:40, under two hours!") the topic was set a few turns back, so the
/// budget is in characters, not turns: a long request's context is the one request before it, a
/// short turn's reaches a few turns back.
const CONTEXT_BEFORE_CHARS: usize = 600;

/// How many characters of the one request after a request go into its context: what came next
/// says less about a request than what it answered.
const CONTEXT_AFTER_CHARS: usize = 300;

/// The searchable documents of one dialog's requests (`texts`, in order), appended to `docs`:
/// each request's text, with the requests around it as its context (see
/// [`Document::context`]): up to [`CONTEXT_BEFORE_CHARS`] of the ones before it, nearest
/// first, and up to [`CONTEXT_AFTER_CHARS`] of the one after. Shared with
/// `examples/eval_requests.rs`, so that what is measured is what the tool searches.
pub fn push_dialog_documents(texts: &[&str], docs: &mut Vec<Document>) {
    for i in 0..texts.len() {
        let mut context = String::new();
        push_around(&mut context, texts[..i].iter().rev(), CONTEXT_BEFORE_CHARS);
        push_around(
            &mut context,
            texts[i + 1..].iter().take(1),
            CONTEXT_AFTER_CHARS,
        );
        docs.push(Document {
            context,
            ..Document::new("", texts[i])
        });
    }
}

/// Appends `near` (nearest first) to `context`, one line each, until `budget` characters are
/// taken; the last one taken is cut at the budget. An empty request still takes one (its line):
/// otherwise a run of empty requests, which a session file may hold by the thousand, would be
/// walked and given a line in every later request's context, the index growing with the square
/// of the dialog.
fn push_around<'a>(context: &mut String, near: impl Iterator<Item = &'a &'a str>, budget: usize) {
    let mut left = budget;
    for text in near {
        if left == 0 {
            break;
        }
        let (cut, taken) = match text.char_indices().nth(left) {
            Some((at, _)) => (at, left),
            None => (text.len(), text.chars().count()),
        };
        context.push_str(&text[..cut]);
        context.push('\n');
        left -= taken.max(1);
    }
}

impl RequestIndex {
    /// Indexes every request of the available dialogs in `workspace` (`None`: all workspaces).
    pub fn build(store: &SessionStore, workspace: Option<&str>, semantic: bool) -> RequestIndex {
        RequestIndex::build_from(store, workspace, semantic, None)
    }

    /// Like [`RequestIndex::build`], reusing the vectors of `previous` for the requests it
    /// already indexed unchanged (same text, same neighbours), when `previous` is of the same
    /// scope and setting and the collection has not grown or shrunk by more than a quarter since
    /// its token weights were set (then everything is embedded afresh, so that the weights
    /// follow the collection). As sessions grow, only the new requests and the one before each
    /// (whose context changed) are embedded.
    pub fn build_from(
        store: &SessionStore,
        workspace: Option<&str>,
        semantic: bool,
        previous: Option<&RequestIndex>,
    ) -> RequestIndex {
        let mut refs = Vec::new();
        let mut times = Vec::new();
        let mut dialogs = Vec::new();
        let mut docs = Vec::new();
        for (number, entry) in store.entries().enumerate() {
            if !entry.available || (workspace.is_some() && entry.workspace.as_deref() != workspace)
            {
                continue;
            }
            let texts: Vec<&str> = entry
                .dialog
                .requests
                .iter()
                .map(|r| r.text.as_str())
                .collect();
            for request in &entry.dialog.requests {
                refs.push(RequestRef {
                    session_id: entry.dialog.session_id.clone(),
                    index: request.index,
                });
                times.push(request.timestamp);
                dialogs.push(number as u32);
            }
            push_dialog_documents(&texts, &mut docs);
        }
        let keys: Vec<u64> = docs.iter().map(document_key).collect();
        let previous = previous.filter(|p| {
            p.semantic == semantic
                && semantic
                && p.workspace.as_deref() == workspace
                && docs.len() * 4 <= p.fresh_len * 5
                && docs.len() * 4 >= p.fresh_len * 3
        });
        let (index, fresh_len, reused) = match previous {
            Some(p) => {
                let rows: HashMap<u64, u32> = p
                    .keys
                    .iter()
                    .enumerate()
                    .map(|(row, &key)| (key, row as u32))
                    .collect();
                let reuse: Vec<Option<u32>> = keys.iter().map(|k| rows.get(k).copied()).collect();
                let reused = reuse.iter().flatten().count();
                (
                    HybridIndex::rebuild(&p.index, &docs, &reuse),
                    p.fresh_len,
                    reused,
                )
            }
            None => (
                HybridIndex::with_options(&docs, request_options(semantic)),
                docs.len(),
                0,
            ),
        };
        RequestIndex {
            refs,
            index,
            times,
            dialogs,
            keys,
            fresh_len,
            reused,
            generation: store.generation(),
            workspace: workspace.map(str::to_owned),
            semantic,
        }
    }
}

impl RequestIndex {
    /// The best `want` requests for `query`, best first, each with whether it falls in the
    /// time the query names (see [`rank_with_dates`]).
    pub fn search(&self, query: &str, want: usize) -> Vec<(HybridHit, bool)> {
        self.search_among(query, want, &|_| true, None)
    }

    /// Like [`RequestIndex::search`], among the requests `keep` accepts (by document: an index
    /// into `refs`) alone: neighbour support is then given within them, whatever ranks above
    /// them elsewhere. `now` is the host's clock, if it has one ([`Layout::now`]).
    pub fn search_among(
        &self,
        query: &str,
        want: usize,
        keep: &dyn Fn(usize) -> bool,
        now: Option<i64>,
    ) -> Vec<(HybridHit, bool)> {
        let layout = Layout {
            times: &self.times,
            dialogs: &self.dialogs,
            keep,
            now,
        };
        rank_requests(&self.index, &layout, query, want)
    }
}

/// Where each indexed request sits, parallel to the index's documents: its time, its dialog
/// (a dialog's requests are consecutive documents, in order), and whether the search may
/// return it.
pub struct Layout<'a> {
    pub times: &'a [Option<i64>],
    pub dialogs: &'a [u32],
    pub keep: &'a dyn Fn(usize) -> bool,
    /// The host's clock, when it has one. A time in a query is read relative to the newest
    /// request; with a clock, a request timed more than [`CLOCK_SKEW_MS`] after it cannot be
    /// the newest, so that one session file with a date years ahead (a wrong clock, or planted)
    /// does not leave "yesterday" and "last week" of every dialog empty.
    pub now: Option<i64>,
}

/// How far after the host's clock a request may be timed and still count as the newest: the
/// machine that wrote a session (a remote one, a container) may run a little ahead.
pub const CLOCK_SKEW_MS: i64 = 86_400_000;

/// Ranks requests for a query that may name a time ("docker last week", "in May"): the time
/// expression is taken out of the query ([`when::parse`], relative to the newest request, the
/// core having no clock); the requests of that time that match the rest come first (every one
/// of them scored, [`HybridIndex::search_within`]), then the other matches. A query that is
/// only a time ("what did I ask yesterday") lists that time's requests, newest first. The flag
/// says whether a hit falls in the time named. Only documents `layout.keep` accepts are
/// returned; for a question in the third person, each list of them is reordered by
/// [`neighbours`] support before it is cut to `want`.
pub fn rank_requests(
    index: &HybridIndex,
    layout: &Layout,
    query: &str,
    want: usize,
) -> Vec<(HybridHit, bool)> {
    let times = layout.times;
    // Read once: the gate of neighbour support reads the whole query (its time words too).
    let third_person = neighbours::third_person_question(query);
    let Some(dated) = time_named(query, times, layout.now) else {
        let asked = Asked {
            index,
            query,
            third_person,
            reranker: index.options().request_rerank,
        };
        return supported(layout, &asked, want, |n| index.search(query, n))
            .into_iter()
            .map(|hit| (hit, false))
            .collect();
    };
    let in_span = |doc: usize| {
        times
            .get(doc)
            .copied()
            .flatten()
            .is_some_and(|t| dated.span.contains(t))
    };
    if !has_topic(&dated.rest) {
        // Only a time: that time's requests, newest first.
        let mut inside: Vec<(i64, usize)> = times
            .iter()
            .enumerate()
            .filter(|&(d, _)| (layout.keep)(d))
            .filter_map(|(d, t)| t.filter(|&t| dated.span.contains(t)).map(|t| (t, d)))
            .collect();
        inside.sort_unstable_by(|a, b| b.cmp(a));
        return inside
            .into_iter()
            .take(want)
            .map(|(_, doc)| (HybridHit::bare(doc, 0.0), true))
            .collect();
    }
    // The index searches what is left of the query once the time is taken out. The request
    // reranker was fitted on questions that name no time (their one list of candidates), so a
    // dated question's two lists keep the order support gives them.
    let asked = Asked {
        index,
        query,
        third_person,
        reranker: None,
    };
    let mut out: Vec<(HybridHit, bool)> = supported(layout, &asked, want, |n| {
        index.search_within(&dated.rest, n, in_span)
    })
    .into_iter()
    .map(|hit| (hit, true))
    .collect();
    if out.len() < want {
        let more = supported(layout, &asked, want + out.len(), |n| {
            index.search(&dated.rest, n)
        });
        out.extend(
            more.into_iter()
                .filter(|hit| !in_span(hit.doc))
                .map(|hit| (hit, false)),
        );
        out.truncate(want);
    }
    out
}

/// What the request reranker is given for `query` over every request: the first
/// [`RequestReranker::DEPTH`] results as neighbour support leaves them, the order
/// [`rank_requests`] hands the reranker; `None` for a query it never sees (one naming a time, or
/// not in the third person). `examples/eval_requests.rs --dump-request-features` fits it on
/// these, so the reranker is fitted on exactly the questions and candidates it is given.
pub fn rerank_candidates(
    index: &HybridIndex,
    times: &[Option<i64>],
    dialogs: &[u32],
    query: &str,
) -> Option<Vec<HybridHit>> {
    if time_named(query, times, None).is_some() || !neighbours::third_person_question(query) {
        return None;
    }
    let layout = Layout {
        times,
        dialogs,
        keep: &|_| true,
        now: None,
    };
    let asked = Asked {
        index,
        query,
        third_person: true,
        reranker: None,
    };
    Some(supported(&layout, &asked, RequestReranker::DEPTH, |n| {
        index.search(query, n)
    }))
}

/// The time `query` names ([`when::parse`]), relative to the newest of `times` (the core has no
/// clock) not later than [`CLOCK_SKEW_MS`] after `now`, the host's clock if it gave one: what
/// [`rank_requests`] and [`rerank_candidates`] both read a query's time by.
fn time_named(query: &str, times: &[Option<i64>], now: Option<i64>) -> Option<when::DatedQuery> {
    let latest = now.map_or(i64::MAX, |now| now.saturating_add(CLOCK_SKEW_MS));
    let anchor = times
        .iter()
        .flatten()
        .copied()
        .filter(|&t| t <= latest)
        .max()?;
    when::parse(query, anchor)
}

/// [`rank_requests`] over every request.
pub fn rank_with_dates(
    index: &HybridIndex,
    times: &[Option<i64>],
    dialogs: &[u32],
    query: &str,
    want: usize,
) -> Vec<(HybridHit, bool)> {
    let layout = Layout {
        times,
        dialogs,
        keep: &|_| true,
        now: None,
    };
    rank_requests(index, &layout, query, want)
}

/// A query as [`supported`] needs it: the index it searches, the whole question, whether it is
/// in the third person (read once), and the request reranker to give it, if any.
struct Asked<'a> {
    index: &'a HybridIndex,
    query: &'a str,
    third_person: bool,
    reranker: Option<RequestReranker>,
}

/// The first `want` of `search`'s results that `layout.keep` accepts. For a question in the
/// third person, `search` is asked for enough results to support, and they are reordered by
/// [`neighbours`] support, then by the request reranker where `asked` has one
/// ([`HybridOptions::request_rerank`]) and the results are of more than one dialog: among one
/// dialog's requests alone (a session filter) its features of a dialog among the others say
/// nothing it was fitted on.
fn supported(
    layout: &Layout,
    asked: &Asked,
    want: usize,
    search: impl FnOnce(usize) -> Vec<HybridHit>,
) -> Vec<HybridHit> {
    let support = NeighbourSupport::REQUESTS;
    let third_person = asked.third_person && want > 0;
    let mut hits = search(if third_person {
        want.max(support.depth)
    } else {
        want
    });
    hits.retain(|hit| (layout.keep)(hit.doc));
    if third_person {
        neighbours::apply(&support, layout.dialogs, &mut hits);
        if let Some(reranker) = asked.reranker {
            let head = &hits[..hits.len().min(reranker.depth)];
            let dialog = |hit: &HybridHit| layout.dialogs.get(hit.doc);
            let apart = head
                .first()
                .is_some_and(|first| head.iter().any(|h| dialog(h) != dialog(first)));
            if apart {
                let placement = Placement {
                    dialogs: layout.dialogs,
                    times: layout.times,
                };
                reranker.apply(asked.index, placement, asked.query, &mut hits);
            }
        }
    }
    hits.truncate(want);
    hits
}

/// Words of a question about the past that say nothing of its topic ("what did I ask
/// yesterday", "what did the user ask about"): a dated query made only of these lists that
/// time's requests, and the soft match leaves them out of the query.
const FRAME_WORDS: &[&str] = &[
    "what",
    "which",
    "did",
    "do",
    "i",
    "me",
    "my",
    "you",
    "we",
    "us",
    "ask",
    "asked",
    "say",
    "said",
    "tell",
    "told",
    "request",
    "requests",
    "requested",
    "talk",
    "talked",
    "about",
    "discuss",
    "discussed",
    "write",
    "wrote",
    "mention",
    "mentioned",
    "the",
    "that",
    "this",
    "thing",
    "things",
    "conversation",
    "conversations",
    "chat",
    "chats",
    "dialog",
    "dialogs",
    "was",
    "were",
    "it",
    "a",
    "an",
    "of",
    "from",
    "show",
    "list",
    "find",
    "all",
    "everything",
    "anything",
    "something",
    "work",
    "worked",
    "on",
    "in",
    "at",
    "for",
    "with",
    "to",
    "and",
    "user",
    "users",
];

/// Whether `text` has a word other than [`FRAME_WORDS`].
fn has_topic(text: &str) -> bool {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .any(|w| !FRAME_WORDS.contains(&w.to_lowercase().as_str()))
}

/// A one-entry cache of the [`RequestIndex`] (hosts serve one workspace at a time).
#[derive(Debug, Default)]
pub struct HistoryCache {
    cached: RefCell<Option<Rc<RequestIndex>>>,
    /// `true` unless the semantic setting turned it off (see [`HistoryCache::set_semantic`]).
    lexical_only: Cell<bool>,
}

impl HistoryCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// Turns the semantic signal of request search on or off (setting
    /// `copilotChatSecretary.search.semantic`); the next search rebuilds the index.
    pub fn set_semantic(&self, on: bool) {
        self.lexical_only.set(!on);
    }

    /// Whether request search fuses the semantic signal.
    pub fn is_semantic(&self) -> bool {
        !self.lexical_only.get()
    }

    /// The index for this store state and scope, built if the cached one is stale.
    pub fn get(&self, store: &SessionStore, workspace: Option<&str>) -> Rc<RequestIndex> {
        let mut cached = self.cached.borrow_mut();
        if let Some(index) = cached.as_ref() {
            if index.generation == store.generation()
                && index.workspace.as_deref() == workspace
                && index.semantic == self.is_semantic()
            {
                return Rc::clone(index);
            }
        }
        let fresh = Rc::new(RequestIndex::build_from(
            store,
            workspace,
            self.is_semantic(),
            cached.as_deref(),
        ));
        *cached = Some(Rc::clone(&fresh));
        fresh
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::search::request_rerank::testing;

    /// Thousands of empty requests (a session file may hold them) take one character each of
    /// the context budget: every request's context stays within the budgets, where it used to
    /// hold a line for every empty request before it (the index growing with the square of
    /// the dialog: 2.26 GB for 64,000 empty requests).
    #[test]
    fn empty_requests_do_not_grow_the_context_of_those_after_them() {
        let mut texts = vec![""; 5_000];
        texts.push("the last request");
        let mut docs = Vec::new();
        push_dialog_documents(&texts, &mut docs);
        let bound = CONTEXT_BEFORE_CHARS + CONTEXT_AFTER_CHARS + 2;
        let longest = docs.iter().map(|d| d.context.len()).max();
        assert_eq!(docs.len(), 5_001);
        assert!(longest <= Some(bound), "{longest:?} > {bound}");
        // What the budget is for is unchanged: the requests before, nearest first.
        let texts = ["first", "", "second", "third"];
        let mut docs = Vec::new();
        push_dialog_documents(&texts, &mut docs);
        assert_eq!(docs[3].context, "second\n\nfirst\n");
        assert_eq!(docs[0].context, "\n");
    }

    /// 60 requests of dialog 0 rank above those of dialog 1 (documents 60 to 65). Searching
    /// among dialog 1's alone (a session filter), support is given among them: document 62 sits
    /// beside dialog 1's best (61) and passes 65, though all of them are past the first 50 of
    /// all.
    #[test]
    fn support_is_given_among_the_requests_kept() {
        let mut dialogs = vec![0u32; 60];
        dialogs.extend([1; 6]);
        let times = vec![None; dialogs.len()];
        let in_dialog_1 = |doc: usize| doc >= 60;
        let layout = Layout {
            times: &times,
            dialogs: &dialogs,
            keep: &in_dialog_1,
            now: None,
        };
        let search = |n: usize| -> Vec<HybridHit> {
            let mut hits: Vec<HybridHit> = (0..60)
                .map(|d| HybridHit::bare(d, 10.0 - d as f32 * 0.01))
                .collect();
            hits.extend(
                [(61, 2.0), (65, 1.9), (62, 1.8), (60, 0.2)].map(|(d, s)| HybridHit::bare(d, s)),
            );
            hits.truncate(n);
            hits
        };
        // No request reranker: this is support alone.
        let index = HybridIndex::with_options(&[], HybridOptions::lexical_only());
        let order = |query: &str| -> Vec<usize> {
            let asked = Asked {
                index: &index,
                query,
                third_person: neighbours::third_person_question(query),
                reranker: None,
            };
            supported(&layout, &asked, 66, search)
                .iter()
                .map(|h| h.doc)
                .collect()
        };
        // Over dialog 1's best (2.0): 62 0.9 + 0.25 (61), 65 0.95 (no neighbour among them).
        assert_eq!(order("sam bike ride"), [61, 65, 62, 60]);
        assert_eq!(order("What did I say?"), [61, 65, 62, 60]);
        assert_eq!(order("Where did Sam ride?"), [61, 62, 65, 60]);
    }

    /// The request reranker runs for an undated question in the third person over several
    /// dialogs, and not among one dialog's requests (a session filter) or for a question that
    /// names a time, which it was not fitted on.
    #[test]
    fn the_request_reranker_is_given_what_it_was_fitted_on() {
        let (docs, dialogs, times) = bike_sessions();
        let (with, without) = with_and_without(&docs, first_goes_last());
        let order = |index: &HybridIndex, query: &str, keep: &dyn Fn(usize) -> bool| {
            let layout = Layout {
                times: &times,
                dialogs: &dialogs,
                keep,
                now: None,
            };
            let hits = rank_requests(index, &layout, query, 10);
            hits.iter().map(|(h, _)| h.doc).collect::<Vec<usize>>()
        };
        let all = |_: usize| true;
        let second_only = |d: usize| d >= 3;
        let question = "Where did Sam ride the bike?";
        assert_ne!(
            order(&with, question, &all),
            order(&without, question, &all)
        );
        assert_eq!(
            order(&with, question, &second_only),
            order(&without, question, &second_only)
        );
        let dated = "Where did Sam ride the bike since March?";
        assert_eq!(order(&with, dated, &all), order(&without, dated, &all));
    }

    /// What `eval_requests --dump-request-features` fits the reranker on is what the search
    /// gives it: the same candidates in the same order, and no question the search keeps from
    /// it (one naming a time, one in the first person).
    #[test]
    fn rerank_candidates_are_what_the_reranker_is_given() {
        let (docs, dialogs, times) = bike_sessions();
        let reranker = first_goes_last();
        let (with, without) = with_and_without(&docs, reranker);
        let question = "Where did Sam ride the bike?";
        let mut given = rerank_candidates(&without, &times, &dialogs, question).expect("taken");
        assert!(given.len() > 1);
        let placement = Placement {
            dialogs: &dialogs,
            times: &times,
        };
        reranker.apply(&with, placement, question, &mut given);
        let searched = rank_with_dates(&with, &times, &dialogs, question, RequestReranker::DEPTH);
        let docs_of = |hits: Vec<HybridHit>| hits.iter().map(|h| h.doc).collect::<Vec<_>>();
        assert_eq!(
            docs_of(given),
            docs_of(searched.into_iter().map(|(h, _)| h).collect())
        );
        for kept_from_it in [
            "Where did Sam ride the bike since March?",
            "Where did I ride the bike?",
        ] {
            assert!(rerank_candidates(&without, &times, &dialogs, kept_from_it).is_none());
        }
    }

    /// Two sessions of Sam and Nora about a bike, in March and April 2024.
    fn bike_sessions() -> (Vec<Document>, Vec<u32>, Vec<Option<i64>>) {
        let sessions: [&[&str]; 2] = [
            &[
                "Sam: I rode the new bike to Sauvie Island.",
                "Nora: How far?",
                "Sam: 50 km.",
            ],
            &[
                "Sam: The bike is in the shop.",
                "Nora: Again?",
                "Sam: A flat tyre on the bike.",
            ],
        ];
        testing::sessions(&sessions, 1_709_251_200_000, 31 * 86_400_000)
    }

    /// One stump that sends the first result (rank feature 1) below the others: whether the
    /// reranker ran shows in the order.
    fn first_goes_last() -> RequestReranker {
        RequestReranker {
            depth: RequestReranker::DEPTH,
            model: testing::stump("rank", 0.75, 1.0, -1.0),
        }
    }

    /// Indexes of `docs` with `reranker` and with no request reranker.
    fn with_and_without(
        docs: &[Document],
        reranker: RequestReranker,
    ) -> (HybridIndex, HybridIndex) {
        let with = HybridOptions {
            request_rerank: Some(reranker),
            ..request_options(true)
        };
        let without = HybridOptions {
            request_rerank: None,
            ..request_options(true)
        };
        (
            HybridIndex::with_options(docs, with),
            HybridIndex::with_options(docs, without),
        )
    }
}
