//! The invariants of ARCHITECTURE.md that the source itself must keep, read from the source:
//! files are touched only through the two seams, the layers below the rules modules name no
//! game, and no function calls itself back (so no depth content controls can exhaust the
//! stack). Each test reports every place that breaks its rule, not only the first.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.rs` file under `relative`, or the file itself, as (path from the root, text).
fn rust_files(relative: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut stack = vec![root().join(relative)];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).unwrap() {
                stack.push(entry.unwrap().path());
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            let name = path
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            found.push((name, std::fs::read_to_string(&path).unwrap()));
        }
    }
    found.sort();
    found
}

/// The code the programs run: the compiler's library and binary and the crates' sources (not
/// their tests, benches or build scripts).
fn program_sources() -> Vec<(String, String)> {
    let mut files = rust_files("src");
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        let krate = entry.unwrap().path();
        let name = krate.file_name().unwrap().to_string_lossy().into_owned();
        files.extend(rust_files(&format!("crates/{name}/src")));
    }
    files
}

/// A line without its `//` comment (a `//` inside a string literal ends the line early, which
/// can only hide a fault in the rest of that line, never invent one).
fn code_of(line: &str) -> &str {
    line.split("//").next().unwrap()
}

fn report(faults: &[String], rule: &str) {
    assert!(
        faults.is_empty(),
        "{} place(s) break the rule that {rule}:\n{}",
        faults.len(),
        faults.join("\n")
    );
}

