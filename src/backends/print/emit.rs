//! A build's print documents as plain Typst projects, for Typst alone to compile: the
//! hidden `safari build --emit-typst DIR`, which benches/typst_side_by_side.sh uses to time
//! `safari build` against Typst on the same documents with the same data.
//!
//! Each document (a [`Job`] of the [`plan`], and the card designs the deck places) becomes a
//! folder `DIR/<template's stem>/` that Typst compiles with that folder as its root:
//!
//! - `templates/*.typ` and `park-rules.typ`: the sources this build typesets (the game's own
//!   templates where it has them), each mention of `sys.inputs` replaced by `safari-inputs`,
//!   imported from `/data/inputs.typ` on a first line of its own (Typst's command line gives
//!   templates only strings as `sys.inputs`, safari gives them JSON values and bytes);
//! - `data/inputs.typ`: that dictionary, each value read from a file beside it with `json`
//!   (`game.json`, the deck's `grid.json` ...), which gives the same Typst values as safari's
//!   conversion of the same JSON; the deck's card designs are `read` from `designs.pdf`, which
//!   the step before it writes;
//! - every other file of the game folder (card art), as Typst reads it through the folder.
//!
//! `DIR/fonts/` holds the faces safari typesets with (the bundled ones and the DejaVu Sans
//! Mono fallback from typst-assets), to be given as the only fonts; `DIR/documents.json`
//! lists the compile steps in an order that works, each with its PDF and previews. The
//! Tabletop Simulator export is not emitted (it is safari's own work on Typst's pages), nor are
//! `--preview`'s card pictures.

use std::path::Path;

use serde::Serialize;

use super::PrintOptions;
use super::files::TemplateFiles;
use super::plan;
use crate::layout::SheetLayout;
use crate::model::Game;

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

/// Writes the documents `options` ask for into `dir` (see the module's documentation).
pub fn emit(
    game: &Game,
    layout: Option<&SheetLayout>,
    files: &TemplateFiles,
    root: &Path,
    options: &PrintOptions,
    dir: &Path,
) -> std::io::Result<()> {
    let plan = plan::plan(game, layout, files.has_park_rules, options, None);
    std::fs::create_dir_all(dir)?;
    write_fonts(&dir.join("fonts"))?;
    let mut steps = Vec::new();
    for job in &plan.jobs {
        let Some(pdf) = &job.pdf else { continue };
        let name = stem(&job.template);
        let mut inputs: Vec<(String, String)> = vec![("game".to_string(), "game.json".into())];
        let mut data: Vec<(String, Vec<u8>)> = vec![("game.json".to_string(), json(&plan.game))];
        for (key, value) in &job.inputs {
            let file = format!("{key}.json");
            inputs.push((key.clone(), file.clone()));
            data.push((file, json(value)));
        }
        let mut needs = Vec::new();
        if let Some(designs) = &job.designs {
            let designs_name = stem(designs);
            write_project(
                &dir.join(designs_name),
                root,
                files,
                &[("game".to_string(), "game.json".to_string())],
                &[("game.json".to_string(), json(&plan.game))],
            )?;
            steps.push(Step {
                root: designs_name.to_string(),
                main: format!("templates/{designs}"),
                pdf: format!("{name}/data/designs.pdf"),
                needs: Vec::new(),
                previews: None,
            });
            inputs.push(("designs".to_string(), "designs.pdf".to_string()));
            needs.push(designs_name.to_string());
        }
        write_project(&dir.join(name), root, files, &inputs, &data)?;
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
    std::fs::write(dir.join("documents.json"), json(&documents))
}

fn stem(template: &str) -> &str {
    template.strip_suffix(".typ").unwrap_or(template)
}

fn json(value: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(value).expect("print data serialises")
}

/// A project folder: the game folder's files, the sources rewritten, and `data/`.
fn write_project(
    project: &Path,
    game_root: &Path,
    files: &TemplateFiles,
    inputs: &[(String, String)],
    data: &[(String, Vec<u8>)],
) -> std::io::Result<()> {
    if project.exists() {
        std::fs::remove_dir_all(project)?;
    }
    std::fs::create_dir_all(project.join("data"))?;
    if !game_root.as_os_str().is_empty() {
        copy_folder(game_root, project)?;
    }
    for (path, text) in files.texts() {
        let target = project.join(path.trim_start_matches('/'));
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let text = if text.contains("sys.inputs") {
            format!(
                "#import \"/data/inputs.typ\": {INPUTS}\n{}",
                text.replace("sys.inputs", INPUTS)
            )
        } else {
            text.to_string()
        };
        std::fs::write(target, text)?;
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
    std::fs::write(project.join("data/inputs.typ"), typ)?;
    for (file, bytes) in data {
        std::fs::write(project.join("data").join(file), bytes)?;
    }
    Ok(())
}

/// Copies the game folder's files (not hidden ones, not links) into `to`.
fn copy_folder(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let kind = entry.file_type()?;
        if kind.is_dir() {
            std::fs::create_dir_all(to.join(&name))?;
            copy_folder(&entry.path(), &to.join(&name))?;
        } else if kind.is_file() {
            std::fs::copy(entry.path(), to.join(&name))?;
        }
    }
    Ok(())
}

/// The faces safari's Typst engine is given, as files.
fn write_fonts(dir: &Path) -> std::io::Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir)?;
    }
    std::fs::create_dir_all(dir)?;
    let faces = crate::fonts::FILES
        .iter()
        .chain(crate::fonts::FALLBACK.iter())
        .copied();
    for (index, data) in faces.enumerate() {
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
        std::fs::write(dir.join(format!("{index:02}-{info}.{extension}")), data)?;
    }
    Ok(())
}
