// The KDL parser allocates heavily; mimalloc makes a cold `safari check` noticeably faster.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    safari::cli::main()
}
