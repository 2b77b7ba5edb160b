//! `safari schema DIR`: write the JSON Schemas of the content files (editors such as taplo
//! use them for completion and checking). The checked-in copies in schema/ come from here.

use std::path::PathBuf;

use super::exit;

#[derive(clap::Args)]
pub struct Args {
    /// The folder to write into (default: schema, in the working folder; a link there is
    /// followed only when named).
    dir: Option<PathBuf>,
}

pub fn run(args: Args) -> u8 {
    let named = args.dir.is_some();
    let dir = args.dir.unwrap_or_else(|| PathBuf::from("schema"));
    let dir = match crate::output::resolve_folder(&dir, named) {
        Ok(dir) => dir,
        Err(err) => {
            super::error(&err.message);
            return exit::FAILURE;
        }
    };
    if let Err(err) = crate::output::create_dir_all(&dir) {
        super::error(&err.message);
        return exit::FAILURE;
    }
    for (name, text) in crate::schemas() {
        let path = dir.join(name);
        if let Err(err) = crate::output::write_atomically(&path, text.as_bytes()) {
            super::error(&err.message);
            return exit::FAILURE;
        }
        println!("wrote {}", path.display());
    }
    exit::OK
}
