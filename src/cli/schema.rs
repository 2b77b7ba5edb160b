//! `safari schema DIR`: write the JSON Schemas of the content files (editors such as taplo
//! use them for completion and checking). The checked-in copies in schema/ come from here.

use std::path::PathBuf;

use super::exit;

#[derive(clap::Args)]
pub struct Args {
    /// The folder to write into.
    #[arg(default_value = "schema")]
    dir: PathBuf,
}

pub fn run(args: Args) -> u8 {
    if let Err(err) = crate::output::create_dir_all(&args.dir) {
        super::error(&err.message);
        return exit::FAILURE;
    }
    for (name, text) in crate::schemas() {
        let path = args.dir.join(name);
        if let Err(err) = crate::output::write_atomically(&path, text.as_bytes()) {
            super::error(&err.message);
            return exit::FAILURE;
        }
        println!("wrote {}", path.display());
    }
    exit::OK
}
