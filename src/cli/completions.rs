//! `safari completions SHELL`: a completion script for the shell, from the clap definition.

use clap::CommandFactory;
use clap_complete::Shell;

use super::exit;

#[derive(clap::Args)]
pub struct Args {
    /// bash, zsh, fish, elvish or powershell.
    shell: Shell,
}

pub fn run<C: CommandFactory>(args: Args) -> u8 {
    let mut command = C::command();
    clap_complete::generate(args.shell, &mut command, "safari", &mut std::io::stdout());
    exit::OK
}
