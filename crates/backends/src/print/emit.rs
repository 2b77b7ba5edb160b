//! A build's print documents as plain Typst projects, for Typst alone to compile: the
//! hidden `safari build --emit-typst DIR`, which benches/typst_side_by_side.sh uses to time
//! `safari build` against Typst on the same documents with the same data.
//!
//! Like every backend it only makes bytes: the command writes them into
//! `out/<game>/typst/` (called `DIR` below). Each document (a [`plan::Job`] of the
//! [`plan::Plan`], and the card designs the deck places) becomes a folder
//! `DIR/<the PDF's name>/` (`DIR/decks/ships/` for `decks/ships.pdf`, the deck's designs
//! in `DIR/decks/ships-designs/`) that Typst compiles with that folder as its root:
//!
//! - `templates/*.typ` and the game's own Typst files: the sources this build typesets (its own
//!   templates where it has them), each mention of `sys.inputs` replaced by `safari-inputs`,
//!   imported from `/data/inputs.typ` on a first line of its own (Typst's command line gives
//!   templates only strings as `sys.inputs`, safari gives them JSON values and bytes);
//! - `data/inputs.typ`: that dictionary, each value read from a file beside it with `json`
//!   (`game.json`, the deck's `grid.json` ...), which gives the same Typst values as safari's
//!   conversion of the same JSON; the deck's card designs are `read` from `designs.pdf`, which
//!   the step before it writes;
//! - the card art the cards name, read through the game folder's seam (a template of the
//!   game's own that reads other files of the folder would not find them).
//!
//! `DIR/fonts/` holds the faces safari typesets with (the bundled ones and the DejaVu Sans
//! Mono fallback from typst-assets), to be given as the only fonts; `DIR/documents.json`
//! lists the compile steps in an order that works, each with its PDF and previews. The
//! Tabletop Simulator export is not emitted (it is safari's own work on Typst's pages), nor are
//! `--preview`'s card pictures.

use serde::Serialize;

use super::files::TemplateFiles;
use super::plan;
use crate::Output;

/// What replaces `sys.inputs` in the emitted sources.
const INPUTS: &str = "safari-inputs";

#[derive(Serialize)]
struct Documents {
    /// The Typst version safari typesets with.
    typst: &'static str,
    /// The game's id: safari's PDF of `out/<name>.pdf` has the identifier `<game>/<name>.pdf`
    /// (and the card designs `<game>/card-designs.typ`).
    game: String,
    /// The folder of fonts, relative to `DIR`.
    fonts: &'static str,
    steps: Vec<Step>,
}

/// One `typst compile`: paths relative to `DIR`.
#[derive(Serialize)]
struct Step {
    /// The project folder, Typst's root.
    root: String,
    /// The main file, relative to `root`.
    main: String,
    /// The PDF to write.
    pdf: String,
    /// Steps (by `root`) whose PDF this one reads.
    needs: Vec<String>,
    /// PNG previews: `<prefix>-<page>.png`.
    previews: Option<EmittedPreviews>,
}

#[derive(Serialize)]
struct EmittedPreviews {
    prefix: String,
    ppi: f64,
    /// Page numbers from 1; every page when `None`.
    pages: Option<Vec<usize>>,
}

