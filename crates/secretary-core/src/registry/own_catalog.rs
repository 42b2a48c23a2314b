//! The discovery catalog over every tool: the constructors that give `toolkit::catalog::Catalog`
//! the Secretary's own tools (`crate::tools::ALL`), which the catalog's own layer cannot name.

use crate::toolkit::catalog::{Catalog, CatalogTool};

impl Default for Catalog {
    fn default() -> Self {
        Catalog::new("", Vec::new(), &[])
    }
}

impl Catalog {
    /// A catalog of the Secretary's own tools (named `own_prefix` + plain name, as the host
    /// registers them) and the host's `external` tools. Own tools that are not deferred start
    /// active; deferred ones and external ones start inactive unless `external[i].active`.
    /// `legacy_prefixes` are old prefixes (e.g. `go_ent_`) whose names answer with a rename.
    pub fn new(
        own_prefix: &str,
        external: Vec<CatalogTool>,
        legacy_prefixes: &[String],
    ) -> Catalog {
        Catalog::excluding(own_prefix, external, legacy_prefixes, &[])
    }

    /// [`Catalog::new`] without the own tools named in `excluded` (plain names): a host that
    /// does not offer a tool keeps it out of discovery and refuses calls to it.
    pub fn excluding(
        own_prefix: &str,
        external: Vec<CatalogTool>,
        legacy_prefixes: &[String],
        excluded: &[String],
    ) -> Catalog {
        Catalog::assemble(
            crate::tools::ALL,
            own_prefix,
            external,
            legacy_prefixes,
            excluded,
            true,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolkit::catalog::{CatalogTool, Resolved};

    fn external(name: &str, description: &str) -> CatalogTool {
        CatalogTool {
            name: name.into(),
            description: description.into(),
            input_schema: None,
            tags: vec![],
            source: Some("ext".into()),
            category: None,
            keywords: vec![],
            active: false,
            own: None,
        }
    }

    #[test]
    fn own_tools_are_named_with_the_host_prefix_and_active_unless_deferred() {
        let catalog = Catalog::new("chat_secretary_", vec![], &[]);
        assert!(catalog.is_active("chat_secretary_get_request"));
        assert!(
            matches!(catalog.resolve("get_request"), Resolved::Found(_, t) if t.name == "chat_secretary_get_request")
        );
    }

    #[test]
    fn duplicates_and_blank_names_from_the_host_are_dropped() {
        let catalog = Catalog::new(
            "chat_secretary_",
            vec![
                external("chat_secretary_get_request", "dup"),
                external(" ", "blank"),
                external("a", "x"),
                external("a", "y"),
            ],
            &[],
        );
        assert_eq!(catalog.tools().iter().filter(|t| t.name == "a").count(), 1);
        assert_eq!(
            catalog
                .tools()
                .iter()
                .filter(|t| t.name == "chat_secretary_get_request")
                .count(),
            1
        );
        assert!(catalog.tools().iter().all(|t| !t.name.trim().is_empty()));
    }

    #[test]
    fn legacy_prefixes_answer_with_the_new_name() {
        let catalog = Catalog::new("secretary_", vec![], &["go_ent_".to_string()]);
        match catalog.resolve("go_ent_get_request") {
            Resolved::Renamed { new_name, .. } => assert_eq!(new_name, "secretary_get_request"),
            other => panic!("{other:?}"),
        }
        match catalog.resolve("copilot_chat_secretary_get_request") {
            Resolved::Renamed { new_name, .. } => assert_eq!(new_name, "secretary_get_request"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn new_external_tools_keep_the_active_set_for_tools_still_present() {
        let catalog = Catalog::new(
            "p_",
            vec![external("a", "alpha"), external("b", "beta")],
            &[],
        );
        let (Resolved::Found(a, _), Resolved::Found(b, _)) =
            (catalog.resolve("a"), catalog.resolve("b"))
        else {
            panic!("both exist")
        };
        catalog.activate(&[a, b]);
        let next = catalog.with_external(vec![external("a", "alpha")]);
        assert!(next.is_active("a"));
        assert!(!next.is_active("b"));
    }

    #[test]
    fn closest_names_fall_back_to_edit_distance() {
        let catalog = Catalog::new(
            "p_",
            vec![
                external("read_file", "Read a file"),
                external("grep_search", "Search text"),
            ],
            &[],
        );
        assert_eq!(
            catalog.closest("raed_fiel", 1),
            vec!["read_file".to_string()]
        );
    }
}
