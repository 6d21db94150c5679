#pragma once
// One transfer and duplex (docs/measurement-core.md): factories, one file per
// kind of copy; register.cpp adds them.
#include <memory>

#include "methods/characterizer.hpp"

namespace hwcomm::cuda {

// methods_host_device.cpp
std::unique_ptr<Characterizer> make_memcpy_h2d();
std::unique_ptr<Characterizer> make_memcpy_d2h();
std::unique_ptr<Characterizer> make_memcpy_h2h();
// methods_device_device.cpp
std::unique_ptr<Characterizer> make_memcpy_d2d();
std::unique_ptr<Characterizer> make_memcpy_peer();
// methods_duplex.cpp
std::unique_ptr<Characterizer> make_duplex_d2d();
std::unique_ptr<Characterizer> make_duplex_h2d();
// methods_sm_copy.cpp (copies by GPU threads, and by the TMA bulk-copy unit)
std::unique_ptr<Characterizer> make_sm_copy_d2d();
std::unique_ptr<Characterizer> make_sm_copy_d2d_push();
std::unique_ptr<Characterizer> make_sm_copy_h2d();
std::unique_ptr<Characterizer> make_sm_copy_d2h();
std::unique_ptr<Characterizer> make_tma_copy_d2d();
std::unique_ptr<Characterizer> make_tma_copy_h2d();
std::unique_ptr<Characterizer> make_tma_copy_d2h();

}  // namespace hwcomm::cuda
