#pragma once
// SIGINT and SIGTERM during a run: the first one only sets a flag, which the
// engine polls at sample boundaries (it then saves the file and exits 4 with
// the resume command); a second one ends the process at once, by the same
// signal, so the shell sees what happened. Saves block these signals between
// naming and renaming their temporary (atomic_file), so even the second
// signal leaves the last written file intact and no temporary behind.
#include <csignal>

namespace hwcomm {

// Installs the handlers for its lifetime and restores the previous ones after;
// the request flag is cleared on install. One instance at a time (hwcomm run).
class InterruptHandlers {
public:
    InterruptHandlers();
    ~InterruptHandlers();
    InterruptHandlers(const InterruptHandlers&) = delete;
    InterruptHandlers& operator=(const InterruptHandlers&) = delete;

private:
    struct sigaction old_int_ {}, old_term_ {};
};

// True once SIGINT or SIGTERM arrived while handlers were installed.
bool interrupt_requested() noexcept;
// The signal that asked (SIGINT or SIGTERM), 0 when none.
int interrupt_signal() noexcept;

// Blocks SIGINT, SIGTERM and SIGHUP in this thread for its lifetime (pending
// ones are delivered on destruction): for the few system calls that must not
// be cut in two.
class DeferSignals {
public:
    DeferSignals() noexcept;
    ~DeferSignals();
    DeferSignals(const DeferSignals&) = delete;
    DeferSignals& operator=(const DeferSignals&) = delete;

private:
    sigset_t old_ {};
};

}  // namespace hwcomm