/// `GameFolder` (crates/core/src/world.rs) is the one way files are read, and `OutputRoot` with its
/// helpers (src/output/) the one way they are written: a path check, a size bound, a lock
/// or a refusal to follow a link lives there once, and nothing else can bypass it.
#[test]
fn files_are_read_and_written_only_through_the_two_seams() {
    let seams = ["crates/core/src/world.rs", "src/output/"];
    let touches = [
        "std::fs",
        "fs::",
        "File::open",
        "File::create",
        "OpenOptions",
    ];
    let mut faults = Vec::new();
    for (name, text) in program_sources() {
        if seams.iter().any(|seam| name.starts_with(seam)) {
            continue;
        }
        for (number, line) in text.lines().enumerate() {
            let code = code_of(line);
            if let Some(touch) = touches.iter().find(|t| code.contains(*t)) {
                faults.push(format!(
                    "{name}:{}: `{touch}` in `{}`",
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    report(
        &faults,
        "only crates/core/src/world.rs and src/output/ touch files",
    );
}

/// The workspace's crates, lowest first: a crate may depend on crates of lower layers only.
/// The engine reads nothing but rulesets; the shared core knows no game; the playtest page is
/// put together from what it is given; the layout places a sheet the core models; the
/// component layer reads games made of components and lays their sheets out; the backends
/// print and export what they are given; the rules modules check and build each game in memory;
/// the binary (commands, output seam) is everything else.
const LAYERS: &[&[&str]] = &[
    &["safari-engine"],
    &["safari-core", "safari-engine-wasm", "safari-playtest"],
    &["safari-layout"],
    &["safari-components"],
    &["safari-backends"],
    &["safari-rules"],
    &["safari"],
];

#[test]
fn crates_depend_only_on_lower_layers() {
    let layer_of = |name: &str| LAYERS.iter().position(|layer| layer.contains(&name));
    let mut manifests = vec![root().join("Cargo.toml")];
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        manifests.push(entry.unwrap().path().join("Cargo.toml"));
    }
    let mut faults = Vec::new();
    for manifest in manifests {
        let text = std::fs::read_to_string(&manifest).unwrap();
        let table: toml::Table = toml::from_str(&text).unwrap();
        let name = table["package"]["name"].as_str().unwrap().to_string();
        let Some(layer) = layer_of(&name) else {
            faults.push(format!("{name} is in no layer: add it to LAYERS"));
            continue;
        };
        let dependencies = table.get("dependencies").and_then(|d| d.as_table());
        for dependency in dependencies.into_iter().flat_map(|d| d.keys()) {
            // The command line is the binary's: a library's types know no option names.
            if dependency.starts_with("clap") && name != "safari" {
                faults.push(format!(
                    "{name} depends on {dependency}: only the binary parses a command line"
                ));
            }
            match layer_of(dependency) {
                Some(below) if below < layer => {}
                Some(_) => faults.push(format!("{name} depends on {dependency}, not below it")),
                None => {}
            }
        }
    }
    report(&faults, "a crate depends only on crates below it");
}

/// A library or binary that declares `test = false` is not compiled as a test harness by
/// `cargo test` (which saves compiling it a second time): a unit test written in it would
/// never run.
#[test]
fn targets_without_a_test_harness_hold_no_unit_tests() {
    let mut faults = Vec::new();
    let mut manifests = vec![(String::new(), root().join("Cargo.toml"))];
    for entry in std::fs::read_dir(root().join("crates")).unwrap() {
        let krate = entry.unwrap().path();
        let name = krate.file_name().unwrap().to_string_lossy().into_owned();
        manifests.push((format!("crates/{name}/"), krate.join("Cargo.toml")));
    }
    for (folder, manifest) in manifests {
        let table: toml::Table =
            toml::from_str(&std::fs::read_to_string(manifest).unwrap()).unwrap();
        let untested =
            |target: &toml::Value| target.get("test").and_then(|t| t.as_bool()) == Some(false);
        let lib_untested = table.get("lib").is_some_and(untested);
        let bins = table
            .get("bin")
            .and_then(|b| b.as_array())
            .cloned()
            .unwrap_or_default();
        let all_bins_untested = !bins.is_empty() && bins.iter().all(untested);
        if !(lib_untested && (all_bins_untested || bins.is_empty())) {
            continue;
        }
        for (name, text) in rust_files(&format!("{folder}src")) {
            for (number, line) in text.lines().enumerate() {
                if code_of(line).contains("#[test]") || code_of(line).contains("#[cfg(test)]") {
                    faults.push(format!("{name}:{}: a unit test, never run", number + 1));
                }
            }
        }
    }
    report(
        &faults,
        "a crate built without a test harness holds no unit test",
    );
}

/// Only the commands print (`src/cli/`): a library function that printed would bypass the
/// one place where what content says is made inert (`diag::printable`) and `--quiet`. The one
/// exception is the typesetting worker's allocator, which says on its way out that the memory
/// bound was reached, for the parent to read.
#[test]
fn only_the_commands_print() {
    let exempt =
        |name: &str| name.starts_with("src/cli/") || name == "crates/backends/src/memory.rs";
    let mut faults = Vec::new();
    for (name, text) in program_sources().into_iter().filter(|(n, _)| !exempt(n)) {
        faults.extend(prints::in_file(&name, &text));
    }
    report(&faults, "only the commands print");
}

/// The rule holds the whole file, not only what comes before its first test module: a print
/// planted after one, or in a function the file defines below its tests, is found; one in
/// test code is not.
#[test]
fn only_the_commands_print_reads_past_the_tests() {
    let planted = r#"
        #[cfg(test)]
        mod tests {
            fn shown() { println!("a test may print"); }
        }
        fn below() { eprintln!("planted"); }
        impl Thing {
            fn method(&self) { let _ = std::io::stdout(); }
            #[cfg(test)]
            fn hook(&self) { print!("test hook"); }
        }
    "#;
    let found = prints::in_file("planted.rs", planted);
    assert_eq!(
        found,
        [
            "planted.rs: `eprintln!` in fn below",
            "planted.rs: `io::stdout` in fn Thing::method",
        ]
    );
}

/// Prints in a file's code outside its tests, read from the parsed source.
mod prints {
    use syn::visit::Visit;

    const MACROS: [&str; 5] = ["println", "eprintln", "print", "eprint", "dbg"];
    const STREAMS: [&str; 2] = ["stdout", "stderr"];

    /// Whether `attrs` hold `#[cfg(test)]` or `#[test]`.
    fn is_test(attrs: &[syn::Attribute]) -> bool {
        attrs.iter().any(|a| {
            a.path().is_ident("test")
                || (a.path().is_ident("cfg")
                    && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
        })
    }

    struct Prints<'a> {
        file: &'a str,
        within: Vec<String>,
        found: Vec<String>,
    }

    impl Prints<'_> {
        fn found(&mut self, what: &str) {
            let place = match self.within.is_empty() {
                true => String::new(),
                false => format!(" in fn {}", self.within.join("::")),
            };
            self.found.push(format!("{}: `{what}`{place}", self.file));
        }
    }

    impl<'ast> Visit<'ast> for Prints<'_> {
        fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
            if !is_test(&item.attrs) {
                syn::visit::visit_item_mod(self, item);
            }
        }

        fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
            if is_test(&item.attrs) {
                return;
            }
            let owner = match &*item.self_ty {
                syn::Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
                _ => None,
            };
            self.within.push(owner.unwrap_or_else(|| "?".to_string()));
            syn::visit::visit_item_impl(self, item);
            self.within.pop();
        }

        fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
            if !is_test(&item.attrs) {
                self.within.push(item.sig.ident.to_string());
                syn::visit::visit_item_fn(self, item);
                self.within.pop();
            }
        }

        fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
            if !is_test(&item.attrs) {
                self.within.push(item.sig.ident.to_string());
                syn::visit::visit_impl_item_fn(self, item);
                self.within.pop();
            }
        }

        fn visit_macro(&mut self, mac: &'ast syn::Macro) {
            if let Some(name) = mac.path.segments.last().map(|s| s.ident.to_string())
                && MACROS.contains(&name.as_str())
            {
                self.found(&format!("{name}!"));
            }
            // A macro's arguments are tokens, not syntax: read them as expressions where they
            // are (`format!`, `write!`), so a print inside one is found.
            if let Ok(args) = mac.parse_body_with(
                syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated,
            ) {
                for arg in &args {
                    self.visit_expr(arg);
                }
            }
        }

        fn visit_path(&mut self, path: &'ast syn::Path) {
            let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
            if let [.., io, stream] = names.as_slice()
                && io == "io"
                && STREAMS.contains(&stream.as_str())
            {
                self.found(&format!("io::{stream}"));
            }
            syn::visit::visit_path(self, path);
        }
    }

    /// Each print in `text` outside test code, as "file: `what` in fn f"; a file that does not
    /// parse is a fault of its own.
    pub fn in_file(file: &str, text: &str) -> Vec<String> {
        let parsed = match syn::parse_file(text) {
            Ok(parsed) => parsed,
            Err(error) => return vec![format!("{file}: does not parse: {error}")],
        };
        let mut prints = Prints {
            file,
            within: Vec::new(),
            found: Vec::new(),
        };
        prints.visit_file(&parsed);
        prints.found
    }
}

