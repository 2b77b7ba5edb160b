//! Builds the rules engine as WebAssembly (`crates/engine-wasm`) for the page to embed.
//!
//! The engine is compiled by a second cargo, for `wasm32-unknown-unknown` with the
//! workspace's `wasm` profile, into its own target folder (`target/wasm-engine`), so that the
//! outer build's lock is never waited on and a rebuild only recompiles what changed. The
//! second cargo shares the outer one's job tokens (it inherits its jobserver), so the two
//! never run more jobs together than the machine's cores. Paths of this machine are remapped
//! out of the module (panic messages name source files), so every machine builds the same
//! bytes. Where the toolchain lacks the WebAssembly target and rustup manages it, the target
//! is added, as `wasm-pack` does: a fresh clone builds with `cargo build` alone.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

fn main() {
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let workspace = manifest_dir
        .parent()
        .and_then(Path::parent)
        .expect("the crate lives in <workspace>/crates/playtest")
        .to_path_buf();
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets it"));
    for watched in [
        "crates/engine/src",
        "crates/engine/Cargo.toml",
        "crates/engine-wasm/src",
        "crates/engine-wasm/Cargo.toml",
        "Cargo.lock",
    ] {
        println!(
            "cargo:rerun-if-changed={}",
            workspace.join(watched).display()
        );
    }
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_DIR");

    let target_dir = env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .map(|dir| {
            if dir.is_absolute() {
                dir
            } else {
                workspace.join(dir)
            }
        })
        .unwrap_or_else(|| workspace.join("target"))
        .join("wasm-engine");
    ensure_target();
    let cargo_home = env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")));
    let mut rustflags = vec![format!(
        "--remap-path-prefix={}=/safari",
        workspace.display()
    )];
    if let Some(home) = cargo_home {
        rustflags.push(format!("--remap-path-prefix={}=/cargo", home.display()));
    }
    // One module per page: Safari Zone RNW's engine, and the family's.
    for (feature, file) in [
        ("zone", "safari_engine.wasm"),
        ("family", "safari_family_engine.wasm"),
    ] {
        build_module(&workspace, &target_dir, &rustflags, feature);
        let wasm = target_dir.join(TARGET).join("wasm/safari_engine_wasm.wasm");
        std::fs::copy(&wasm, out_dir.join(file))
            .unwrap_or_else(|e| panic!("could not copy {}: {e}", wasm.display()));
    }
}

/// Builds `crates/engine-wasm` for WebAssembly with the one entry point `feature` names.
fn build_module(workspace: &Path, target_dir: &Path, rustflags: &[String], feature: &str) {
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(workspace)
        .args(["build", "--locked", "--profile", "wasm", "--target", TARGET])
        .args(["--package", "safari-engine-wasm", "--no-default-features"])
        .args(["--features", feature, "--target-dir"])
        .arg(target_dir);
    // The outer build's flags and settings are for this machine, not for WebAssembly.
    for (key, _) in env::vars_os() {
        let key = key.to_string_lossy();
        let outer = key.starts_with("CARGO_ENCODED_RUSTFLAGS")
            || key.starts_with("CARGO_BUILD_")
            || key.starts_with("CARGO_TARGET_")
            || key.starts_with("CARGO_PROFILE_")
            || key == "RUSTFLAGS"
            || key == "CARGO_CFG_TARGET_FEATURE";
        if outer {
            command.env_remove(key.as_ref());
        }
    }
    command.env("CARGO_ENCODED_RUSTFLAGS", rustflags.join("\x1f"));
    let status = command
        .status()
        .unwrap_or_else(|e| panic!("could not run cargo to build the engine as WebAssembly: {e}"));
    if !status.success() {
        panic!(
            "building the rules engine as WebAssembly failed (see above). The playtest page \
             needs Rust's WebAssembly target: `rustup target add {TARGET}` (rust-toolchain.toml \
             asks rustup for it)"
        );
    }
}

/// Adds the WebAssembly target with rustup when the compiler has no standard library for it.
fn ensure_target() {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let libdir = Command::new(&rustc)
        .args(["--print", "target-libdir", "--target", TARGET])
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| PathBuf::from(String::from_utf8_lossy(&output.stdout).trim()));
    let installed = libdir.is_some_and(|dir| {
        std::fs::read_dir(dir).is_ok_and(|mut entries| {
            entries
                .any(|e| e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("libcore-")))
        })
    });
    if installed {
        return;
    }
    let Some(toolchain) = env::var_os("RUSTUP_TOOLCHAIN") else {
        return;
    };
    println!("cargo:warning=adding Rust's {TARGET} target with rustup, for the playtest page");
    let added = Command::new("rustup")
        .args(["target", "add", TARGET, "--toolchain"])
        .arg(toolchain)
        .status();
    if !added.is_ok_and(|status| status.success()) {
        println!("cargo:warning=`rustup target add {TARGET}` failed");
    }
}
