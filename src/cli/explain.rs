//! `safari explain CODE`: the long form of a diagnostic, like `rustc --explain`.

use super::exit;
use crate::diag::Code;

#[derive(clap::Args)]
pub struct Args {
    /// A diagnostic code such as SZ0401; without one, list every code.
    code: Option<String>,
}

pub fn run(args: Args) -> u8 {
    match args.code {
        None => {
            let list: String = Code::ALL
                .iter()
                .map(|code| format!("{code}  {}\n", code.title()))
                .collect();
            super::print_out(list);
            exit::OK
        }
        Some(text) => match text.parse::<Code>() {
            Ok(code) => {
                super::print_out(explanation(code));
                exit::OK
            }
            Err(()) => {
                super::error(format_args!(
                    "`{text}` is not a diagnostic code; `safari explain` lists them all"
                ));
                exit::FAILURE
            }
        },
    }
}

pub fn explanation(code: Code) -> String {
    let example: String = code
        .example()
        .lines()
        .map(|line| format!("    {line}\n"))
        .collect();
    format!(
        "{code}: {}\n\n{}\n\nExample:\n\n{example}",
        code.title(),
        textwrap(code.explanation(), 90)
    )
}

fn textwrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out
}