/// The files of the Typst projects for the documents `options` ask for, paths relative to the
/// folder they go in (see the module's documentation). Card art is read through `reader`.
pub fn emit(plan: &plan::Plan, files: &TemplateFiles, art: &[(String, Vec<u8>)]) -> Vec<Output> {
    let mut outputs = fonts("fonts");
    let mut steps = Vec::new();
    for job in &plan.jobs {
        let Some(pdf) = &job.pdf else { continue };
        // A folder per document: a template may typeset several (a deck's, each deck's).
        let name = pdf.strip_suffix(".pdf").unwrap_or(pdf);
        // A job's own `game` (a sheet's, without what only cards print) replaces the
        // plan's.
        let own_game = job.inputs.iter().any(|(key, _)| key == "game");
        let mut inputs: Vec<(String, String)> = Vec::new();
        let mut data: Vec<(String, Vec<u8>)> = Vec::new();
        if !own_game {
            inputs.push(("game".to_string(), "game.json".into()));
            data.push(("game.json".to_string(), json(&plan.game)));
        }
        for (key, value) in &job.inputs {
            let file = format!("{key}.json");
            inputs.push((key.clone(), file.clone()));
            data.push((file, json(value)));
        }
        let mut needs = Vec::new();
        if let Some(designs) = &job.designs {
            // The designs receive what the document does, with the plan's game (as `run`
            // gives them).
            let designs_root = format!("{name}-designs");
            let mut design_inputs = vec![("game".to_string(), "game.json".to_string())];
            let mut design_data = vec![("game.json".to_string(), json(&plan.game))];
            for (key, value) in job.inputs.iter().filter(|(key, _)| key != "game") {
                design_inputs.push((key.clone(), format!("{key}.json")));
                design_data.push((format!("{key}.json"), json(value)));
            }
            outputs.extend(project(
                &designs_root,
                files,
                art,
                &design_inputs,
                &design_data,
            ));
            steps.push(Step {
                root: designs_root.clone(),
                main: format!("templates/{designs}"),
                pdf: format!("{name}/data/designs.pdf"),
                needs: Vec::new(),
                previews: None,
            });
            inputs.push(("designs".to_string(), "designs.pdf".to_string()));
            needs.push(designs_root);
        }
        outputs.extend(project(name, files, art, &inputs, &data));
        steps.push(Step {
            root: name.to_string(),
            main: format!("templates/{}", job.template),
            pdf: format!("out/{pdf}"),
            needs,
            previews: job.previews.as_ref().map(|p| EmittedPreviews {
                prefix: format!("out/preview/{}", p.name),
                ppi: p.dpi,
                pages: p.pages.clone(),
            }),
        });
    }
    let documents = Documents {
        typst: "0.15.1",
        game: plan.game_id.clone(),
        fonts: "fonts",
        steps,
    };
    outputs.push(Output {
        path: "documents.json".to_string(),
        bytes: json(&documents),
    });
    outputs
}

/// The game folder's files at `paths`, each once, in the order of their paths: the pictures a
/// build's templates draw, which the projects carry (a game's card art, its symbols').
pub fn folder_files<'a>(
    reader: &crate::world::FolderReader,
    paths: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<(String, Vec<u8>)>, crate::diag::Diagnostic> {
    let paths: std::collections::BTreeSet<&str> = paths.into_iter().collect();
    paths
        .into_iter()
        .map(|path| Ok((path.to_string(), reader.read(path)?)))
        .collect()
}

fn json(value: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(value).expect("print data serialises")
}

/// The files of one project folder `name/`: the sources rewritten, the card art, and `data/`.
fn project(
    name: &str,
    files: &TemplateFiles,
    art: &[(String, Vec<u8>)],
    inputs: &[(String, String)],
    data: &[(String, Vec<u8>)],
) -> Vec<Output> {
    let mut outputs = Vec::new();
    let mut add = |path: &str, bytes: Vec<u8>| {
        outputs.push(Output {
            path: format!("{name}/{}", path.trim_start_matches('/')),
            bytes,
        })
    };
    for (path, bytes) in art {
        add(path, bytes.clone());
    }
    for (path, text) in files.texts() {
        let text = if text.contains("sys.inputs") {
            format!(
                "#import \"/data/inputs.typ\": {INPUTS}\n{}",
                text.replace("sys.inputs", INPUTS)
            )
        } else {
            text.to_string()
        };
        add(&path, text.into_bytes());
    }
    let mut typ = format!(
        "// `sys.inputs` as safari gives them to this document, read from the files beside.\n\
         #let {INPUTS} = (\n"
    );
    for (key, file) in inputs {
        let read = if file.ends_with(".json") {
            format!("json(\"/data/{file}\")")
        } else {
            format!("read(\"/data/{file}\", encoding: none)")
        };
        typ.push_str(&format!("  \"{key}\": {read},\n"));
    }
    typ.push_str(")\n");
    add("data/inputs.typ", typ.into_bytes());
    for (file, bytes) in data {
        add(&format!("data/{file}"), bytes.clone());
    }
    outputs
}

/// The faces safari's Typst engine is given, as files in `dir/`.
fn fonts(dir: &str) -> Vec<Output> {
    let faces = crate::fonts::FILES
        .iter()
        .chain(crate::fonts::FALLBACK.iter())
        .copied();
    faces
        .enumerate()
        .map(|(index, data)| {
            let info = typst::text::Font::iter(typst::foundations::Bytes::new(data))
                .next()
                .map(|font| {
                    let info = font.info();
                    let variant = info.variant;
                    format!(
                        "{}-{}-{:?}",
                        info.family,
                        variant.weight.to_number(),
                        variant.style
                    )
                    .replace(' ', "")
                })
                .unwrap_or_default();
            let extension = if data.starts_with(b"OTTO") {
                "otf"
            } else {
                "ttf"
            };
            Output {
                path: format!("{dir}/{index:02}-{info}.{extension}"),
                bytes: data.to_vec(),
            }
        })
        .collect()
}
