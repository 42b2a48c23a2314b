//! Prints the generated `contributes.languageModelTools` array; `scripts/gen-manifest` splices it
//! into `package.json`.
fn main() {
    let tools = secretary_core::registry::language_model_tools();
    println!(
        "{}",
        serde_json::to_string_pretty(&tools).unwrap_or_default()
    );
}
