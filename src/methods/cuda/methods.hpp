#pragma once
// Factories of the CUDA characterizers, one file per family; register.cpp
// adds them all in this order.
#include <memory>

#include "methods/characterizer.hpp"

namespace hwcomm::cuda {

// copy/methods_host_device.cpp
std::unique_ptr<Characterizer> make_memcpy_h2d();
std::unique_ptr<Characterizer> make_memcpy_d2h();
std::unique_ptr<Characterizer> make_memcpy_h2h();
// copy/methods_device_device.cpp
std::unique_ptr<Characterizer> make_memcpy_d2d();
std::unique_ptr<Characterizer> make_memcpy_peer();
// copy/methods_duplex.cpp
std::unique_ptr<Characterizer> make_duplex_d2d();
std::unique_ptr<Characterizer> make_duplex_h2d();
// copy/methods_sm_copy.cpp
std::unique_ptr<Characterizer> make_sm_copy_d2d();
std::unique_ptr<Characterizer> make_sm_copy_d2d_push();
std::unique_ptr<Characterizer> make_sm_copy_h2d();
std::unique_ptr<Characterizer> make_sm_copy_d2h();
// concurrency/methods_concurrency.cpp
std::unique_ptr<Characterizer> make_all_to_host();
std::unique_ptr<Characterizer> make_host_to_all();
std::unique_ptr<Characterizer> make_all_to_one();
std::unique_ptr<Characterizer> make_one_to_all();
std::unique_ptr<Characterizer> make_pairs_sharing_a_link();
// zerocopy/methods_zero_copy.cpp
std::unique_ptr<Characterizer> make_zero_copy_read();
std::unique_ptr<Characterizer> make_zero_copy_write();
// um/methods_um_prefetch.cpp, um/methods_um_demand.cpp
std::unique_ptr<Characterizer> make_um_prefetch();
std::unique_ptr<Characterizer> make_um_demand();

}  // namespace hwcomm::cuda