/// The words of the four games (their concepts and names), which the layers below the rules
/// modules must not use, in code, comments or documentation alike: what a game adds comes
/// through its module.
const GAME_WORDS: &[&str] = &[
    "safari_zone",
    "safari zone",
    "safari ball",
    "park-rules",
    "park_rules",
    "park rules",
    "field-guide",
    "field_guide",
    "field guide",
    "species",
    "pokemon",
    "pokémon",
    "pokédex",
    "pokedex",
    "capture",
    "expedition",
    "hazard",
    "encounter",
    "gamewright",
    "diceafari",
    "tricky",
    "hyena",
    "camera",
    "jungle",
    "charlie",
    "trainer",
    "habitat",
    "animal",
    "photo",
    "map card",
    "route",
];

/// The layers below the rules modules: the component layer, the layout, the shared loader and
/// model, the seams, the fonts, rasters, charts and HTML shell, and every backend; and the
/// component layer's templates. (The playtest page's crate is Safari Zone RNW's own, and the
/// diagnostic codes' registry the catalogue of every game's codes: neither is below them.)
fn below_the_rules() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for place in [
        "crates/components/src",
        "crates/backends/src",
        "crates/layout/src",
        "crates/rules/src/load",
        "crates/core/src/lib.rs",
        "crates/core/src/load",
        "crates/core/src/model",
        "crates/core/src/world.rs",
        "crates/core/src/words.rs",
        "crates/core/src/diag",
        "src/output",
        "crates/rules/src/charts.rs",
        "crates/rules/src/html.rs",
    ] {
        files.extend(rust_files(place));
    }
    // The scripts and the stylesheet they ship beside their code.
    for (folder, extension) in [("crates/backends/src", "lua"), ("crates/rules/src", "css")] {
        for entry in std::fs::read_dir(root().join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == extension) {
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                let text = std::fs::read_to_string(&path).unwrap();
                files.push((format!("{folder}/{name}"), text));
            }
        }
    }
    for entry in std::fs::read_dir(root().join("templates")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with("table") || name == "sheet.typ" {
            let text = std::fs::read_to_string(&path).unwrap();
            files.push((format!("templates/{name}"), text));
        }
    }
    files
}

