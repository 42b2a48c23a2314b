//! The tool catalog behind tool discovery: every tool an agent could use (the Secretary's own and
//! the host's others: built-in, other extensions, MCP servers), a TF-IDF index over them, and the
//! set of active tools. The host supplies the external tools; the core owns the index and the
//! rules (validation, idempotent all-or-nothing loading, renames).
//!
//! The catalog is given the Secretary's own tools ([`Catalog::assemble`]); the registry's
//! constructors (`Catalog::new`, in `crate::registry::catalog`) give it every tool, so this layer
//! never names the tool list.

use std::cell::{OnceCell, RefCell};
use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{description, lookup_in, Lookup, ToolDef};
use crate::search::hybrid::{HybridHit, HybridIndex, HybridOptions};
use crate::search::Document;

/// Where the Secretary's own tools come from, as a catalog `source`.
pub const OWN_SOURCE: &str = "copilot-chat-secretary";

/// One tool of the catalog, as hosts send it (`[{name, description, inputSchema?, tags?, ...}]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogTool {
    /// The name the host calls it by.
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Which extension or MCP server provides it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub category: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keywords: Vec<String>,
    /// Active tools are callable now; the others need `tool_load` first.
    #[serde(default)]
    pub active: bool,
    /// The plain name when this is one of the Secretary's own tools.
    #[serde(skip)]
    pub own: Option<&'static str>,
}

/// What a name given by an agent refers to in the catalog.
#[derive(Debug)]
pub enum Resolved<'a> {
    Found(usize, &'a CatalogTool),
    Renamed { old: String, new_name: String },
    Unknown,
}

/// The catalog and its index. `active` sits in a `RefCell` because loading is the one mutation
/// tools make, and tools only borrow their context.
#[derive(Debug)]
pub struct Catalog {
    tools: Vec<CatalogTool>,
    /// Lexical TF-IDF fused with the static-embedding signal (or lexical only, see
    /// [`Catalog::set_semantic`]), built on the first search: a host that never searches its
    /// tools (most calls recall dialogs) does not pay for embedding them, nor for parsing the
    /// embedding table.
    index: OnceCell<HybridIndex>,
    semantic: bool,
    active: RefCell<BTreeSet<String>>,
    /// The Secretary's own tools this catalog was built from (every tool, from the registry).
    own_tools: &'static [&'static ToolDef],
    own_prefix: String,
    legacy_prefixes: Vec<String>,
    /// Own tools (plain names) this host does not offer, e.g. `tool_call` over MCP, where the
    /// client calls its own tools.
    excluded: Vec<String>,
}

