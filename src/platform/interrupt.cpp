#include "platform/interrupt.hpp"

#include <pthread.h>

#include <atomic>
#include <stdexcept>

namespace hwcomm {

namespace {

// The one global the rules allow: a signal handler can reach nothing else.
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "signal handlers need a lock-free flag");

extern "C" void on_interrupt(int sig) {
    int expected = 0;
    if (g_signal.compare_exchange_strong(expected, sig)) return;
    // Second signal: end now, by the signal, as if no handler were installed.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ::sigaction(sig, &dfl, nullptr);
    ::raise(sig);
}

}  // namespace

InterruptHandlers::InterruptHandlers() {
    g_signal.store(0);
    struct sigaction sa {};
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;  // system calls go on; the engine polls the flag
    if (::sigaction(SIGINT, &sa, &old_int_) != 0 || ::sigaction(SIGTERM, &sa, &old_term_) != 0)
        throw std::runtime_error("cannot install the SIGINT/SIGTERM handlers");
}

InterruptHandlers::~InterruptHandlers() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
}

bool interrupt_requested() noexcept { return g_signal.load() != 0; }

int interrupt_signal() noexcept { return g_signal.load(); }

DeferSignals::DeferSignals() noexcept {
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    ::pthread_sigmask(SIG_BLOCK, &block, &old_);
}

DeferSignals::~DeferSignals() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

}  // namespace hwcomm
