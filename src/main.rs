fn main() -> std::process::ExitCode {
    safari::cli::main()
}