impl Catalog {
    /// A catalog of `own_tools` (named `own_prefix` + plain name, as the host registers them,
    /// less the example tools and those named in `excluded`) and the host's `external` tools, with
    /// the semantic signal on or off from the start (one index build, not two). Own tools that are
    /// not deferred start active; deferred ones and external ones start inactive unless
    /// `external[i].active`. `legacy_prefixes` are old prefixes (e.g. `go_ent_`) whose names
    /// answer with a rename.
    pub fn assemble(
        own_tools: &'static [&'static ToolDef],
        own_prefix: &str,
        external: Vec<CatalogTool>,
        legacy_prefixes: &[String],
        excluded: &[String],
        semantic: bool,
    ) -> Catalog {
        // Example tools are never discoverable: hosts offer them only by setting (see
        // `registry::run_tool`), and an included one is still callable by name.
        let own = own_tools
            .iter()
            .filter(|tool| !tool.spec.example)
            .filter(|tool| !excluded.iter().any(|name| name == tool.spec.name))
            .map(|tool| own_entry(own_prefix, tool));
        let mut tools: Vec<CatalogTool> = own.collect();
        let mut seen: BTreeSet<String> = tools.iter().map(|t| t.name.clone()).collect();
        for tool in external {
            // The host's listing includes our own tools too; the first (ours) wins.
            if !tool.name.trim().is_empty() && seen.insert(tool.name.clone()) {
                tools.push(CatalogTool { own: None, ..tool });
            }
        }
        let active = tools
            .iter()
            .filter(|t| t.active)
            .map(|t| t.name.clone())
            .collect();
        Catalog {
            tools,
            index: OnceCell::new(),
            semantic,
            active: RefCell::new(active),
            own_tools,
            own_prefix: own_prefix.to_string(),
            legacy_prefixes: legacy_prefixes
                .iter()
                .filter(|p| !p.is_empty())
                .cloned()
                .collect(),
            excluded: excluded.to_vec(),
        }
    }

    /// Whether this host leaves out the own tool `plain`.
    pub fn is_excluded(&self, plain: &str) -> bool {
        self.excluded.iter().any(|name| name == plain)
    }

    /// A catalog of only the given tools (no Secretary tools): for evaluating the search on a
    /// tool list of one's own.
    pub fn external_only(tools: Vec<CatalogTool>) -> Catalog {
        Catalog::external_only_with(tools, true)
    }

    /// [`Catalog::external_only`] with the semantic signal on or off: [`Catalog::assemble`] with
    /// no own tools (blank and repeated names dropped the same way).
    pub fn external_only_with(tools: Vec<CatalogTool>, semantic: bool) -> Catalog {
        Catalog::assemble(&[], "", tools, &[], &[], semantic)
    }

    /// The same catalog with new external tools; the active set is kept for tools still present.
    pub fn with_external(&self, external: Vec<CatalogTool>) -> Catalog {
        let kept = self.active.borrow().clone();
        let next = Catalog::assemble(
            self.own_tools,
            &self.own_prefix,
            external,
            &self.legacy_prefixes,
            &self.excluded,
            self.semantic,
        );
        next.active.borrow_mut().extend(
            kept.into_iter()
                .filter(|name| next.position(name).is_some()),
        );
        next
    }

    /// Turns the semantic signal on or off (setting `copilotChatSecretary.search.semantic`); off,
    /// ranking is pure TF-IDF. Rebuilds the index only when the choice changes.
    pub fn set_semantic(&mut self, on: bool) {
        if self.semantic != on {
            self.semantic = on;
            self.index = OnceCell::new();
        }
    }

    /// The search index, built on first use.
    fn index(&self) -> &HybridIndex {
        self.index
            .get_or_init(|| build_index(&self.tools, self.semantic))
    }

    pub fn is_semantic(&self) -> bool {
        self.semantic
    }

    pub fn tools(&self) -> &[CatalogTool] {
        &self.tools
    }

    pub fn len(&self) -> usize {
        self.tools.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    pub fn own_prefix(&self) -> &str {
        &self.own_prefix
    }

    pub fn is_active(&self, name: &str) -> bool {
        self.active.borrow().contains(name)
    }

    /// Active tools in catalog order.
    pub fn active_tools(&self) -> Vec<&CatalogTool> {
        let active = self.active.borrow();
        self.tools
            .iter()
            .filter(|t| active.contains(&t.name))
            .collect()
    }

    /// Ranked tools for a query; empty for a blank query.
    pub fn search(&self, query: &str, limit: usize) -> Vec<(HybridHit, &CatalogTool)> {
        self.index()
            .search(query, limit)
            .into_iter()
            .filter_map(|hit| self.tools.get(hit.doc).map(|tool| (hit, tool)))
            .collect()
    }

    /// Resolves a name as an agent may write it: the catalog name, an own tool's plain or
    /// VS Code name, or an old name (answered as a rename).
    pub fn resolve(&self, name: &str) -> Resolved<'_> {
        let name = name.trim();
        if let Some(i) = self.position(name) {
            return Resolved::Found(i, &self.tools[i]);
        }
        match lookup_in(self.own_tools, name) {
            Lookup::Found(def) => {
                if let Some(i) = self.position_of_own(def.spec.name) {
                    return Resolved::Found(i, &self.tools[i]);
                }
            }
            Lookup::Renamed { tool, .. } => {
                return Resolved::Renamed {
                    old: name.to_string(),
                    new_name: self.own_name(tool.spec.name),
                };
            }
            Lookup::Unknown => {}
        }
        for prefix in &self.legacy_prefixes {
            if let Some(plain) = name.strip_prefix(prefix.as_str()) {
                if self.position_of_own(plain).is_some() {
                    return Resolved::Renamed {
                        old: name.to_string(),
                        new_name: self.own_name(plain),
                    };
                }
            }
        }
        Resolved::Unknown
    }

    /// Activates tools by index; returns the names that were not active before.
    pub fn activate(&self, indexes: &[usize]) -> Vec<String> {
        let mut active = self.active.borrow_mut();
        indexes
            .iter()
            .filter_map(|&i| self.tools.get(i))
            .filter(|tool| active.insert(tool.name.clone()))
            .map(|tool| tool.name.clone())
            .collect()
    }

    /// Up to `n` catalog names closest to `name`, for "did you mean" errors: by lexical search
    /// rank (a mistyped name shares words, not meaning), then by edit distance.
    pub fn closest(&self, name: &str, n: usize) -> Vec<String> {
        let mut names: Vec<String> = self
            .index()
            .lexical()
            .search(name, n)
            .into_iter()
            .filter_map(|hit| self.tools.get(hit.doc))
            .map(|t| t.name.clone())
            .collect();
        if names.len() < n {
            let mut by_distance: Vec<(usize, &str)> = self
                .tools
                .iter()
                .map(|t| {
                    (
                        edit_distance(&name.to_lowercase(), &t.name.to_lowercase()),
                        t.name.as_str(),
                    )
                })
                .collect();
            by_distance.sort();
            for (_, candidate) in by_distance {
                if names.len() >= n {
                    break;
                }
                if !names.iter().any(|existing| existing == candidate) {
                    names.push(candidate.to_string());
                }
            }
        }
        names
    }

    /// The host name of an own tool.
    pub fn own_name(&self, plain: &str) -> String {
        format!("{}{plain}", self.own_prefix)
    }

    fn position(&self, name: &str) -> Option<usize> {
        self.tools.iter().position(|t| t.name == name)
    }

    fn position_of_own(&self, plain: &str) -> Option<usize> {
        self.tools.iter().position(|t| t.own == Some(plain))
    }
}