#[test]
fn no_layer_below_the_rules_modules_names_a_game() {
    let files = below_the_rules();
    assert!(
        files.len() >= 50,
        "only {} files below the rules",
        files.len()
    );
    let mut faults = Vec::new();
    // The codes' registry is the catalogue of every game's codes and their explanations.
    for (name, text) in files
        .into_iter()
        .filter(|(n, _)| !n.ends_with("diag/codes.rs"))
    {
        for (number, line) in text.lines().enumerate() {
            let lower = line.to_lowercase();
            for word in GAME_WORDS.iter().filter(|w| lower.contains(*w)) {
                faults.push(format!(
                    "{name}:{}: `{word}` in `{}`",
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    report(&faults, "the layers below the rules modules name no game");
}

/// What a backend or the component layer needs of a game is handed to it (templates, the
/// export, document names, the `Rules` of the component layer's own interface): nothing below
/// the rules modules reaches up for the registry of modules, or for the command line.
#[test]
fn no_layer_below_the_rules_modules_reaches_up() {
    let mut faults = Vec::new();
    // A crate of its own cannot name a higher crate at all (its manifest is held to its layer
    // above). The rules crate's game-free parts (charts, HTML, pictures) are held here not to
    // name its modules or registry, and the root's output seam not to name the commands.
    let upper_in = |name: &str| -> &'static [&'static str] {
        if name.starts_with("crates/rules/src/") {
            &[
                "crate::safari_zone",
                "crate::gamewright",
                "crate::diceafari",
                "crate::tricky_safari",
                "crate::none",
                "crate::Module",
                "crate::named",
                "crate::module(",
                "clap::",
            ]
        } else if name.starts_with("src/") {
            &["crate::cli", "crate::rules", "safari_rules", "clap::"]
        } else {
            &[]
        }
    };
    for (name, text) in below_the_rules() {
        for (number, line) in text.lines().enumerate() {
            let code = code_of(line);
            for upper in upper_in(&name).iter().filter(|upper| code.contains(*upper)) {
                faults.push(format!(
                    "{name}:{}: `{upper}` in `{}`",
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    report(
        &faults,
        "no layer below the rules modules names them or the command line",
    );
}

/// Who calls whom among the program's functions, as far as the source says without types: a
/// function is its file and name, a method its type (and trait) and name. A call `f(..)` is
/// the function `f` of the same file, else the one function of that name in the program;
/// `m::f(..)` the one `f` of a module `m`; `T::f(..)`, `Self::f(..)` and `self.f(..)` the
/// method of `T` or of the `impl` the call is in, inherent first as Rust picks. A method called
/// on any other value is of a type the source does not say, and is left out: a walk that
/// calls itself on a child (`child.walk()`) is not found here.
mod calls {
    use std::collections::{BTreeMap, BTreeSet};

    use syn::visit::Visit;

    #[derive(Default)]
    pub struct Graph {
        /// function → the functions its body calls.
        pub edges: BTreeMap<String, BTreeSet<String>>,
        /// function name → the keys of the free functions of that name.
        free: BTreeMap<String, BTreeSet<String>>,
    }

    fn free_key(file: &str, name: &str) -> String {
        format!("{file}: fn {name}")
    }

    fn method_key(owner: &str, name: &str) -> String {
        format!("{owner}::{name}")
    }

    /// The functions each file defines, as keys (a first pass, so that calls can resolve).
    struct Definitions<'a> {
        graph: &'a mut Graph,
        file: &'a str,
        owner: Vec<String>,
    }

    /// The owner of an `impl` block's methods: `T`, or `T as Trait` for a trait's.
    fn owner_of(item: &syn::ItemImpl) -> String {
        let ty = type_name(&item.self_ty);
        match &item.trait_ {
            Some((_, path, _)) => {
                let name = path.segments.last().map(|s| s.ident.to_string());
                format!("{ty} as {}", name.unwrap_or_default())
            }
            None => ty,
        }
    }

    fn type_name(ty: &syn::Type) -> String {
        match ty {
            syn::Type::Path(path) => path
                .path
                .segments
                .last()
                .map(|s| s.ident.to_string())
                .unwrap_or_default(),
            syn::Type::Reference(r) => type_name(&r.elem),
            _ => String::from("?"),
        }
    }

    fn is_test_module(item: &syn::ItemMod) -> bool {
        item.attrs.iter().any(|a| {
            a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test")
        })
    }

    impl<'ast> Visit<'ast> for Definitions<'_> {
        fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
            let name = item.sig.ident.to_string();
            let key = free_key(self.file, &name);
            self.graph.free.entry(name).or_default().insert(key.clone());
            self.graph.edges.entry(key).or_default();
            syn::visit::visit_item_fn(self, item);
        }

        fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
            self.owner.push(owner_of(item));
            syn::visit::visit_item_impl(self, item);
            self.owner.pop();
        }

        fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
            self.owner.push(item.ident.to_string());
            syn::visit::visit_item_trait(self, item);
            self.owner.pop();
        }

        fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
            let key = method_key(self.owner.last().unwrap(), &item.sig.ident.to_string());
            self.graph.edges.entry(key).or_default();
            syn::visit::visit_impl_item_fn(self, item);
        }

        fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
            let key = method_key(self.owner.last().unwrap(), &item.sig.ident.to_string());
            self.graph.edges.entry(key).or_default();
            syn::visit::visit_trait_item_fn(self, item);
        }

        fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
            if !is_test_module(item) {
                syn::visit::visit_item_mod(self, item);
            }
        }
    }

    /// The calls in each function's body (the second pass).
    struct Calls<'a> {
        graph: &'a mut Graph,
        file: &'a str,
        owner: Vec<String>,
        current: Vec<String>,
    }

    impl Calls<'_> {
        fn enter(&mut self, key: String, body: impl FnOnce(&mut Self)) {
            self.current.push(key);
            body(self);
            self.current.pop();
        }

        fn call(&mut self, callee: Option<String>) {
            let (Some(caller), Some(callee)) = (self.current.last(), callee) else {
                return;
            };
            if self.graph.edges.contains_key(&callee) {
                self.graph.edges.get_mut(caller).unwrap().insert(callee);
            }
        }

        fn free(&self, name: &str) -> Option<String> {
            let here = free_key(self.file, name);
            if self.graph.edges.contains_key(&here) {
                return Some(here);
            }
            match self.graph.free.get(name) {
                Some(keys) if keys.len() == 1 => keys.iter().next().cloned(),
                _ => None,
            }
        }

        /// The free function `name` of the module `module` (a file `module.rs` or
        /// `module/mod.rs`), when the program has exactly one; none of another crate's.
        fn free_in_module(&self, module: &str, name: &str) -> Option<String> {
            let keys = self.graph.free.get(name)?;
            let mut found = keys.iter().filter(|key| {
                let file = key.split(": fn ").next().unwrap();
                let path = file.trim_end_matches(".rs").trim_end_matches("/mod");
                path.rsplit('/').next() == Some(module)
            });
            match (found.next(), found.next()) {
                (Some(key), None) => Some(key.clone()),
                _ => None,
            }
        }

        /// `T::name`: the inherent method, else the one trait method of that name `T` has.
        fn method_of(&self, owner: &str, name: &str) -> Option<String> {
            let inherent = method_key(owner, name);
            if self.graph.edges.contains_key(&inherent) {
                return Some(inherent);
            }
            let prefix = format!("{owner} as ");
            let suffix = format!("::{name}");
            let mut found = self
                .graph
                .edges
                .keys()
                .filter(|k| k.starts_with(&prefix) && k.ends_with(&suffix));
            match (found.next(), found.next()) {
                (Some(key), None) => Some(key.clone()),
                _ => None,
            }
        }

        /// `self.name(..)` or `Self::name(..)`: as Rust picks, the inherent method first, else
        /// the method of the trait being implemented.
        fn method_here(&self, name: &str) -> Option<String> {
            let owner = self.owner.last()?;
            let inherent = method_key(owner.split(" as ").next().unwrap(), name);
            if self.graph.edges.contains_key(&inherent) {
                return Some(inherent);
            }
            let own = method_key(owner, name);
            self.graph.edges.contains_key(&own).then_some(own)
        }
    }

    impl<'ast> Visit<'ast> for Calls<'_> {
        fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
            let key = free_key(self.file, &item.sig.ident.to_string());
            self.enter(key, |this| syn::visit::visit_item_fn(this, item));
        }

        fn visit_item_impl(&mut self, item: &'ast syn::ItemImpl) {
            self.owner.push(owner_of(item));
            syn::visit::visit_item_impl(self, item);
            self.owner.pop();
        }

        fn visit_item_trait(&mut self, item: &'ast syn::ItemTrait) {
            self.owner.push(item.ident.to_string());
            syn::visit::visit_item_trait(self, item);
            self.owner.pop();
        }

        fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
            let key = method_key(self.owner.last().unwrap(), &item.sig.ident.to_string());
            self.enter(key, |this| syn::visit::visit_impl_item_fn(this, item));
        }

        fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
            let key = method_key(self.owner.last().unwrap(), &item.sig.ident.to_string());
            self.enter(key, |this| syn::visit::visit_trait_item_fn(this, item));
        }

        fn visit_expr_call(&mut self, call: &'ast syn::ExprCall) {
            if let syn::Expr::Path(path) = &*call.func {
                let segments: Vec<String> = path
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                let name = segments.last().cloned().unwrap_or_default();
                let callee = match segments.len() {
                    1 => self.free(&name),
                    _ => {
                        let qualifier = &segments[segments.len() - 2];
                        if qualifier == "Self" {
                            self.method_here(&name)
                        } else if qualifier.starts_with(|c: char| c.is_uppercase()) {
                            self.method_of(qualifier, &name)
                        } else if qualifier == "self" {
                            Some(free_key(self.file, &name))
                        } else {
                            self.free_in_module(qualifier, &name)
                        }
                    }
                };
                self.call(callee);
            }
            syn::visit::visit_expr_call(self, call);
        }

        fn visit_expr_method_call(&mut self, call: &'ast syn::ExprMethodCall) {
            let on_self = matches!(
                &*call.receiver,
                syn::Expr::Path(path) if path.path.is_ident("self")
            );
            if on_self {
                let callee = self.method_here(&call.method.to_string());
                self.call(callee);
            }
            syn::visit::visit_expr_method_call(self, call);
        }

        fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
            if !is_test_module(item) {
                syn::visit::visit_item_mod(self, item);
            }
        }
    }

    pub fn graph(files: &[(String, String)]) -> Graph {
        let parsed: Vec<(&String, syn::File)> = files
            .iter()
            .map(|(name, text)| {
                let file = syn::parse_file(text).unwrap_or_else(|e| panic!("{name}: {e}"));
                (name, file)
            })
            .collect();
        let mut graph = Graph::default();
        for (name, file) in &parsed {
            Definitions {
                graph: &mut graph,
                file: name,
                owner: Vec::new(),
            }
            .visit_file(file);
        }
        for (name, file) in &parsed {
            let mut calls = Calls {
                graph: &mut graph,
                file: name,
                owner: Vec::new(),
                current: Vec::new(),
            };
            calls.visit_file(file);
        }
        graph
    }
}

