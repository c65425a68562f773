//! `catalog-bundles LOCALES OUT`: checks the catalog and writes one bundle per language other
//! than English, `OUT/i18n-<language>.json`, pseudo-languages included. The release build runs
//! it (scripts/build-console.mjs); a missing key or a broken message fails the build.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use gifting_catalog::{bundle, check, pseudo, read_all, Pseudo};

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let [locales, out] = args.as_slice() else {
        eprintln!("usage: catalog-bundles LOCALES OUT");
        return ExitCode::from(2);
    };
    match write_bundles(locales, out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(problem) => {
            eprintln!("catalog-bundles: {problem}");
            ExitCode::FAILURE
        }
    }
}

fn write_bundles(locales: &Path, out: &Path) -> Result<(), String> {
    let all = read_all(locales)?;
    let source = &all[0];
    let problems: Vec<String> = all[1..].iter().flat_map(|c| check(source, c)).collect();
    if !problems.is_empty() {
        return Err(problems.join("\n"));
    }
    let pseudos = Pseudo::ALL.map(|kind| pseudo(source, kind));
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    for catalog in all[1..].iter().chain(&pseudos) {
        let path = out.join(format!("i18n-{}.json", catalog.language));
        std::fs::write(&path, bundle(source, catalog))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}
