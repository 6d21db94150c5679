// The interrupt flag: the first SIGINT/SIGTERM asks, the second ends the
// process by that signal.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include "platform/interrupt.hpp"

using namespace hwcomm;

TEST(Interrupt, FirstSignalOnlySetsTheFlag) {
    for (int sig : {SIGINT, SIGTERM}) {
        const InterruptHandlers handlers;
        EXPECT_FALSE(interrupt_requested());
        ::raise(sig);
        EXPECT_TRUE(interrupt_requested());
        EXPECT_EQ(interrupt_signal(), sig);
    }
}

TEST(Interrupt, SecondSigintEndsTheProcessBySigint) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        const InterruptHandlers handlers;
        ::raise(SIGINT);
        if (!interrupt_requested()) ::_exit(3);
        ::raise(SIGINT);
        ::_exit(4);  // not reached
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status)) << "exit " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), SIGINT);
}

TEST(Interrupt, PreviousHandlersComeBack) {
    struct sigaction before {}, after {};
    ::sigaction(SIGINT, nullptr, &before);
    { const InterruptHandlers handlers; }
    ::sigaction(SIGINT, nullptr, &after);
    EXPECT_EQ(before.sa_handler, after.sa_handler);
}

TEST(Interrupt, DeferredSignalArrivesAfterTheCriticalSection) {
    const InterruptHandlers handlers;
    {
        const DeferSignals defer;
        ::raise(SIGTERM);
        EXPECT_FALSE(interrupt_requested());
    }
    EXPECT_TRUE(interrupt_requested());
}
