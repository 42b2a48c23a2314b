//! Any bytes, under every kind of file name, into `parse` and `response_details`: never a panic,
//! whatever is read is consistent, and the byte-level fast paths read exactly what the serde
//! visitors alone read (`parse_with_visitors`).
#![no_main]

// The file names the property tests try every input under, so both reach the same readers.
#[path = "../../crates/secretary-core/tests/common/file_names.rs"]
mod file_names;

use file_names::NAMES;
use libfuzzer_sys::fuzz_target;
use secretary_core::session::{parse, parse_with_visitors, response_details};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let name = NAMES[selector as usize % NAMES.len()];
    let parsed = parse(name, bytes);
    assert_eq!(parsed, parse_with_visitors(name, bytes));
    match parsed {
        Ok(dialog) => {
            for (i, request) in dialog.requests.iter().enumerate() {
                assert_eq!(request.index, i + 1);
            }
            for index in [0, 1, dialog.requests.len(), dialog.requests.len() + 1] {
                let _ = response_details(name, bytes, index);
            }
        }
        Err(error) => {
            assert!(!error.to_string().is_empty());
        }
    }
});