fn own_entry(prefix: &str, tool: &ToolDef) -> CatalogTool {
    let spec = &tool.spec;
    CatalogTool {
        name: format!("{prefix}{}", spec.name),
        description: description(spec),
        input_schema: Some((spec.schema)()),
        tags: spec.tags.iter().map(|t| t.to_string()).collect(),
        source: Some(OWN_SOURCE.to_string()),
        category: Some(
            if spec.deferred {
                "utility"
            } else {
                "chat history"
            }
            .to_string(),
        ),
        keywords: Vec::new(),
        active: !spec.deferred,
        own: Some(spec.name),
    }
}

fn build_index(tools: &[CatalogTool], semantic: bool) -> HybridIndex {
    let docs: Vec<Document> = tools.iter().map(document).collect();
    let options = if semantic {
        HybridOptions::default()
    } else {
        HybridOptions::lexical_only()
    };
    HybridIndex::with_options(&docs, options)
}

/// The searchable text of a tool: its name, its description's prose (the generated schema block
/// of own tools is left out: JSON noise would dilute the terms), tags, keywords and category.
fn document(tool: &CatalogTool) -> Document {
    let prose = match tool.description.find("\nInput schema:") {
        Some(cut) => &tool.description[..cut],
        None => tool.description.as_str(),
    };
    let mut tags = tool.tags.clone();
    tags.extend(tool.keywords.iter().cloned());
    tags.extend(tool.category.iter().cloned());
    Document {
        name: tool.name.clone(),
        text: prose.to_string(),
        tags,
        context: String::new(),
    }
}

/// How long the one-line descriptions `tool_find` and `tool_active` list may be.
pub const SHORT_DESCRIPTION_CHARS: usize = 160;

/// The first line of a description, at most `max` characters: what `tool_find` lists.
pub fn short_description(description: &str, max: usize) -> String {
    let first = description
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or_default();
    crate::text::truncate_chars(first, max)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_descriptions_take_the_first_line() {
        assert_eq!(
            short_description("\n  First line.\nSecond", 80),
            "First line."
        );
        assert_eq!(short_description(&"x".repeat(200), 10).chars().count(), 10);
    }

    /// Assembling, swapping external tools and switching semantic search build no index: the
    /// first search does (and the embedding table is parsed then, not when a host starts).
    #[test]
    fn the_index_is_built_on_the_first_search() {
        let tool = |name: &str| CatalogTool {
            name: name.into(),
            description: format!("{name} reads the files of a workspace"),
            input_schema: None,
            tags: Vec::new(),
            source: None,
            category: None,
            keywords: Vec::new(),
            active: false,
            own: None,
        };
        let mut catalog = Catalog::external_only(vec![tool("alpha"), tool("beta")]);
        assert!(catalog.index.get().is_none());
        assert_eq!(catalog.search("workspace files", 5).len(), 2);
        assert!(catalog.index.get().is_some());
        catalog.set_semantic(false);
        assert!(catalog.index.get().is_none());
        assert!(!catalog.closest("alpah", 1).is_empty());
        assert!(catalog.index.get().is_some());
        let next = catalog.with_external(vec![tool("gamma")]);
        assert!(next.index.get().is_none());
        assert_eq!(next.search("workspace", 5)[0].1.name, "gamma");
    }
}
