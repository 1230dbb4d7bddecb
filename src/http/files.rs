//! Room for connections: each open connection is a file descriptor, and the soft limit many systems start a
//! process with (1024) would be spent by a thousand idle visitors. The server raises it to the hard limit the
//! system allows; past that, a connection waits in the listening queue until a descriptor comes free.

/// Raise this process's soft limit of open files to its hard limit, as far as the system lets it (a failure
/// leaves the limit as it was).
pub(crate) fn raise_open_files_limit() {
    // SAFETY: getrlimit and setrlimit only read and write the struct given, which lives on this stack. Measured
    // need: 1,000 idle connections (docs/web.md) do not fit under a soft limit of 1024 with the server's own files.
    unsafe {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                rlim_max: limit.rlim_max,
            };
            libc::setrlimit(libc::RLIMIT_NOFILE, &raised);
        }
    }
}