/// The functions that call themselves on a depth a limit bounds, each with the limit: none
/// goes deeper than that however the content is written.
const BOUNDED_RECURSION: &[(&str, &str)] = &[
    (
        "crates/components/src/load.rs: fn json_of",
        "a TOML value's nesting, which the toml parser refuses past its recursion limit \
         (SZ0102) before any value is made",
    ),
    (
        "Reader::base_node",
        "KDL blocks, refused past limits::MAX_KDL_DEPTH before the reader starts \
         (limits::kdl_nesting_past)",
    ),
    (
        "Reader::children",
        "KDL blocks, refused past limits::MAX_KDL_DEPTH before the reader starts",
    ),
    (
        "Reader::nodes",
        "KDL blocks, refused past limits::MAX_KDL_DEPTH before the reader starts",
    ),
    (
        "Roll::score",
        "one level a die of a re-roll, at most limits::MAX_EXPEDITION_DICE",
    ),
];

#[test]
fn no_function_calls_itself_back() {
    let graph = calls::graph(&program_sources());
    // The call graph among the functions the program defines.
    let names: Vec<&String> = graph.edges.keys().collect();
    let index: BTreeMap<&String, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let mut call_graph = petgraph::graph::DiGraph::<&String, ()>::new();
    let nodes: Vec<_> = names.iter().map(|n| call_graph.add_node(*n)).collect();
    for (caller, callees) in &graph.edges {
        for callee in callees.iter().filter_map(|c| index.get(c)) {
            call_graph.add_edge(nodes[index[caller]], nodes[*callee], ());
        }
    }
    let allowed: BTreeSet<&str> = BOUNDED_RECURSION.iter().map(|(name, _)| *name).collect();
    let mut faults = Vec::new();
    let mut recursing: BTreeSet<&str> = BTreeSet::new();
    for component in petgraph::algo::tarjan_scc(&call_graph) {
        let looped = component.len() > 1 || call_graph.contains_edge(component[0], component[0]);
        if !looped {
            continue;
        }
        let mut members: Vec<&str> = component.iter().map(|n| call_graph[*n].as_str()).collect();
        members.sort();
        recursing.extend(&members);
        if members.iter().all(|m| allowed.contains(m)) {
            continue;
        }
        let places: Vec<String> = members.iter().map(|m| m.to_string()).collect();
        faults.push(format!("  {}", places.join(" -> ")));
    }
    // The list holds only what still recurses.
    let stale: Vec<&&str> = allowed.difference(&recursing).collect();
    assert!(
        stale.is_empty(),
        "listed as bounded but no longer recursing: {stale:?}"
    );
    report(
        &faults,
        "no function calls itself back, directly or through others",
    );
}
