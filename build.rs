//! Compiles the message catalog's English into the console (`src/i18n`): the keys become an
//! enum and typed functions, so a key or an argument that does not exist fails the build.

use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=locales");
    let source = gifting_catalog::read_language(Path::new("locales/en"))
        .unwrap_or_else(|problem| panic!("the English catalog: {problem}"));
    let out =
        Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("messages.rs");
    std::fs::write(&out, gifting_catalog::rust_source(&source))
        .unwrap_or_else(|e| panic!("{}: {e}", out.display()));
}
